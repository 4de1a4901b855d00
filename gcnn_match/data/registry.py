"""Dataset registry: the types that describe a dataset's files (`DatasetSpec`, `FileSpec`), the
datasets known to this process, and the lookups that find and read a split's file.

The datasets the papers read are registered by the catalogue (`gcnn_match.data.catalogue`),
which importing `gcnn_match.data` loads; a dataset of your own (`gcnn_match.data.own_data`) or a
run's recorded one joins them with `register_dataset` or `adopt_dataset`.
"""

import dataclasses
import pathlib
from collections.abc import Iterator, Mapping

from gcnn_match.data.example import Example
from gcnn_match.data.readers import get_reader
from gcnn_match.data.reading import ReadStats
from gcnn_match.files import InputError

PathLike = str | pathlib.Path


class MissingDataError(FileNotFoundError, InputError):
    """No candidate file of a split is present under the data directory.

    `str(error)` may take several lines (every candidate file, its URL or how to get it);
    `one_line` says what is missing and the fix in one (`summary`, else the message).
    """

    def __init__(self, message: str, summary: str | None = None):
        super().__init__(message)
        self.summary = summary

    @property
    def one_line(self) -> str:
        return self.summary or " ".join(str(self).split())


@dataclasses.dataclass(frozen=True)
class FileSpec:
    """One way a split can be stored.

    Attributes:
        path: relative to the data dir, `{dataset}/...`.
        format: a reader name from `readers.READERS`.
        url: official direct download, or None (then `how_to_get` says how to obtain it).
        member: the path inside the zip at `url` to extract to `path`; None when `url` is the file.
        sha256: hash of the bytes on disk, when known.
        content_sha256: hash of the decompressed bytes of a `.gz` file, when known.
        how_to_get: instructions when there is no direct URL (application form, Drive link...).
        labels: raw label string in this file -> class index; None = the dataset's label names.
        options: extra keyword arguments for the reader (e.g. `unlabelled=True`).
        note: caveat shown to the user (e.g. a lossy derived layout).
    """

    path: str
    format: str
    url: str | None = None
    member: str | None = None
    sha256: str | None = None
    content_sha256: str | None = None
    how_to_get: str | None = None
    labels: Mapping[str, int] | None = None
    options: Mapping[str, object] = dataclasses.field(default_factory=dict)
    note: str = ""


# Keys that a recorded spec (a run's dataset.json, a saved description of your own files) may
# hold and nothing reads: the language, homepage and licence of the text, and the papers' length
# cut-offs, which the rows state.
UNREAD_KEYS = ("language", "homepage", "licence", "max_lengths")


@dataclasses.dataclass(frozen=True, kw_only=True)
class DatasetSpec:
    """Everything the project knows about one dataset.

    Attributes:
        name: how runs, rows and flags name the dataset.
        description: one line about the dataset, as shown to users.
        task: "classification" or "ranking" (candidates grouped by `Example.group`).
        labels: label names; the index is the class id.
        positive_label: the class whose F1 / ranking relevance is reported, where it matters.
        splits: split name -> FileSpec candidates, in priority order.
        resources: extra files that are not example splits (FEVER wiki-pages, WikiQA qrels).
        official_splits: the official (train, dev, test) split names, which the scales read
            (`gcnn_match.data.experiment_data.apply_scale`); dev "holdout" = a held-out part of
            train, test None = no test split (a dataset of your own may have neither), train
            None = no train split (a stand-in sample: only the low-resource scale applies).
        single_text: the reader puts one text on both sides (a review to rate, not a pair).
        tokenized_as: how the text in the files is already tokenized, a name of
            `gcnn_match.data.raw_text.TOKENIZATIONS` ("ptb-pretokenized": Quora's BiMPM
            files); None: raw text as typed.
        given_tokens_as: the same for the tokens a reader takes from beside the text
            (`Example.a_tokens`: "ptb-parse", the leaves of SNLI's parses); None: none given.
    """

    name: str
    description: str = ""
    task: str
    labels: tuple[str, ...]
    splits: Mapping[str, tuple[FileSpec, ...]]
    positive_label: int | None = None
    resources: Mapping[str, tuple[FileSpec, ...]] = dataclasses.field(default_factory=dict)
    official_splits: tuple[str | None, str, str | None] = ("train", "dev", "test")
    single_text: bool = False
    tokenized_as: str | None = None
    given_tokens_as: str | None = None

    def label_map(self, file_spec: FileSpec) -> Mapping[str, int]:
        """Raw label -> index for one file: its own mapping, else the label names."""
        if file_spec.labels is not None:
            return file_spec.labels
        return {name: i for i, name in enumerate(self.labels)}

    def input_labels(self) -> Mapping[str, int]:
        """Raw label -> index for a file given by hand (evaluate.py input): the label names,
        and the class indices too when no name is itself a number."""
        by_name = {name: i for i, name in enumerate(self.labels)}
        if any(name.strip().isdigit() for name in self.labels):
            return by_name
        return {**{str(i): i for i in range(len(self.labels))}, **by_name}

    def to_dict(self) -> dict:
        """The spec as JSON values: what a run directory records of its dataset."""
        return _json_values(self)

    @classmethod
    def from_dict(cls, values: Mapping) -> "DatasetSpec":
        """The spec `to_dict` wrote; the keys of `UNREAD_KEYS` a record may hold are left out."""
        values = {key: value for key, value in values.items() if key not in UNREAD_KEYS}
        for key in ("splits", "resources"):
            values[key] = {
                name: tuple(FileSpec(**file_spec) for file_spec in files)
                for name, files in values.get(key, {}).items()
            }
        for key in ("labels", "official_splits"):
            if key in values:
                values[key] = tuple(values[key])
        return cls(**values)


def _json_values(value):
    """Dataclasses, mappings and tuples as JSON's objects and lists."""
    if dataclasses.is_dataclass(value):
        return {f.name: _json_values(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {k: _json_values(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_json_values(v) for v in value]
    return value


DATASETS: dict[str, DatasetSpec] = {}


def register_dataset(spec: DatasetSpec) -> DatasetSpec:
    """Makes `spec` known under its name (once)."""
    if spec.name in DATASETS:
        raise ValueError(f"dataset {spec.name!r} registered twice")
    DATASETS[spec.name] = spec
    return spec


def adopt_dataset(spec: DatasetSpec) -> DatasetSpec:
    """Makes a dataset described outside this module (a run's dataset.json, a dataset file of
    your own) known to this process; a dataset registered under its name stays."""
    return DATASETS.setdefault(spec.name, spec)


def get_dataset(name: str) -> DatasetSpec:
    """The spec registered under `name`."""
    if name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}; known: {', '.join(DATASETS)}")
    return DATASETS[name]


def _candidates(spec: DatasetSpec, split: str, kind: str = "split") -> tuple[FileSpec, ...]:
    table = spec.splits if kind == "split" else spec.resources
    if split not in table:
        raise ValueError(f"{spec.name} has no {kind} {split!r}; known: {', '.join(table)}")
    return table[split]


def missing_message(name: str, split: str, data_dir: PathLike, kind: str = "split") -> str:
    """What to place where for one split: every candidate, its source, and the command."""
    spec = get_dataset(name)
    lines = [f"{name} {kind} {split!r}: none of these files exists under {data_dir}:"]
    previous_how = None
    for file_spec in _candidates(spec, split, kind):
        lines.append(f"  - {pathlib.Path(data_dir) / file_spec.path}")
        if file_spec.url:
            source = file_spec.url + (f" (member {file_spec.member})" if file_spec.member else "")
            lines.append(f"      from {source}")
        if file_spec.how_to_get:
            how = file_spec.how_to_get.format(data_dir=data_dir, split=split)
            lines.append("      how: " + ("as above" if how == previous_how else how))
            previous_how = how
        if file_spec.note:
            lines.append(f"      note: {file_spec.note}")
    lines.append(
        f"Fetch what has a URL with `make data-{name} DATA_DIR={data_dir}` or "
        f"`python experiments/download.py --dataset={name} --data_dir={data_dir}`."
    )
    return "\n".join(lines)


def missing_summary(name: str, split: str, data_dir: PathLike) -> str:
    """`missing_message` of a split in one line: the files looked for, and the command that
    fetches what has a URL and prints how to get the rest."""
    paths = ", ".join(
        str(pathlib.Path(data_dir) / f.path) for f in _candidates(get_dataset(name), split)
    )
    command = (
        f"python experiments/download.py --dataset={name} --splits={split} --data_dir={data_dir}"
    )
    return (
        f"{name} split {split!r}: none of {paths} exists; `{command}` fetches it or says how "
        "to get it"
    )


def missing_error(name: str, split: str, data_dir: PathLike, kind: str = "split"):
    """The MissingDataError of a split (or resource) none of whose files is present."""
    summary = missing_summary(name, split, data_dir) if kind == "split" else None
    return MissingDataError(missing_message(name, split, data_dir, kind), summary)


def resolve_split(
    name: str, split: str, data_dir: PathLike, kind: str = "split"
) -> tuple[pathlib.Path, FileSpec]:
    """The first candidate file of `split` present under `data_dir`.

    `kind="resource"` resolves an extra resource (e.g. FEVER "wiki-pages") instead.
    Raises MissingDataError naming every candidate, its URL or how to get it.
    """
    for file_spec in _candidates(get_dataset(name), split, kind):
        path = pathlib.Path(data_dir) / file_spec.path
        if path.is_file():
            return path, file_spec
    raise missing_error(name, split, data_dir, kind)


def read_split(
    name: str, split: str, data_dir: PathLike, stats: ReadStats | None = None
) -> Iterator[Example]:
    """Stream the examples of one split through the reader of the file found."""
    path, file_spec = resolve_split(name, split, data_dir)
    reader = get_reader(file_spec.format)
    return reader(
        path, labels=get_dataset(name).label_map(file_spec), stats=stats, **file_spec.options
    )


def available_splits(name: str, data_dir: PathLike) -> list[str]:
    """The splits of `name` with a file present under `data_dir`, in registry order."""
    spec = get_dataset(name)
    return [
        split
        for split, files in spec.splits.items()
        if any((pathlib.Path(data_dir) / f.path).is_file() for f in files)
    ]
