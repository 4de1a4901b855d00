"""The generic reader of sentence pairs in tsv / csv / jsonl files: columns named or numbered,
a header line declared or recognised, labels mapped. It reads files of your own
(`gcnn_match.data.own_data` describes them) and the registered datasets stored in such a layout
(format "columns" in `readers.READERS`: SICK, Yahoo! Answers, the Yelp stand-in).
"""

import csv
import pathlib
from collections.abc import Callable, Container, Iterator, Mapping

from gcnn_match.data.example import Example
from gcnn_match.data.reading import (
    Malformed,
    PathLike,
    ReadStats,
    Records,
    column_hint,
    delimiter_name,
    drive,
    iter_lines,
    json_key,
    json_object,
    label_index,
    line_uid,
)

Column = str | int


FORMATS = ("tsv", "csv", "jsonl")
_DELIMITERS = {"tsv": "\t", "csv": ",", "jsonl": None}
HEADER_CHOICES = (True, False, "auto")


def parse_column(text):
    """A command-line column: "2" is the 0-based index 2, anything else a column name."""
    return int(text) if text.isdigit() else text


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(f"fmt must be 'tsv', 'csv' or 'jsonl', not {fmt!r}")


def _records(fmt: str, delimiter: str) -> Records:
    return _csv_rows(delimiter) if fmt == "csv" else iter_lines


def _row_parser(fmt: str, delimiter: str) -> Callable[[object, int], list | dict]:
    """record -> a JSON object (jsonl) or the fields of a line, which must be as many as the
    first line's: a line with more or fewer (a tab inside a text, a cut line) is an error."""
    first: list[int] = []  # line number and column count of the first line

    def row_of(record, lineno):
        if fmt == "jsonl":
            return json_object(record)
        row = record if fmt == "csv" else record.split(delimiter)
        if not first:
            first.extend((lineno, len(row)))
        elif len(row) != first[1]:
            raise Malformed(
                f"{len(row)} {delimiter_name(delimiter)}-separated columns where line "
                f"{first[0]} has {first[1]}{column_hint(len(row) > first[1], delimiter)}"
            )
        return row

    return row_of


def read_records(
    path: PathLike, fmt: str = "tsv", delimiter: str | None = None, stats: ReadStats | None = None
) -> Iterator[tuple[int, list | dict]]:
    """(line number, record) for every record of a tsv / csv / jsonl file: the fields of a line,
    or a JSON object. Lines must all have as many fields as the first one."""
    _check_format(fmt)
    delimiter = delimiter or _DELIMITERS[fmt]
    row_of = _row_parser(fmt, delimiter)

    def parse(record, lineno):
        return lineno, row_of(record, lineno)

    return drive(path, _records(fmt, delimiter), parse, stats)


def is_number(text: str) -> bool:
    """An integer, as a label field may hold one: "3", "-1"."""
    return text.lstrip("-").isdigit()


def header_decision(
    row: list,
    columns: Mapping[str, Column | None],
    labels: Container[str] | None = None,
    column_names: Mapping[str, str] | None = None,
) -> tuple[bool, str]:
    """Whether the first line `row` of a tsv/csv file is a header, and why.

    A header when the columns are named (the header says where they are), when it holds the
    names of the index columns (`column_names`: "a", "b"... -> the name in the file the columns
    were chosen from), or when its label field is not one of `labels` (where the labels are
    numbers, any number is one). Otherwise a pair.
    """
    if any(isinstance(c, str) for c in columns.values()):
        return True, "the columns are named"
    held = {
        key: row[columns[key]]
        for key in column_names or {}
        if columns.get(key) is not None and columns[key] < len(row)
    }
    if {"a", "b"} <= held.keys() and all(held[key] == column_names[key] for key in held):
        return True, f"it holds the column names {', '.join(held.values())}"
    label = columns.get("label")
    if label is not None and labels is not None and label < len(row):
        value = row[label].strip()
        numbers = bool(labels) and all(map(is_number, labels)) and is_number(value)
        if value in labels or numbers:
            return False, f"its label field {value!r} is a label"
        return True, f"its label field {value!r} is not a label"
    return False, "it holds neither the column names nor an unknown label"


def header_note(lineno: int, is_header: bool, reason: str) -> str:
    """How a header decision is reported: `line 1 is a header: its label field ...`."""
    return f"line {lineno} is {'a header' if is_header else 'read as a pair'}: {reason}"


def _check_columns(fmt: str, header: bool | str, columns: Mapping[str, Column | None]) -> None:
    """A ValueError naming the mistake when the format, header and column kinds disagree."""
    _check_format(fmt)
    if header not in HEADER_CHOICES:
        raise ValueError(f"header must be True, False or 'auto', not {header!r}")
    if fmt == "jsonl":
        if any(isinstance(c, int) for c in columns.values()):
            raise ValueError("jsonl columns are keys, not indices")
        if header is True:
            raise ValueError("jsonl has no header line")
    elif header is False and any(isinstance(c, str) for c in columns.values()):
        raise ValueError("column names need header=True or 'auto' (or use 0-based indices)")


def _header_index(row: list[str], columns: Mapping[str, Column | None]) -> dict[str, int]:
    """Column name -> index from a header row; Malformed when a named column is absent."""
    index = {name: i for i, name in enumerate(row)}
    missing = [c for c in columns.values() if isinstance(c, str) and c not in index]
    if missing:
        raise Malformed(f"header has no column {missing[0]!r} (columns: {', '.join(row)})")
    return index


def read_pairs(
    path: PathLike,
    fmt: str = "tsv",
    *,
    a: Column,
    b: Column,
    label: Column | None = None,
    uid: Column | None = None,
    group: Column | None = None,
    labels: Mapping[str, int] | None = None,
    header: bool | str = False,
    column_names: Mapping[str, str] | None = None,
    unlabelled: bool = False,
    delimiter: str | None = None,
    stats: ReadStats | None = None,
) -> Iterator[Example]:
    """Read sentence pairs from any tsv / csv / jsonl file: a new dataset needs no code.

    Args:
        path: the file (`.gz` is fine).
        fmt: "tsv", "csv" (RFC-4180 quoting) or "jsonl".
        a, b, label, uid: column names (header row, or jsonl keys) or 0-based indices. `label` is
            optional (label None); without `uid` it is `file:line`.
        group: optional column of `Example.group` (the question of a ranking candidate).
        labels: raw label string -> class index. Unknown labels are errors. Without it the raw
            label must already be the index.
        header: tsv/csv only: True, the first line names the columns; False, it is a pair;
            "auto", decided from the first line (`header_decision`, with `labels` and
            `column_names`), and the decision noted in `stats.header`.
        column_names: for header="auto": the names of index columns ({"a": "question1"...}).
        unlabelled: labels are not read (label None); the label column, in the lines that have
            it, only tells a header (header="auto") from a pair.
        delimiter: overrides the tab (tsv) or comma (csv).

    Every tsv/csv line must have as many columns as the first one: a line with more or fewer
    (a tab inside a text, a cut line) is an error, not a shifted or half-read pair.
    """
    columns = {"a": a, "b": b, "label": label, "uid": uid, "group": group}
    _check_columns(fmt, header, columns)
    path = pathlib.Path(path)
    stats = stats if stats is not None else ReadStats()
    delimiter = delimiter or _DELIMITERS[fmt]
    row_of = _row_parser(fmt, delimiter)
    read = {k: c for k, c in columns.items() if c is not None and not (unlabelled and k == "label")}
    index: dict[str, int] = {}
    first_line = [fmt != "jsonl"]  # the next record is a tsv/csv file's first

    def cell(row, column):
        if isinstance(row, dict):
            return json_key(row, column)
        return row[column if isinstance(column, int) else index[column]]

    def parse(record, lineno):
        row = row_of(record, lineno)
        if first_line[0]:
            first_line[0] = False
            is_header = header
            if header == "auto":
                is_header, reason = header_decision(row, columns, labels, column_names)
                stats.header = header_note(lineno, is_header, reason)
            if is_header:
                index.update(_header_index(row, columns))
                return None
        if fmt != "jsonl":
            width = 1 + max(c if isinstance(c, int) else index[c] for c in read.values())
            if len(row) < width:
                raise Malformed(
                    f"expected at least {width} {delimiter_name(delimiter)}-"
                    f"separated columns, found {len(row)} (check the a/b/label "
                    "columns or the delimiter)"
                )
        return Example(
            a=cell(row, a),
            b=cell(row, b),
            label=label_index(cell(row, label), labels) if "label" in read else None,
            uid=str(cell(row, uid)) if uid is not None else line_uid(path, lineno),
            group=str(cell(row, group)) if group is not None else None,
        )

    return drive(path, _records(fmt, delimiter), parse, stats)


def _csv_rows(delimiter: str) -> Records:
    """Records as csv rows; one quoted record may span several physical lines."""

    def records(path: pathlib.Path, stats: ReadStats):
        lines = (text + "\n" for _, text in iter_lines(path, stats))
        reader = csv.reader(lines, delimiter=delimiter)
        for row in reader:
            yield reader.line_num, row

    return records


def read_columns(
    path: PathLike,
    labels: Mapping[str, int] | None = None,
    stats: ReadStats | None = None,
    **columns,
) -> Iterator[Example]:
    """`read_pairs` under the reader calling convention, for registry entries that only need
    column names (e.g. the SemEval SICK files)."""
    return read_pairs(path, labels=labels, stats=stats, **columns)
