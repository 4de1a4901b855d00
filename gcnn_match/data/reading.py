"""What every reader shares (`readers` for the benchmark formats, `own_data_reader` for tsv /
csv / jsonl files of your own): a file read line by line, skips counted, errors located.

- `.gz` files are decompressed transparently; the path "-" reads standard input; text is
  decoded as strict UTF-8, line by line, so an error names the exact line;
- a malformed line stops the read with a `ReaderError` whose message starts `path:line:` and
  says how to fix it;
- documented skips (SNLI/MultiNLI gold_label '-', blank lines) are counted in a `ReadStats`,
  never silently dropped;
- a file that yields no example at all is an error too (`path:N: no examples ...`): an empty
  split almost always means a truncated download or a wrong path, and training on nothing
  should not look like success.

A reader is a line parser handed to `drive`, which raises `Malformed` for a bad line and `Skip`
for a counted one.
"""

import dataclasses
import gzip
import json
import pathlib
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping

from gcnn_match.files import InputError

PathLike = str | pathlib.Path
STDIN = "-"


class ReaderError(ValueError, InputError):
    """A malformed input line, or a damaged file. `str(err)` is `path:line: reason`; where only
    the byte is known (a cut compressed stream), `path: byte N: reason`; `path: reason` where
    neither is (`line` and `byte` None)."""

    def __init__(self, path: PathLike, line: int | None, reason: str, byte: int | None = None):
        self.path = pathlib.Path(path)
        self.line = line
        self.byte = byte
        self.reason = reason
        where = f":{line}" if line is not None else ""
        where += f": byte {byte:,}" if byte is not None and line is None else ""
        super().__init__(f"{_display(path)}{where}: {reason}")


def _display(path: PathLike) -> str:
    return "<stdin>" if str(path) == STDIN else str(path)


@dataclasses.dataclass
class ReadStats:
    """What one read saw: physical lines, examples yielded, and skips counted by reason."""

    source: str = ""
    header: str = ""  # read_pairs(header="auto"): what the first line was taken for, and why
    lines: int = 0
    examples: int = 0
    skipped: dict[str, int] = dataclasses.field(default_factory=dict)

    def skip(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1

    @property
    def num_skipped(self) -> int:
        return sum(self.skipped.values())

    def summary(self) -> str:
        """One line, e.g. `snli_1.0_dev.jsonl.gz: 9842 examples, skipped 158 (gold_label '-')`."""
        text = f"{self.source}: {self.examples} examples"
        if self.skipped:
            if len(self.skipped) == 1:
                reasons = next(iter(self.skipped))
            else:
                reasons = ", ".join(f"{r}: {n}" for r, n in sorted(self.skipped.items()))
            text += f", skipped {self.num_skipped} ({reasons})"
        return text


class Malformed(Exception):
    """Raised by a line parser; `drive` turns it into a ReaderError with path and line."""


class Skip(Exception):
    """Raised by a line parser for a documented, counted skip."""


def iter_lines(path: pathlib.Path, stats: ReadStats) -> Iterator[tuple[int, str]]:
    """Yield (1-based line number, decoded line without its end-of-line)."""
    opener = gzip.open if path.suffix == ".gz" else open
    lineno = 0
    try:
        with _stdin() if str(path) == STDIN else opener(path, "rb") as handle:
            for lineno, raw in enumerate(handle, start=1):
                stats.lines += 1
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as err:
                    reason = (
                        f"not UTF-8 ({err.reason} at byte {err.start}); convert the file "
                        "to UTF-8, e.g. iconv -f latin1 -t utf-8"
                    )
                    raise ReaderError(path, lineno, reason) from None
                if lineno == 1:
                    text = text.lstrip("\ufeff")
                yield lineno, text.rstrip("\r\n")
    except (gzip.BadGzipFile, EOFError, zlib.error) as err:
        raise ReaderError(
            path,
            lineno + 1,
            f"corrupt gzip data ({err}); the file is truncated or damaged: download it again",
        ) from err


class _stdin:
    """Standard input's bytes as a context manager that leaves the stream open."""

    def __enter__(self):
        return sys.stdin.buffer

    def __exit__(self, *exc):
        return False


# (path, stats) -> (line number, record) pairs: decoded lines, or csv rows.
Records = Callable[[pathlib.Path, ReadStats], Iterable[tuple[int, object]]]


def drive(
    path: PathLike,
    records: Records,
    parse: Callable[[object, int], object],
    stats: ReadStats | None,
) -> Iterator:
    """Run `parse` over every record of `path`, counting skips and locating errors."""
    path = pathlib.Path(path)
    stats = stats if stats is not None else ReadStats()
    stats.source = stats.source or path.name
    yielded = headers = 0
    for lineno, record in records(path, stats):
        if not (record.strip() if isinstance(record, str) else record):
            stats.skip("blank line")
            continue
        try:
            item = parse(record, lineno)
        except Skip as skip:
            stats.skip(str(skip))
            continue
        except Malformed as bad:
            raise ReaderError(path, lineno, str(bad)) from None
        if item is None:  # a header line
            headers += 1
            continue
        stats.examples += 1
        yielded += 1
        yield item
    if not yielded:
        raise ReaderError(
            path,
            stats.lines,
            f"no examples ({stats.lines} lines read, "
            f"{stats.num_skipped} skipped{', 1 header' * headers}): an empty or "
            "truncated file, or the wrong one; check the path "
            "or download it again",
        )


def split_fields(line: str, expected: int, delimiter: str = "\t") -> list:
    parts = line.split(delimiter)
    if len(parts) != expected:
        raise Malformed(
            f"expected {expected} {delimiter_name(delimiter)}-separated columns, "
            f"found {len(parts)}{column_hint(len(parts) > expected, delimiter)}"
        )
    return parts


def column_hint(extra: bool, delimiter: str) -> str:
    name = delimiter_name(delimiter)
    if extra:
        return f" (a {name} inside a text? remove it, or quote the texts and read the file as csv)"
    return " (a truncated line or a missing field: complete or remove the line)"


def delimiter_name(delimiter: str) -> str:
    return {"\t": "tab", ",": "comma"}.get(delimiter, repr(delimiter))


def label_index(raw, labels: Mapping[str, int] | None) -> int:
    """Map a raw label to its index; without a mapping the raw value must be the index."""
    raw = str(raw).strip()
    if labels is None:
        if raw.isdigit():
            return int(raw)
        raise Malformed(f"label {raw!r} is not a class index (pass labels= to map it)")
    if raw not in labels:
        known = ", ".join(repr(k) for k in labels)
        raise Malformed(f"unknown label {raw!r} (known: {known}); correct or remove the line")
    return labels[raw]


def json_object(line: str) -> dict:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise Malformed(
            f"invalid JSON ({err.msg} at column {err.colno}); the line is cut "
            "or not one JSON object: fix or remove it"
        ) from None
    if not isinstance(obj, dict):
        raise Malformed(f"expected a JSON object, found {type(obj).__name__}")
    return obj


def json_key(obj: dict, key: str):
    if key not in obj:
        raise Malformed(f"missing key {key!r} (the line has: {', '.join(map(str, obj))})")
    return obj[key]


def line_uid(path: pathlib.Path, lineno: int) -> str:
    return f"{'stdin' if str(path) == STDIN else path.name}:{lineno}"
