"""Streaming readers: one function per file format, each yielding `Example`s.

Every reader goes through the same machinery (`_iter_lines` + `_drive`):
- `.gz` files are decompressed transparently; the path "-" reads standard input; text is
  decoded as strict UTF-8, line by line, so an error names the exact line;
- a malformed line stops the read with a `ReaderError` whose message starts `path:line:` and
  says how to fix it;
- documented skips (SNLI/MultiNLI gold_label '-', blank lines) are counted in a `ReadStats`,
  never silently dropped;
- a file that yields no example at all is an error too (`path:N: no examples ...`): an empty
  split almost always means a truncated download or a wrong path, and training on nothing
  should not look like success.

Readers are registered by format name in `READERS`, so the dataset registry can name them with a
string. Each takes `(path, labels=None, stats=None, **options)`, where `labels` maps the raw label
string found in the file to the class index.

Format-specific choices:
- `fever_jsonl`: a FEVER claim file has no evidence *text* (it lives in wiki-pages), so the
  Example is `a = claim`, `b = ""`, `group = uid = str(id)`.
- `fever_contexts`: a claim with its evidence sentences, as `gcnn_match.data.fever` builds them
  from a claim file, wiki-pages and retrieved sentences: `a` = the context (ATTCONV's t_y),
  `b` = the claim (t_x), `a_segments` = the sentence of each context token.
- `yelp_jsonl` / `yelp_tsv`: single-text rating prediction (Lin et al. 2017's Yelp split), so
  `a = b = review text` for intra-context models; the label is the star rating `"1"`..`"5"`.
"""

import csv
import dataclasses
import gzip
import json
import pathlib
import re
import sys
import zlib
from collections.abc import Callable, Container, Iterable, Iterator, Mapping

from gcnn_match.data.example import Example

PathLike = str | pathlib.Path
Column = str | int
STDIN = "-"


class ReaderError(ValueError):
    """A malformed input line. `str(err)` is `path:line: reason`."""

    def __init__(self, path: PathLike, line: int, reason: str):
        self.path = pathlib.Path(path)
        self.line = line
        self.reason = reason
        super().__init__(f"{_display(path)}:{line}: {reason}")


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


class _Malformed(Exception):
    """Raised by a line parser; `_drive` turns it into a ReaderError with path and line."""


class _Skip(Exception):
    """Raised by a line parser for a documented, counted skip."""


def _iter_lines(path: pathlib.Path, stats: ReadStats) -> Iterator[tuple[int, str]]:
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


def _drive(
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
        except _Skip as skip:
            stats.skip(str(skip))
            continue
        except _Malformed as bad:
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


def _fields(line: str, expected: int, delimiter: str = "\t") -> list:
    parts = line.split(delimiter)
    if len(parts) != expected:
        raise _Malformed(
            f"expected {expected} {_delimiter_name(delimiter)}-separated columns, "
            f"found {len(parts)}{_column_hint(len(parts) > expected, delimiter)}"
        )
    return parts


def _column_hint(extra: bool, delimiter: str) -> str:
    name = _delimiter_name(delimiter)
    if extra:
        return f" (a {name} inside a text? remove it, or quote the texts and read the file as csv)"
    return " (a truncated line or a missing field: complete or remove the line)"


def _delimiter_name(delimiter: str) -> str:
    return {"\t": "tab", ",": "comma"}.get(delimiter, repr(delimiter))


def _label(raw, labels: Mapping[str, int] | None) -> int:
    """Map a raw label to its index; without a mapping the raw value must be the index."""
    raw = str(raw).strip()
    if labels is None:
        if raw.isdigit():
            return int(raw)
        raise _Malformed(f"label {raw!r} is not a class index (pass labels= to map it)")
    if raw not in labels:
        known = ", ".join(repr(k) for k in labels)
        raise _Malformed(f"unknown label {raw!r} (known: {known}); correct or remove the line")
    return labels[raw]


def _json(line: str) -> dict:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        raise _Malformed(
            f"invalid JSON ({err.msg} at column {err.colno}); the line is cut "
            "or not one JSON object: fix or remove it"
        ) from None
    if not isinstance(obj, dict):
        raise _Malformed(f"expected a JSON object, found {type(obj).__name__}")
    return obj


def _key(obj: dict, key: str):
    if key not in obj:
        raise _Malformed(f"missing key {key!r} (the line has: {', '.join(map(str, obj))})")
    return obj[key]


def _uid(path: pathlib.Path, lineno: int) -> str:
    return f"{'stdin' if str(path) == STDIN else path.name}:{lineno}"


# --- Penn trees (SNLI / MultiNLI / SciTail snli_format) ------------------------------------------

_LEAF = re.compile(r"\(([^\s()]+) ([^\s()]+)\)")


def parse_tree_leaves(tree: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Tokens and POS tags from the `(TAG word)` leaves of a Penn tree, in order."""
    leaves = _LEAF.findall(tree)
    return tuple(w for _, w in leaves), tuple(t for t, _ in leaves)


def binary_parse_tokens(tree: str) -> tuple[str, ...]:
    """Tokens of an unlabelled binary parse `( ( Two women ) ... )`."""
    return tuple(t for t in tree.split() if t not in ("(", ")"))


def _nli_side(obj: dict, which: str):
    """(tokens, pos) for sentence1/sentence2 from the parses the line ships, else (None, None)."""
    parse = obj.get(f"{which}_parse")
    if parse:
        return parse_tree_leaves(parse)
    binary = obj.get(f"{which}_binary_parse")
    return (binary_parse_tokens(binary) if binary else None), None


NLI_LABELS = {"entailment": 0, "neutral": 1, "contradiction": 2}


def read_nli_jsonl(
    path: PathLike,
    labels: Mapping[str, int] | None = None,
    stats: ReadStats | None = None,
    unlabelled: bool = False,
    skip_labels: tuple[str, ...] = ("-",),
) -> Iterator[Example]:
    """SNLI / MultiNLI / SciTail-snli_format jsonl.

    Text from sentence1/sentence2; tokens and PTB tags from the `*_parse` leaves (binary parse:
    tokens only); uid = pairID (else promptID, else file:line). Lines whose gold_label is in
    `skip_labels` (no annotator majority) are counted as skipped. `unlabelled=True` (MultiNLI test,
    scored on Kaggle) gives label None whatever gold_label holds. `labels` defaults to
    `NLI_LABELS`.
    """
    path = pathlib.Path(path)
    labels = labels or NLI_LABELS

    def parse(line, lineno):
        obj = _json(line)
        label = None
        if not unlabelled:
            gold = _key(obj, "gold_label")
            if gold in skip_labels:
                raise _Skip(f"gold_label {gold!r}")
            label = _label(gold, labels)
        a_tokens, a_pos = _nli_side(obj, "sentence1")
        b_tokens, b_pos = _nli_side(obj, "sentence2")
        uid = obj.get("pairID") or obj.get("promptID") or _uid(path, lineno)
        return Example(
            a=_key(obj, "sentence1"),
            b=_key(obj, "sentence2"),
            label=label,
            uid=str(uid),
            a_tokens=a_tokens,
            b_tokens=b_tokens,
            a_pos=a_pos,
            b_pos=b_pos,
        )

    return _drive(path, _iter_lines, parse, stats)


def read_bimpm_tsv(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """BiMPM Quora partition: `label<TAB>q1<TAB>q2<TAB>id`."""

    def parse(line, lineno):
        label, a, b, uid = _fields(line, 4)
        return Example(a=a, b=b, label=_label(label, labels), uid=uid)

    return _drive(path, _iter_lines, parse, stats)


def read_pair_label_tsv(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """`a<TAB>b<TAB>label` (RE2 layouts of Quora/SciTail/SICK, LCQMC txt); uid = file:line.

    Without `labels` the label column must hold the class index itself.
    """
    path = pathlib.Path(path)

    def parse(line, lineno):
        a, b, label = _fields(line, 3)
        return Example(a=a, b=b, label=_label(label, labels), uid=_uid(path, lineno))

    return _drive(path, _iter_lines, parse, stats)


SCITAIL_TSV_LABELS = {"entails": 0, "neutral": 1}


def read_scitail_tsv(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """Official SciTail tsv_format: `premise<TAB>hypothesis<TAB>entails|neutral`."""
    return read_pair_label_tsv(path, labels or SCITAIL_TSV_LABELS, stats)


_WIKIQA_HEADER = (
    "QuestionID",
    "Question",
    "DocumentID",
    "DocumentTitle",
    "SentenceID",
    "Sentence",
    "Label",
)


def read_wikiqa_tsv(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """WikiQA, either layout (detected from the first line).

    - `WikiQA-*.txt`: `question<TAB>sentence<TAB>label`; group = question text, uid = file:line.
    - `WikiQA-*.tsv` (header QuestionID, Question, DocumentID, DocumentTitle, SentenceID,
      Sentence, Label): group = QuestionID, uid = SentenceID.
    """
    path = pathlib.Path(path)
    with_header = False

    def parse(line, lineno):
        nonlocal with_header
        if lineno == 1 and line.split("\t") == list(_WIKIQA_HEADER):
            with_header = True
            return None
        if with_header:
            qid, question, _, _, sid, sentence, label = _fields(line, len(_WIKIQA_HEADER))
            return Example(a=question, b=sentence, label=_label(label, labels), uid=sid, group=qid)
        question, sentence, label = _fields(line, 3)
        return Example(
            a=question,
            b=sentence,
            label=_label(label, labels),
            uid=_uid(path, lineno),
            group=question,
        )

    return _drive(path, _iter_lines, parse, stats)


# --- FEVER -------------------------------------------------------------------------------------

FEVER_LABELS = ("SUPPORTS", "REFUTES", "NOT ENOUGH INFO")
_FEVER_INDEX = {name: i for i, name in enumerate(FEVER_LABELS)}


@dataclasses.dataclass(frozen=True)
class FeverClaim:
    """One FEVER claim with its gold evidence.

    Attributes:
        id: the claim id.
        claim: the claim text.
        label: "SUPPORTS" / "REFUTES" / "NOT ENOUGH INFO", or None (unlabelled shared-task test).
        evidence: the gold evidence sets; each set is a tuple of (wiki page, sentence id), all of
            which together are needed. NOT ENOUGH INFO claims have none.
        context: in a contexts file (`gcnn_match.data.fever`), the claim's context sentences
            in order, each (wiki page, sentence id, text or None when the text was not found);
            empty in a claim file.
    """

    id: int
    claim: str
    label: str | None
    evidence: tuple[tuple[tuple[str, int], ...], ...] = ()
    context: tuple[tuple[str, int, str | None], ...] = ()


def _fever_context(entries) -> tuple[tuple[str, int, str | None], ...]:
    if not isinstance(entries, list):
        raise _Malformed("'context' must be a list of [page, sentence_id, text or null]")
    context = []
    for entry in entries:
        if (
            not isinstance(entry, list)
            or len(entry) != 3
            or not isinstance(entry[0], str)
            or isinstance(entry[1], bool)
            or not isinstance(entry[1], int)
            or not (entry[2] is None or isinstance(entry[2], str))
        ):
            raise _Malformed(
                f"context entries must be [page, sentence_id, text or null], found "
                f"{json.dumps(entry)[:80]}; rebuild the file with "
                "experiments/prepare_fever.py"
            )
        context.append(tuple(entry))
    return tuple(context)


def _parse_fever(line: str) -> FeverClaim:
    obj = _json(line)
    label = obj.get("label")
    if label is not None and label not in FEVER_LABELS:
        raise _Malformed(
            f"unknown label {label!r} (known: {', '.join(map(repr, FEVER_LABELS))}); "
            "correct or remove the line"
        )
    sets = []
    for evidence_set in obj.get("evidence", ()):
        try:
            items = tuple(
                (page, int(sent)) for _, _, page, sent in evidence_set if page is not None
            )
        except (TypeError, ValueError):
            raise _Malformed(
                "evidence entries must be [annotation_id, evidence_id, page, sentence_id]"
            ) from None
        if items:
            sets.append(items)
    return FeverClaim(
        id=_key(obj, "id"),
        claim=_key(obj, "claim"),
        label=label,
        evidence=tuple(sets),
        context=_fever_context(obj.get("context", [])),
    )


def read_fever_claims(path: PathLike, stats: ReadStats | None = None) -> Iterator[FeverClaim]:
    """FEVER 1.0 jsonl (id, verifiable, label, claim, evidence), or a contexts file (the same
    keys plus "context"), as `FeverClaim`s."""
    return _drive(path, _iter_lines, lambda line, lineno: _parse_fever(line), stats)


def read_fever_jsonl(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """FEVER claims as Examples: a = claim, b = "" (no evidence text), uid = group = str(id)."""
    for claim in read_fever_claims(path, stats):
        label = None
        if claim.label is not None:
            label = (labels or _FEVER_INDEX)[claim.label]
        yield Example(a=claim.claim, b="", label=label, uid=str(claim.id), group=str(claim.id))


def read_fever_contexts(
    path: PathLike,
    labels: Mapping[str, int] | None = None,
    stats: ReadStats | None = None,
    max_sentences: int = 5,
    sentence_len: int = 40,
) -> Iterator[Example]:
    """A FEVER contexts file as Examples: a = the context, b = the claim, uid = group = id.

    The sentences are wiki-pages text, already tokenized: `a_tokens` holds their whitespace
    tokens, each sentence cut to its first `sentence_len` ([U→S] 40,
    docs/attconv.md#hyperparameters), and `a_segments` the sentence (1, 2, ...) of every token.
    Context-wise models read each sentence alone; context-conc ones the concatenation, in order,
    with no separator (docs/attconv.md#scenarios). Sentences without text (page or line not in
    wiki-pages) are left out, as are those after the first `max_sentences`; both are counted in
    `stats`.
    """
    stats = stats if stats is not None else ReadStats()
    for claim in read_fever_claims(path, stats):
        texts = [text for _, _, text in claim.context if text is not None]
        for _ in range(len(claim.context) - len(texts)):
            stats.skip("context sentence not in wiki-pages")
        for _ in texts[max_sentences:]:
            stats.skip(f"context sentence after the first {max_sentences}")
        tokens, segments = [], []
        for number, text in enumerate(texts[:max_sentences], start=1):
            words = text.split()[:sentence_len]
            tokens += words
            segments += [number] * len(words)
        label = None if claim.label is None else (labels or _FEVER_INDEX)[claim.label]
        yield Example(
            a=" ".join(tokens),
            b=claim.claim,
            label=label,
            uid=str(claim.id),
            group=str(claim.id),
            a_tokens=tuple(tokens),
            a_segments=tuple(segments),
        )


# --- Yelp (Lin et al. 2017 split) ----------------------------------------------------------------


YELP_LABELS = {str(stars): stars - 1 for stars in range(1, 6)}


def _stars(raw) -> str:
    """Stars as the label string "1".."5" (the Yelp dump stores numbers, sometimes 5.0)."""
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    return str(raw)


def read_yelp_jsonl(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """Yelp review jsonl (the Yelp Open Dataset's review.json keys `text`, `stars`, `review_id`);
    `labels` defaults to `YELP_LABELS` (stars 1..5 -> 0..4)."""
    path = pathlib.Path(path)
    labels = labels or YELP_LABELS

    def parse(line, lineno):
        obj = _json(line)
        text = _key(obj, "text")
        uid = obj.get("review_id") or _uid(path, lineno)
        return Example(a=text, b=text, label=_label(_stars(_key(obj, "stars")), labels), uid=uid)

    return _drive(path, _iter_lines, parse, stats)


def read_yelp_tsv(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """Yelp lines `stars<TAB or SPACE>review text`.

    Covers both `5<TAB>text` and the ATTCONV loader's `yelp_*_{500k,2000}` files, whose lines are
    "star token token ...". The text is kept as stored (lowercasing is the tokenizer's job).
    `labels` defaults to `YELP_LABELS` (stars 1..5 -> 0..4).
    """
    path = pathlib.Path(path)
    labels = labels or YELP_LABELS

    def parse(line, lineno):
        parts = line.split(None, 1)
        if len(parts) != 2:
            raise _Malformed("expected 'stars<whitespace>text', found a single field")
        return Example(
            a=parts[1], b=parts[1], label=_label(parts[0], labels), uid=_uid(path, lineno)
        )

    return _drive(path, _iter_lines, parse, stats)


# --- Generic reader ----------------------------------------------------------------------------

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
    return _csv_rows(delimiter) if fmt == "csv" else _iter_lines


def _row_parser(fmt: str, delimiter: str) -> Callable[[object, int], list | dict]:
    """record -> a JSON object (jsonl) or the fields of a line, which must be as many as the
    first line's: a line with more or fewer (a tab inside a text, a cut line) is an error."""
    first: list[int] = []  # line number and column count of the first line

    def row_of(record, lineno):
        if fmt == "jsonl":
            return _json(record)
        row = record if fmt == "csv" else record.split(delimiter)
        if not first:
            first.extend((lineno, len(row)))
        elif len(row) != first[1]:
            raise _Malformed(
                f"{len(row)} {_delimiter_name(delimiter)}-separated columns where line "
                f"{first[0]} has {first[1]}{_column_hint(len(row) > first[1], delimiter)}"
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

    return _drive(path, _records(fmt, delimiter), parse, stats)


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
    _check_format(fmt)
    if header not in HEADER_CHOICES:
        raise ValueError(f"header must be True, False or 'auto', not {header!r}")
    columns = {"a": a, "b": b, "label": label, "uid": uid, "group": group}
    if fmt == "jsonl":
        if any(isinstance(c, int) for c in columns.values()):
            raise ValueError("jsonl columns are keys, not indices")
        if header is True:
            raise ValueError("jsonl has no header line")
    elif header is False and any(isinstance(c, str) for c in columns.values()):
        raise ValueError("column names need header=True or 'auto' (or use 0-based indices)")
    path = pathlib.Path(path)
    stats = stats if stats is not None else ReadStats()
    delimiter = delimiter or _DELIMITERS[fmt]
    row_of = _row_parser(fmt, delimiter)
    read = {k: c for k, c in columns.items() if c is not None and not (unlabelled and k == "label")}
    index: dict[str, int] = {}
    first_line = [fmt != "jsonl"]  # the next record is a tsv/csv file's first

    def cell(row, column):
        if isinstance(row, dict):
            return _key(row, column)
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
                index.update((name, i) for i, name in enumerate(row))
                missing = [c for c in columns.values() if isinstance(c, str) and c not in index]
                if missing:
                    raise _Malformed(
                        f"header has no column {missing[0]!r} (columns: {', '.join(row)})"
                    )
                return None
        if fmt != "jsonl":
            width = 1 + max(c if isinstance(c, int) else index[c] for c in read.values())
            if len(row) < width:
                raise _Malformed(
                    f"expected at least {width} {_delimiter_name(delimiter)}-"
                    f"separated columns, found {len(row)} (check the a/b/label "
                    "columns or the delimiter)"
                )
        return Example(
            a=cell(row, a),
            b=cell(row, b),
            label=_label(cell(row, label), labels) if "label" in read else None,
            uid=str(cell(row, uid)) if uid is not None else _uid(path, lineno),
            group=str(cell(row, group)) if group is not None else None,
        )

    return _drive(path, _records(fmt, delimiter), parse, stats)


def _csv_rows(delimiter: str) -> Records:
    """Records as csv rows; one quoted record may span several physical lines."""

    def records(path: pathlib.Path, stats: ReadStats):
        lines = (text + "\n" for _, text in _iter_lines(path, stats))
        reader = csv.reader(lines, delimiter=delimiter)
        for row in reader:
            yield reader.line_num, row

    return records


def _column_reader(
    path: PathLike,
    labels: Mapping[str, int] | None = None,
    stats: ReadStats | None = None,
    **columns,
) -> Iterator[Example]:
    """`read_pairs` under the reader calling convention, for registry entries that only need
    column names (e.g. the SemEval SICK files)."""
    return read_pairs(path, labels=labels, stats=stats, **columns)


READERS: dict[str, Callable[..., Iterator[Example]]] = {
    "nli_jsonl": read_nli_jsonl,
    "bimpm_tsv": read_bimpm_tsv,
    "pair_label_tsv": read_pair_label_tsv,
    "scitail_tsv": read_scitail_tsv,
    "wikiqa_tsv": read_wikiqa_tsv,
    "fever_jsonl": read_fever_jsonl,
    "fever_contexts": read_fever_contexts,
    "yelp_jsonl": read_yelp_jsonl,
    "yelp_tsv": read_yelp_tsv,
    "columns": _column_reader,
}


def get_reader(fmt: str) -> Callable[..., Iterator[Example]]:
    """The reader registered under `fmt`."""
    if fmt not in READERS:
        raise ValueError(f"unknown format {fmt!r}; known: {', '.join(sorted(READERS))}")
    return READERS[fmt]
