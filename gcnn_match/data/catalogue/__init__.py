"""The datasets the papers read, registered by family: where each split's files live, in which
format, with which labels (the types: `gcnn_match.data.registry`).

Adding a dataset is one `register_dataset(DatasetSpec(...))` in its family's module (a new family
is a new module, imported below), plus a reader in readers.py only when its file format is new.

Layout: every file sits at `{data_dir}/{dataset}/...`, matching the offline mirror, so
`--data_dir=/path/to/shared/data` works as is. Each split lists `FileSpec` candidates in priority
order: the official layout (what a user downloads and unpacks) first, then derived layouts such
as RE2's `a<TAB>b<TAB>label` files. `registry.resolve_split` takes the first candidate present.

Checksums: `sha256` is the hash of the file's bytes on disk; `content_sha256` the hash of the
decompressed bytes of a `.gz` file. Only the offline mirror's files are pinned, with the values of
its SOURCE.md tables. Nobody recorded the hashes of the official downloads, so their FileSpecs
have `sha256=None`: they are fetched unverified and `download.verify()` reports them "unpinned".
"""

# Each module registers its datasets; the order of the imports is the order in which the
# datasets are listed.
# isort: off
from gcnn_match.data.catalogue import nli, question_pairs, fever, reviews, answer_selection  # noqa: F401
# isort: on
