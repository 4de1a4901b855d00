"""Streaming readers of the benchmark formats: one function per file format, each yielding
`Example`s through the shared machinery of `gcnn_match.data.reading` (decoding, located errors,
counted skips).

Readers are registered by format name in `READERS`, so the dataset registry can name them with a
string. Each takes `(path, labels=None, stats=None, **options)`, where `labels` maps the raw label
string found in the file to the class index. Format "columns" is the generic tsv / csv / jsonl
reader (`own_data_reader.read_pairs`), which reads files of your own and the registered datasets
stored in such a layout.

Format-specific choices:
- `fever_jsonl`: a FEVER claim file has no evidence *text* (it lives in wiki-pages), so the
  Example is `a = claim`, `b = ""`, `group = uid = str(id)`.
- `fever_contexts`: a claim with its evidence sentences, as `gcnn_match.data.fever` builds them
  from a claim file, wiki-pages and retrieved sentences: `a` = the context (ATTCONV's t_y),
  `b` = the claim (t_x), `a_segments` = the sentence of each context token.
- `yelp_jsonl` / `yelp_tsv`: single-text rating prediction (Lin et al. 2017's Yelp split), so
  `a = b = review text` for intra-context models; the label is the star rating `"1"`..`"5"`.
"""

import dataclasses
import json
import pathlib
import re
import sys
from collections.abc import Callable, Iterator, Mapping

from gcnn_match.data.example import Example
from gcnn_match.data.own_data_reader import read_columns
from gcnn_match.data.reading import (
    Malformed,
    PathLike,
    ReadStats,
    Skip,
    drive,
    iter_lines,
    json_key,
    json_object,
    label_index,
    line_uid,
    split_fields,
)

# --- Penn trees (SNLI / MultiNLI / SciTail snli_format) ------------------------------------------

_LEAF = re.compile(r"\(([^\s()]+) ([^\s()]+)\)")


def parse_tree_leaves(tree: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Tokens and POS tags from the `(TAG word)` leaves of a Penn tree, in order."""
    leaves = _LEAF.findall(tree)
    # Interned: a corpus of parses repeats a few dozen tags and some 100k words millions of
    # times, and each occurrence would otherwise be a string object of its own.
    return tuple(sys.intern(w) for _, w in leaves), tuple(sys.intern(t) for t, _ in leaves)


def binary_parse_tokens(tree: str) -> tuple[str, ...]:
    """Tokens of an unlabelled binary parse `( ( Two women ) ... )`, interned."""
    return tuple(sys.intern(t) for t in tree.split() if t not in ("(", ")"))


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
        obj = json_object(line)
        label = None
        if not unlabelled:
            gold = json_key(obj, "gold_label")
            if gold in skip_labels:
                raise Skip(f"gold_label {gold!r}")
            label = label_index(gold, labels)
        a_tokens, a_pos = _nli_side(obj, "sentence1")
        b_tokens, b_pos = _nli_side(obj, "sentence2")
        uid = obj.get("pairID") or obj.get("promptID") or line_uid(path, lineno)
        return Example(
            a=json_key(obj, "sentence1"),
            b=json_key(obj, "sentence2"),
            label=label,
            uid=str(uid),
            a_tokens=a_tokens,
            b_tokens=b_tokens,
            a_pos=a_pos,
            b_pos=b_pos,
        )

    return drive(path, iter_lines, parse, stats)


def read_bimpm_tsv(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """BiMPM Quora partition: `label<TAB>q1<TAB>q2<TAB>id`."""

    def parse(line, lineno):
        label, a, b, uid = split_fields(line, 4)
        return Example(a=a, b=b, label=label_index(label, labels), uid=uid)

    return drive(path, iter_lines, parse, stats)


def read_pair_label_tsv(
    path: PathLike, labels: Mapping[str, int] | None = None, stats: ReadStats | None = None
) -> Iterator[Example]:
    """`a<TAB>b<TAB>label` (RE2 layouts of Quora/SciTail/SICK, LCQMC txt); uid = file:line.

    Without `labels` the label column must hold the class index itself.
    """
    path = pathlib.Path(path)

    def parse(line, lineno):
        a, b, label = split_fields(line, 3)
        return Example(a=a, b=b, label=label_index(label, labels), uid=line_uid(path, lineno))

    return drive(path, iter_lines, parse, stats)


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
            qid, question, _, _, sid, sentence, label = split_fields(line, len(_WIKIQA_HEADER))
            return Example(
                a=question, b=sentence, label=label_index(label, labels), uid=sid, group=qid
            )
        question, sentence, label = split_fields(line, 3)
        return Example(
            a=question,
            b=sentence,
            label=label_index(label, labels),
            uid=line_uid(path, lineno),
            group=question,
        )

    return drive(path, iter_lines, parse, stats)


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
        raise Malformed("'context' must be a list of [page, sentence_id, text or null]")
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
            raise Malformed(
                f"context entries must be [page, sentence_id, text or null], found "
                f"{json.dumps(entry)[:80]}; rebuild the file with "
                "experiments/prepare_fever.py"
            )
        context.append(tuple(entry))
    return tuple(context)


def _parse_fever(line: str) -> FeverClaim:
    obj = json_object(line)
    label = obj.get("label")
    if label is not None and label not in FEVER_LABELS:
        raise Malformed(
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
            raise Malformed(
                "evidence entries must be [annotation_id, evidence_id, page, sentence_id]"
            ) from None
        if items:
            sets.append(items)
    return FeverClaim(
        id=json_key(obj, "id"),
        claim=json_key(obj, "claim"),
        label=label,
        evidence=tuple(sets),
        context=_fever_context(obj.get("context", [])),
    )


def read_fever_claims(path: PathLike, stats: ReadStats | None = None) -> Iterator[FeverClaim]:
    """FEVER 1.0 jsonl (id, verifiable, label, claim, evidence), or a contexts file (the same
    keys plus "context"), as `FeverClaim`s."""
    return drive(path, iter_lines, lambda line, lineno: _parse_fever(line), stats)


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
        obj = json_object(line)
        text = json_key(obj, "text")
        uid = obj.get("review_id") or line_uid(path, lineno)
        return Example(
            a=text, b=text, label=label_index(_stars(json_key(obj, "stars")), labels), uid=uid
        )

    return drive(path, iter_lines, parse, stats)


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
            raise Malformed("expected 'stars<whitespace>text', found a single field")
        return Example(
            a=parts[1], b=parts[1], label=label_index(parts[0], labels), uid=line_uid(path, lineno)
        )

    return drive(path, iter_lines, parse, stats)


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
    "columns": read_columns,
}


def get_reader(fmt: str) -> Callable[..., Iterator[Example]]:
    """The reader registered under `fmt`."""
    if fmt not in READERS:
        raise ValueError(f"unknown format {fmt!r}; known: {', '.join(sorted(READERS))}")
    return READERS[fmt]
