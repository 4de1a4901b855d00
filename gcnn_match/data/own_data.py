"""A dataset of your own, described by its files: tsv / csv / jsonl sentence pairs read by the
generic column reader (`own_data_reader.read_pairs`), with no code.

`describe` turns train.py's description (--train_file, --columns, --labels...) into a
`DatasetSpec`. Every file is read once, before anything trains: its columns are resolved to
0-based indices (a name is looked up in the file's header), its header line is decided
(declared, or `auto`: `own_data_reader.header_decision`) and the decision printed, the labels
are inferred from the training file (sorted; a rare one is named in a warning) or checked
against the given ones, and every label of the other files is checked against them. A mistake
stops there with the flag, the file, the line and the fix (`DescriptionError`).

The spec is then a dataset like the registered ones: a run records it (dataset.json in the run
directory), so predict.py and evaluate.py read it in a fresh process; `save` and `load` keep it
in a file of your own (--dataset_file=mine.json), whose paths are relative to that file.
"""

import collections
import dataclasses
import json
import os
import pathlib
import re
from collections.abc import Callable, Mapping, Sequence

from gcnn_match.data import registry
from gcnn_match.data.own_data_reader import (
    FORMATS,
    header_decision,
    header_note,
    is_number,
    parse_column,
    read_records,
)
from gcnn_match.data.readers import READERS
from gcnn_match.data.reading import ReaderError
from gcnn_match.data.registry import UNREAD_KEYS, DatasetSpec, FileSpec
from gcnn_match.files import write_text_atomic

SPLIT_FLAGS = {"train": "--train_file", "dev": "--dev_file", "test": "--test_file"}
HEADERS = {"yes": True, "no": False, "auto": "auto"}
# The reader options a file of the description may set (`own_data_reader.read_pairs` arguments).
_COLUMN_OPTIONS = {"fmt", "a", "b", "label", "group", "uid", "header", "column_names", "delimiter"}
_NAME = re.compile(r"[A-Za-z0-9_.\-]+")


class DescriptionError(ValueError):
    """A mistake in the description of a dataset; the message starts with the flag to fix."""

    def __init__(self, flag: str, message: str):
        super().__init__(f"{flag}: {message}")


def _numeric_or_text(label: str):
    return (0, int(label), "") if is_number(label) else (1, 0, label)


def sorted_labels(labels) -> tuple[str, ...]:
    """Labels in class order: numbers by value, then the others alphabetically."""
    return tuple(sorted(set(labels), key=_numeric_or_text))


def _read(flag: str, path: pathlib.Path, fmt: str) -> list[tuple[int, list | dict]]:
    if not path.is_file():
        raise DescriptionError(flag, f"{path}: no such file; check the path")
    try:
        return list(read_records(path, fmt))
    except ReaderError as error:
        raise DescriptionError(flag, str(error)) from None


def _column_flag(key: str) -> str:
    return "--group_column" if key == "group" else "--columns"


def _resolve_columns(flag, path, fmt, columns, header, first):
    """The columns as indices (tsv/csv) or keys (jsonl), checked against the first record."""
    lineno, row = first
    if fmt == "jsonl":
        for key, column in columns.items():
            if isinstance(column, int):
                raise DescriptionError(
                    _column_flag(key), f"jsonl columns are keys, not indices (got {column})"
                )
            if column not in row:
                raise DescriptionError(
                    _column_flag(key),
                    f"{path}:{lineno}: no key {column!r} (the line has: {', '.join(row)}); "
                    "name one of these",
                )
        return dict(columns)
    names = [c for c in columns.values() if isinstance(c, str)]
    if names and header is False:
        raise DescriptionError(
            "--header",
            f"--header=no, but --columns names columns ({', '.join(names)}); give 0-based "
            "indices, or --header=yes",
        )
    indices = {}
    for key, column in columns.items():
        if isinstance(column, str):
            if column not in row:
                raise DescriptionError(
                    _column_flag(key),
                    f"{path}:{lineno}: the header has no column {column!r} (columns: "
                    f"{', '.join(row)}); name one of these, or give 0-based indices",
                )
            column = row.index(column)
        elif column >= len(row):
            raise DescriptionError(
                _column_flag(key),
                f"{path}:{lineno}: column {column} is beyond the line's {len(row)} columns "
                f"(0-based: 0 to {len(row) - 1}); check the index, or --format "
                f"(read as {fmt})",
            )
        indices[key] = column
    return indices


def _is_header(path, fmt, columns, header, first, known, log):
    """Whether the file's first record is a header: declared, or decided and printed once."""
    if fmt == "jsonl":
        if header is True:
            raise DescriptionError("--header", f"{path}: jsonl has no header line; leave it out")
        return False
    if header != "auto":
        return header
    lineno, row = first
    is_header, reason = header_decision(row, columns, known)
    other = "--header=no reads it as a pair" if is_header else "--header=yes skips it"
    log(f"{path}: {header_note(lineno, is_header, reason)} ({other})")
    return is_header


def _label_values(flag, path, records, label):
    values = []
    for lineno, row in records:
        if isinstance(row, dict) and label not in row:
            raise DescriptionError(
                flag, f"{path}:{lineno}: missing key {label!r} (the line has: {', '.join(row)})"
            )
        values.append((lineno, str(row[label]).strip()))
    return values


def _check_labels(flag, path, values, labels, given):
    known = set(labels)
    for lineno, value in values:
        if value in known:
            continue
        if given:
            raise DescriptionError(
                "--labels" if flag == SPLIT_FLAGS["train"] else flag,
                f"{path}:{lineno}: label {value!r} is not one of --labels "
                f"({', '.join(labels)}); add it to --labels, or correct the line",
            )
        raise DescriptionError(
            flag,
            f"{path}:{lineno}: label {value!r} does not occur in the training file (labels: "
            f"{', '.join(labels)}); correct the line, or list every label with --labels",
        )


# A label inferred from the training file (--labels=auto) that one line, or under this share of
# the lines, carries while another label is more common is more likely a typo than a class: it
# is named in a warning.
RARE_LABEL_SHARE = 0.01


def _warn_of_rare_labels(path, values, labels, log):
    """Logs a warning for each rare label of `values` ((line, label) pairs): its first line,
    how many lines carry it, and the --labels that would refuse it."""
    counts = collections.Counter(value for _, value in values)
    most = max(counts.values())
    first_line = {}
    for lineno, value in values:
        first_line.setdefault(value, lineno)
    for label in labels:
        rare = counts[label] == 1 or counts[label] < RARE_LABEL_SHARE * len(values)
        if not rare or counts[label] == most:
            continue
        others = ",".join(other for other in labels if other != label)
        log(
            f"warning: {path}:{first_line[label]}: the label {label!r} is on {counts[label]} of "
            f"{len(values)} lines, and becomes a class of its own (labels: {', '.join(labels)}); "
            f"if it is a mistake, correct the line, or refuse it with --labels={others}"
        )


def _default_name(train_file: pathlib.Path) -> str:
    return train_file.resolve().parent.name


def check_name(
    name: str, flag: str = "--dataset_name", fix: str = "give yours another name (--dataset_name)"
) -> None:
    """A name that can be a path component and is not a registered dataset's."""
    if not _NAME.fullmatch(name or ""):
        raise DescriptionError(
            flag, f"{name!r} is not a usable dataset name; use letters, digits, '_', '.' or '-'"
        )
    if name in registry.DATASETS:
        raise DescriptionError(flag, f"{name!r} is a registered dataset; {fix}")


def _check_flags(fmt, header, columns, task, group_column):
    """Raises `DescriptionError` naming the first of `describe`'s flags that cannot work."""
    if fmt not in FORMATS:
        raise DescriptionError("--format", f"{fmt!r} is not one of {', '.join(FORMATS)}")
    if header not in HEADERS:
        raise DescriptionError("--header", f"{header!r} is not one of auto, yes, no")
    if len(columns) != 3:
        raise DescriptionError(
            "--columns",
            f"give the first text, the second text and the label (3 columns), not "
            f"{len(columns)}: e.g. --columns=question1,question2,is_duplicate or 0,1,2",
        )
    if task == "ranking" and group_column is None:
        raise DescriptionError(
            "--group_column", "a ranking dataset needs the column of each candidate's question"
        )


def _split_file(flag, path, fmt, wanted, header, known, labels_given, log):
    """(FileSpec, labels) of the file given by `flag`: its columns resolved, its first line
    judged a header or a pair, its labels checked against `known` (None: inferred from this
    file, which is then the training file)."""
    records = _read(flag, path, fmt)
    indices = _resolve_columns(flag, path, fmt, wanted, header, records[0])
    values = _label_values(flag, path, records, indices["label"])
    # Before the labels are known, line 1's label is judged against the other lines'.
    judge = known if known is not None else {v for _, v in values[1:]}
    is_header = _is_header(path, fmt, wanted, header, records[0], judge, log)
    if known is None:
        known = sorted_labels(v for _, v in values[is_header:])
        _warn_of_rare_labels(path, values[is_header:], known, log)
    if len(records) == is_header:
        raise DescriptionError(flag, f"{path}: no pairs after the header line")
    _check_labels(flag, path, values[is_header:], known, labels_given)
    options = {"fmt": fmt, **indices, "header": is_header}
    if is_header:
        options["column_names"] = {key: records[0][1][i] for key, i in indices.items()}
    how_to_get = f"your own file (train.py {flag})"
    return FileSpec(str(path.resolve()), "columns", how_to_get=how_to_get, options=options), known


def describe(
    train_file,
    dev_file=None,
    test_file=None,
    *,
    name: str | None = None,
    fmt: str = "tsv",
    columns: Sequence[str] = ("0", "1", "2"),
    header: str = "auto",
    labels: Sequence[str] | None = None,
    task: str = "classification",
    group_column: str | None = None,
    log: Callable[[str], None] = print,
) -> DatasetSpec:
    """The DatasetSpec of your files, each read and checked once (module docstring).

    Args:
        train_file, dev_file, test_file: the files. Without a dev file, a held-out part of the
            training file (grouped by shared sentences) selects the model; without a test file,
            nothing is tested.
        name: the dataset's name; default the training file's folder.
        fmt: "tsv", "csv" or "jsonl".
        columns: the first text, the second text and the label: header names or 0-based
            indices (jsonl: keys), as given on the command line.
        header: "auto", "yes" or "no" (tsv/csv).
        labels: the label names in class order; None infers them from the training file.
        task: "classification", or "ranking" (candidates grouped by `group_column`, two labels,
            the second marking a right answer).
        group_column: the question each candidate answers (ranking; any task may group).
        log: where the header decisions go.
    """
    _check_flags(fmt, header, columns, task, group_column)
    train_file = pathlib.Path(train_file)
    name = name or _default_name(train_file)
    check_name(name)
    wanted = dict(zip(("a", "b", "label"), map(parse_column, columns)))
    if group_column is not None:
        wanted["group"] = parse_column(group_column)
    header = HEADERS[header]
    given = tuple(labels) if labels else None
    files = {"train": train_file, "dev": dev_file, "test": test_file}
    splits, known = {}, given
    for split, path in files.items():
        if path is not None:
            file_spec, known = _split_file(
                SPLIT_FLAGS[split], pathlib.Path(path), fmt, wanted, header, known, bool(given), log
            )
            splits[split] = (file_spec,)
    if len(known) < 2:
        raise DescriptionError(
            "--train_file",
            f"{train_file}: every pair has the label {known[0]!r}; a model needs two labels",
        )
    if task == "ranking" and len(known) != 2:
        raise DescriptionError(
            "--labels",
            f"a ranking dataset has two labels, a wrong and a right answer (in that order), "
            f"not {len(known)} ({', '.join(known)})",
        )
    return DatasetSpec(
        name=name,
        description=f"your own pairs ({', '.join(str(p) for p in files.values() if p)})",
        task=task,
        labels=known,
        splits=splits,
        positive_label=1 if task == "ranking" else None,
        official_splits=("train", "dev" if dev_file else "holdout", "test" if test_file else None),
    )


def save(spec: DatasetSpec, path) -> pathlib.Path:
    """Writes `spec` as JSON to `path`, its file paths relative to the file's folder."""
    path = pathlib.Path(path)
    values = spec.to_dict()
    folder = path.resolve().parent
    for files in values["splits"].values():
        for file_spec in files:
            file_spec["path"] = os.path.relpath(file_spec["path"], folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, json.dumps(values, indent=2) + "\n")
    return path


def _check_keys(where: str, values, allowed, required=(), ignored=()) -> None:
    if not isinstance(values, Mapping):
        raise ValueError(f"{where} must be a JSON object, not {type(values).__name__}")
    unknown = sorted(set(values) - set(allowed) - set(ignored))
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(allowed)})")
    missing = [key for key in required if key not in values]
    if missing:
        raise ValueError(f"{where}: missing key {missing[0]!r}")


def _check_structure(values) -> None:
    _check_keys(
        "the description",
        values,
        DatasetSpec.__dataclass_fields__,
        ("name", "task", "labels", "splits"),
        ignored=UNREAD_KEYS,
    )
    if not isinstance(values["splits"], Mapping) or not values["splits"]:
        raise ValueError('"splits" must map split names to lists of files')
    for split, files in values["splits"].items():
        if not isinstance(files, list) or not files:
            raise ValueError(f"split {split!r} must be a list of files")
        for file_spec in files:
            _check_keys(
                f"a file of split {split!r}",
                file_spec,
                FileSpec.__dataclass_fields__,
                ("path", "format"),
            )
            if file_spec["format"] not in READERS:
                raise ValueError(
                    f"split {split!r}: unknown format {file_spec['format']!r} "
                    f"(formats: {', '.join(sorted(READERS))})"
                )
            if file_spec["format"] == "columns":
                _check_keys(
                    f"the options of split {split!r}",
                    file_spec.get("options", {}),
                    sorted(_COLUMN_OPTIONS),
                )


def load(path, flag: str = "--dataset_file") -> DatasetSpec:
    """The spec `save` wrote (or one written by hand), its relative paths resolved against the
    file's folder. Every mistake is a DescriptionError naming `flag` and the file."""
    path = pathlib.Path(path)
    fix = "fix it, or write it again with train.py --write_dataset_file"
    if not path.is_file():
        raise DescriptionError(
            flag,
            f"{path}: no such file; write one with train.py --train_file=... "
            "--write_dataset_file=<file>",
        )
    try:
        values = json.loads(path.read_text("utf-8"))
    except json.JSONDecodeError as error:
        raise DescriptionError(
            flag, f"{path}:{error.lineno}:{error.colno}: not JSON ({error.msg}); {fix}"
        ) from None
    except UnicodeDecodeError as error:
        raise DescriptionError(flag, f"{path}: not UTF-8 ({error.reason}); {fix}") from None
    try:
        _check_structure(values)
        spec = DatasetSpec.from_dict(values)
    except (TypeError, ValueError) as error:
        raise DescriptionError(flag, f"{path}: {error}; {fix}") from None
    folder = path.resolve().parent
    splits = {
        split: tuple(dataclasses.replace(f, path=str((folder / f.path).resolve())) for f in files)
        for split, files in spec.splits.items()
    }
    return dataclasses.replace(spec, splits=splits)


# How a file given by hand is read when neither its flags nor the run's dataset say otherwise.
PLAIN_INPUT = {"fmt": "tsv", "a": 0, "b": 1, "label": 2}


def input_layout(spec: DatasetSpec, given: Mapping[str, object]) -> dict:
    """How predict.py / evaluate.py read a file for a run on `spec` (`own_data_reader.read_pairs`
    arguments): like the run's training file when the column reader reads it (its format,
    columns and header names), else as `PLAIN_INPUT`; the format and columns that `given`
    sets (None: unset) describe the file instead, with its format the training file's and
    the other columns as in `PLAIN_INPUT` unless set too."""
    train = spec.splits[spec.official_splits[0]][0]
    own = {k: v for k, v in train.options.items() if k not in ("header", "uid")}
    run_layout = own if train.format == "columns" else dict(PLAIN_INPUT)
    given = {key: value for key, value in given.items() if value is not None}
    if not given:
        return run_layout
    return {**PLAIN_INPUT, "fmt": run_layout["fmt"], **given}
