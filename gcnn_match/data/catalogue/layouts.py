"""How the catalogue's files are stored: labels kept as class indices, the offline mirror's gzip
copies, and RE2's derived `a<TAB>b<TAB>label` layout."""

import types
from collections.abc import Callable, Iterable, Mapping

from gcnn_match.data.registry import FileSpec


def indices(n: int) -> Mapping[str, int]:
    """Labels stored as the class index itself: "0" -> 0, ..."""
    return types.MappingProxyType({str(i): i for i in range(n)})


_MIRROR_HOW = "a gzip copy in the offline mirror; see {dataset}/SOURCE.md there for its origin"


def mirror_file(
    path: str,
    fmt: str,
    labels=None,
    gz: str | None = None,
    content: str | None = None,
    note: str = "",
    options: Mapping[str, object] = types.MappingProxyType({}),
) -> FileSpec:
    """A file as the offline mirror stores it (gzipped, checksums from its SOURCE.md)."""
    return FileSpec(
        path,
        fmt,
        sha256=gz,
        content_sha256=content,
        labels=labels,
        options=options,
        note=note,
        how_to_get=_MIRROR_HOW.format(dataset=path.split("/")[0]),
    )


def re2_files(
    dataset: str, split: str, labels, hashes=(None, None), note: str = "", how: str = ""
) -> tuple[FileSpec, ...]:
    """RE2's derived `a<TAB>b<TAB>label` layout: the mirror's `.txt.gz`, then the plain `.txt`
    that RE2's prepare scripts write (unpinned: a local re-run may differ)."""
    base = f"{dataset}/re2_format/{split}.txt"
    how = how or (
        f"written by data/prepare_{dataset}.py of alibaba-edu/"
        "simple-effective-text-matching from the official files"
    )
    return (
        mirror_file(base + ".gz", "pair_label_tsv", labels, *hashes, note=note),
        FileSpec(base, "pair_label_tsv", labels=labels, how_to_get=how, note=note),
    )


def split_table(
    make: Callable[[str], tuple[FileSpec, ...]], names: Iterable[str]
) -> Mapping[str, tuple[FileSpec, ...]]:
    """Split name -> its FileSpec candidates, as `make` lists them."""
    return types.MappingProxyType({name: make(name) for name in names})
