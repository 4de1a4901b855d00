"""Yahoo! Answers MQA candidate sets (Liu et al. 2016, §6.4) built from the user's own copy.

The corpus is licensed (Yahoo! Webscope) and not redistributable, so this module turns a copy in
the Webscope XML layout (L6 `FullOct2007.xml`, L5 `manner.xml`; plain or `.gz`) into the paper's
candidate sets:

    <ystfeed><vespaadd><document type="wisdom">
      <uri>...</uri><subject>question</subject><content>details</content>
      <bestanswer>...</bestanswer><nbestanswers><answer_item>...</answer_item></nbestanswers>
      ...</document></vespaadd> ...</ystfeed>

1. Keep the (question, best answer) pairs whose token lengths are both in [4, 30].
2. Split the questions 20 : 1 : 1 into train / dev / test with a seeded shuffle.
3. For each question, query BM25 with its best answer over the answer pool, take the top 1,000
   results, and draw 4 (or 9) of them at random as negatives.
4. The paper's second test setting (best answer among 10): the test questions again with 9
   negatives, the first 4 of which are their 4 (`test_10.tsv`).

The paper used Lucene; `bm25s` with `method="lucene"` computes Lucene's BM25 (idf
ln(1 + (N - df + 0.5) / (df + 0.5)), tf / (tf + k1 (1 - b + b |d| / avgdl)), k1 = 1.2, b = 0.75
as in Lucene) and retrieves in a few milliseconds per query, which a 220K-query build needs
(`rank-bm25` scores every document in Python: about 1 s per query over 220K answers).

Choices the paper leaves open [U→S], all recorded in the summary JSON:
- the question is the subject line (`question_fields="subject+content"` adds the details);
- the answer pool is the best answers of the kept pairs ("kept"), so every negative obeys the
  same length interval as the positives; `answer_pool="all"` uses every best answer read (the
  paper's getByCategory data had best answers only, so `nbestanswers` are never used);
- a retrieved answer whose text equals the positive (the query itself, or a duplicate) is not a
  negative, duplicate texts count once, answers that share no term with the query (score 0) are
  not "results", and a question with fewer retrieved answers than negatives asked for (9 with
  `test_10`) is dropped from every split (counted), so every group of a split has the same size
  and both test sets hold the same questions;
- text is tokenized by the project's Treebank tokenizer and written space-joined, so a whitespace
  tokenizer reads exactly the tokens the length filter counted; BM25 sees them lower-cased.

Output, under `{data_dir}/yahoo/`: `train.tsv`, `dev.tsv`, `test.tsv`, `test_10.tsv` with lines
`question<TAB>answer<TAB>label<TAB>group` (label 1 for the best answer, 0 for a negative; group =
the question's `<uri>`), no header, the candidates of one question consecutive and in random
order; and `summary.json` with every count and setting. Each file is written atomically,
`summary.json` last.
"""

import dataclasses
import importlib.metadata
import itertools
import json
import pathlib
import re
import xml.parsers.expat
from collections.abc import Iterable, Iterator

import numpy as np

from gcnn_match.data.reading import ReaderError, ReadStats, iter_lines
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.files import write_text_atomic

PathLike = str | pathlib.Path

SPLITS = ("train", "dev", "test")
TEST_10 = "test_10"  # the test questions among 1 + 9 candidates (the registry's split name)
TEST_10_NEGATIVES = 9
QUESTION_FIELDS = ("subject", "subject+content")
ANSWER_POOLS = ("kept", "all")

# Characters XML 1.0 forbids even as raw text; stray ones in a dump would stop the parser.
_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
# Line breaks the dumps store as escaped markup (`&lt;br /&gt;`), i.e. literal `<br />` text.
_BR = re.compile(r"<br\s*/?>", re.IGNORECASE)
_FIELDS = ("uri", "subject", "content", "bestanswer")


@dataclasses.dataclass(frozen=True)
class YahooQuestion:
    """One `<document>` of the dump.

    Attributes:
        uri: the question id (`<uri>`), else `file:line` of its `<document>` tag.
        subject: the question line.
        content: the question details ("" when absent).
        best_answer: the answer the asker chose.
        line: the line of the `<document>` tag.
    """

    uri: str
    subject: str
    content: str
    best_answer: str
    line: int


def _clean(text: str) -> str:
    return " ".join(_BR.sub(" ", text).split())


class _DocumentCollector:
    """expat handlers gathering the fields of each `<document>`; finished ones wait in `ready`."""

    def __init__(self, parser, path: pathlib.Path, stats: ReadStats):
        self.parser, self.path, self.stats = parser, path, stats
        self.ready: list[YahooQuestion] = []
        self.doc: dict | None = None  # the open <document>: its line and each field's text
        self.field: str | None = None  # the field whose text is being gathered
        self.depth = 0  # element depth inside the open <document>
        parser.StartElementHandler = self.start
        parser.EndElementHandler = self.end
        parser.CharacterDataHandler = self.text

    def start(self, name, attrs):
        if self.doc is None:
            if name == "document":
                self.doc, self.depth = {"line": self.parser.CurrentLineNumber}, 0
            return
        self.depth += 1
        if self.depth == 1 and name in _FIELDS:
            self.field = name
            self.doc[name] = []
        elif self.field is not None:  # markup inside a field separates words
            self.doc[self.field].append(" ")

    def end(self, name):
        if self.doc is None:
            return
        if self.depth == 0:
            self._finish()
        elif self.depth == 1:
            self.field = None
        self.depth -= 1

    def text(self, data):
        if self.field is not None:
            self.doc[self.field].append(data)

    def _finish(self):
        line = self.doc.pop("line")
        values = {name: _clean("".join(self.doc.get(name, ()))) for name in _FIELDS}
        self.doc = None
        if not values["subject"]:
            self.stats.skip("no subject")
        elif not values["bestanswer"]:
            self.stats.skip("no best answer")
        else:
            self.ready.append(
                YahooQuestion(
                    uri=values["uri"] or f"{self.path.name}:{line}",
                    subject=values["subject"],
                    content=values["content"],
                    best_answer=values["bestanswer"],
                    line=line,
                )
            )


def read_yahoo_xml(path: PathLike, stats: ReadStats | None = None) -> Iterator[YahooQuestion]:
    """Stream the `<document>`s of a Webscope Yahoo! Answers XML file (`.gz` is fine).

    Documents without a subject or a best answer are counted in `stats.skipped`, not yielded.
    Markup inside a field (and escaped `<br />`) becomes a space; whitespace is collapsed.

    Raises:
        ReaderError: `path:line: reason` for XML that is not well-formed, text that is not
            UTF-8, or a file without any `<document>`.
    """
    path = pathlib.Path(path)
    stats = stats if stats is not None else ReadStats()
    stats.source = stats.source or path.name
    parser = xml.parsers.expat.ParserCreate("UTF-8")
    documents = _DocumentCollector(parser, path, stats)
    # Lines come from the readers' machinery (gzip, strict UTF-8 located by line).
    lines = (_XML_ILLEGAL.sub("", line) + "\n" for _, line in iter_lines(path, stats))
    for data in itertools.chain(lines, [None]):  # None: the end of the file
        try:
            parser.Parse(data or "", data is None)
        except xml.parsers.expat.ExpatError as err:
            reason = xml.parsers.expat.ErrorString(err.code)
            raise ReaderError(
                path,
                err.lineno,
                f"not well-formed XML ({reason} at column "
                f"{err.offset + 1}); fix or re-extract the file",
            ) from None
        stats.examples += len(documents.ready)
        yield from documents.ready
        documents.ready.clear()
    if not stats.examples:
        raise ReaderError(
            path,
            stats.lines,
            "no <document> with a subject and a best answer "
            f"({stats.num_skipped} skipped); expected the "
            "Yahoo! Webscope layout "
            "<ystfeed><vespaadd><document>...",
        )


@dataclasses.dataclass(frozen=True)
class BuildConfig:
    """How the candidate sets are built (defaults: the paper's §6.4 settings).

    Attributes:
        num_negatives: negatives per question in train / dev / test: 4 (P@1 among 5) or 9.
        test_10: also write the test questions among 10 candidates (`test_10.tsv`).
        min_length, max_length: the token-length interval of questions and answers.
        top_k: BM25 results a negative is drawn from.
        split_ratio: train : dev : test, in questions.
        seed: fixes the split and every draw of negatives.
        question_fields: "subject" or "subject+content".
        answer_pool: "kept" (best answers of the kept pairs) or "all" (every best answer read).
        tokenizer: a tokenizer name from `data.tokenizers`.
        k1, b: BM25 parameters (Lucene's defaults).
    """

    num_negatives: int = 4
    test_10: bool = True
    min_length: int = 4
    max_length: int = 30
    top_k: int = 1000
    split_ratio: tuple[int, int, int] = (20, 1, 1)
    seed: int = 1
    question_fields: str = "subject"
    answer_pool: str = "kept"
    tokenizer: str = "treebank"
    k1: float = 1.2
    b: float = 0.75

    def __post_init__(self):
        if self.question_fields not in QUESTION_FIELDS:
            raise ValueError(
                f"question_fields must be one of {QUESTION_FIELDS}, not {self.question_fields!r}"
            )
        if self.answer_pool not in ANSWER_POOLS:
            raise ValueError(f"answer_pool must be one of {ANSWER_POOLS}, not {self.answer_pool!r}")
        if not 1 <= self.negatives_needed < self.top_k:  # the query's own answer is a result
            raise ValueError(
                f"need 1 <= negatives < top_k, got {self.negatives_needed} and {self.top_k}"
            )
        if not 1 <= self.min_length <= self.max_length:
            raise ValueError(
                f"need 1 <= min_length <= max_length, got [{self.min_length}, {self.max_length}]"
            )
        if len(self.split_ratio) != 3 or min(self.split_ratio) < 1:
            raise ValueError(f"split_ratio needs three positive parts, got {self.split_ratio}")

    @property
    def negatives_needed(self) -> int:
        """Retrieved answers a question needs to be kept."""
        return max(self.num_negatives, TEST_10_NEGATIVES if self.test_10 else 0)


@dataclasses.dataclass(frozen=True)
class CandidateSets:
    """The built splits and what happened on the way.

    Attributes:
        rows: split (`SPLITS`, then `TEST_10` when built) -> (question, answer, label, group)
            rows, one group's rows consecutive.
        summary: counts and settings, JSON-serialisable.
    """

    rows: dict[str, list[tuple[str, str, int, str]]]
    summary: dict


def _split_sizes(num_questions: int, ratio: tuple[int, int, int]) -> dict[str, int]:
    """Questions per split in the given ratio; dev and test round, train takes the rest."""
    total = sum(ratio)
    dev = round(num_questions * ratio[1] / total)
    test = round(num_questions * ratio[2] / total)
    return {"train": num_questions - dev - test, "dev": dev, "test": test}


def _bm25_index(pool_tokens: list[list[str]], config: BuildConfig):
    import bm25s  # optional dependency (extra "yahoo"); imported only to build

    index = bm25s.BM25(method="lucene", k1=config.k1, b=config.b)
    index.index(pool_tokens, show_progress=False)
    return index


def _retrieve(
    index, queries: list[list[str]], pool_size: int, top_k: int, chunk: int = 1024
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(document ids, scores) of each query's top-k pool answers, best first."""
    k = min(top_k, pool_size)
    for start in range(0, len(queries), chunk):
        docs, scores = index.retrieve(
            queries[start : start + chunk], k=k, show_progress=False, backend_selection="numpy"
        )
        yield from zip(docs, scores)


def _kept_pairs(questions, config, policy, skip):
    """Questions whose text and best answer both fit the length bounds, each URI once.

    Returns (read, kept, other_answers): the number of questions read, the kept
    (uri, question tokens, answer tokens) triples, and the best answers of the dropped
    pairs, which join the BM25 pool when `answer_pool="all"`.
    """
    lo, hi = config.min_length, config.max_length
    read = 0
    seen_uris: set[str] = set()
    kept: list[tuple[str, list[str], list[str]]] = []
    other_answers: list[list[str]] = []
    for question in questions:
        read += 1
        if question.uri in seen_uris:
            skip("duplicate uri")
            continue
        seen_uris.add(question.uri)
        text = question.subject
        if config.question_fields == "subject+content" and question.content:
            text += " " + question.content
        question_tokens = policy.tokenize(text)
        answer_tokens = None
        if not lo <= len(question_tokens) <= hi:
            skip(f"question length outside [{lo}, {hi}]")
        else:
            answer_tokens = policy.tokenize(question.best_answer)
            if lo <= len(answer_tokens) <= hi:
                kept.append((question.uri, question_tokens, answer_tokens))
                continue
            skip(f"answer length outside [{lo}, {hi}]")
        if config.answer_pool == "all":
            other_answers.append(answer_tokens or policy.tokenize(question.best_answer))
    if not kept:
        raise ValueError(
            f"no question-answer pair has both lengths in [{lo}, {hi}] ({read} questions read)"
        )
    return read, kept, other_answers


def _split_of(num_pairs: int, config: BuildConfig) -> np.ndarray:
    """Each kept pair's split, drawn from `config.seed` alone.

    The split is drawn before the negatives, so builds with 4 and 9 negatives share it.
    """
    order = np.random.default_rng(config.seed).permutation(num_pairs)
    sizes = _split_sizes(num_pairs, config.split_ratio)
    split_of = np.empty(num_pairs, dtype=object)
    bounds = np.cumsum([0] + [sizes[s] for s in SPLITS])
    for split, start, stop in zip(SPLITS, bounds[:-1], bounds[1:]):
        split_of[order[start:stop]] = split
    return split_of


def _candidate_rows(kept, pool, split_of, config, skip):
    """Each question's group (its best answer and sampled BM25 negatives), by split.

    Returns (rows, groups): the (question, answer, label, uri) rows of each output split
    and the number of question groups in it.
    """
    pool_texts = [" ".join(tokens) for tokens in pool]
    pool_terms = [[t.lower() for t in tokens] for tokens in pool]
    index = _bm25_index(pool_terms, config)
    outputs = SPLITS + ((TEST_10,) if config.test_10 else ())
    rows: dict[str, list] = {split: [] for split in outputs}
    groups = dict.fromkeys(outputs, 0)
    retrievals = _retrieve(index, pool_terms[: len(kept)], len(pool), config.top_k)
    for number, ((uri, question_tokens, _), (docs, scores)) in enumerate(zip(kept, retrievals)):
        positive = pool_texts[number]
        # Retrieved answers other than the positive's text, each text once, best first.
        candidates = list(dict.fromkeys(pool_texts[d] for d, s in zip(docs, scores) if s > 0))
        candidates = [text for text in candidates if text != positive]
        if len(candidates) < config.negatives_needed:
            skip(f"fewer than {config.negatives_needed} BM25 candidates")
            continue
        # One stream per question: its draws do not depend on the other questions, and the
        # first 4 of its negatives are the same whether 4 or 9 are taken.
        rng = np.random.default_rng([config.seed, number])
        negatives = [candidates[i] for i in rng.permutation(len(candidates))]
        question = " ".join(question_tokens)
        targets = [(split_of[number], config.num_negatives)]
        if config.test_10 and split_of[number] == "test":
            targets.append((TEST_10, TEST_10_NEGATIVES))
        for split, count in targets:
            group = [(positive, 1)] + [(text, 0) for text in negatives[:count]]
            rows[split].extend(
                (question, group[i][0], group[i][1], uri) for i in rng.permutation(len(group))
            )
            groups[split] += 1
    return rows, groups


def build_candidate_sets(
    questions: Iterable[YahooQuestion], config: BuildConfig = BuildConfig()
) -> CandidateSets:
    """The paper's candidate sets from parsed questions (see the module docstring)."""
    policy = TextPolicy(tokenizer=config.tokenizer)
    skipped: dict[str, int] = {}

    def skip(reason):
        skipped[reason] = skipped.get(reason, 0) + 1

    read, kept, other_answers = _kept_pairs(questions, config, policy, skip)
    pool = [answer for _, _, answer in kept] + other_answers
    rows, groups = _candidate_rows(kept, pool, _split_of(len(kept), config), config, skip)
    summary = {
        "paper": "Liu et al. 2016, Coupled-LSTMs, §6.4 (Yahoo! Answers MQA)",
        "config": dataclasses.asdict(config),
        "bm25": {
            "library": "bm25s",
            "version": importlib.metadata.version("bm25s"),
            "method": "lucene",
            "query": "best answer, lower-cased tokens",
        },
        "questions_read": read,
        "pairs_kept": len(kept),
        "answer_pool_size": len(pool),
        "skipped": dict(sorted(skipped.items())),
        "questions": groups,
        "rows": {split: len(split_rows) for split, split_rows in rows.items()},
    }
    return CandidateSets(rows=rows, summary=summary)


def _tsv(rows) -> str:
    return "".join(f"{q}\t{a}\t{label}\t{group}\n" for q, a, label, group in rows)


def write_candidate_sets(
    sets: CandidateSets, out_dir: PathLike, source: dict | None = None
) -> dict[str, pathlib.Path]:
    """Write `{split}.tsv` and `summary.json` (with `source` recorded) atomically into out_dir.

    Returns:
        file role (each split, "summary") -> path.
    """
    out_dir = pathlib.Path(out_dir)
    paths = {split: out_dir / f"{split}.tsv" for split in sets.rows}
    for split, path in paths.items():
        write_text_atomic(path, _tsv(sets.rows[split]))
    paths["summary"] = out_dir / "summary.json"
    summary = {**sets.summary, "source": source or {}}
    write_text_atomic(paths["summary"], json.dumps(summary, indent=2) + "\n")
    return paths
