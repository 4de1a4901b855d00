"""FEVER claims with their evidence contexts (ATTCONV §4.4, Table 9; docs/attconv.md#scenarios).

A FEVER claim file names its evidence by (Wikipedia page, sentence index) only; the sentence
text is in the June 2017 dump ("wiki-pages"). `prepare_contexts` joins, once per split and
evidence setting, each claim with its context sentences into a self-contained file:

    python experiments/prepare_fever.py --data_dir=data --evidence=retrieved,gold

which the "fever_contexts" reader (`readers.read_fever_contexts`) turns into examples (the
context t_y is "a", the claim t_x is "b") and the official scorer reads back
(`readers.read_fever_claims`), registered as the splits "<split>.<setting>" of "fever".

Inputs, under `{data_dir}/fever/`:
- `{split}.jsonl` (or `.jsonl.gz`): the official claims with their gold evidence ids.
- `wiki-pages/`: the unzipped official `wiki-pages.zip` (`wiki-001.jsonl` ... `wiki-109.jsonl`),
  or the zip itself. One page per line: `{"id": page, "text": ..., "lines": "0<TAB>sentence
  <TAB>link...\\n1<TAB>..."}`.
- `retrieved/{split}.jsonl` (or `.jsonl.gz`): the top-5 retrieved sentences of every claim, one
  JSON object per claim, `{"id": claim id, "predicted_sentences": [[page, line], ...]}` in rank
  order: what the FEVER baseline's sentence retrieval (Thorne et al. 2018, DrQA TF-IDF: the
  top 5 sentences of the top 5 pages) writes. The scorer's key "predicted_evidence" is accepted
  too. Only the first 5 entries are used.

Settings:
- "retrieved": the claim's retrieved sentences, in rank order (the paper's "retrie. evi.").
- "gold": for SUPPORTS / REFUTES, the union of all the claim's gold evidence sets, each sentence
  once, in file order (on paper_dev 73% of the verifiable claims then have one sentence; the
  paper's Figure 7 shows 71.88%). NOT ENOUGH INFO claims have no gold evidence: they get their
  retrieved sentences, [U→S] docs/attconv.md#open-choices (an empty context would give the label
  away).

Output `{data_dir}/fever/contexts/{setting}/{split}.jsonl`, one object per claim in the claims
file's order: the claim file's keys `{"id", "claim", "label", "evidence"}` (evidence entries
`[null, null, page, line]`: the annotation ids are dropped) and `"context": [[page, line,
sentence], ...]`. A context sentence whose page or line is not in
wiki-pages keeps its place with sentence `null`: the reader leaves it out of the model's
context (counted in its `ReadStats`), while the scorer still gets its id as predicted
evidence, since the scorer judges the evidence, not our text lookup. `prepare_contexts`
reports how many sentences were missing.
"""

import dataclasses
import json
import pathlib
import re
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator, Mapping

from gcnn_match.data.readers import read_fever_claims
from gcnn_match.data.reading import (
    Malformed,
    PathLike,
    ReaderError,
    ReadStats,
    drive,
    iter_lines,
    json_key,
    json_object,
)
from gcnn_match.data.registry import MissingDataError, resolve_split
from gcnn_match.files import write_text_atomic

SETTINGS = ("retrieved", "gold")
TOP_K = 5  # "top-5 most relevant sentences from top-5 retrieved wiki pages" (§4.4)
NEI = "NOT ENOUGH INFO"
RETRIEVED_KEYS = ("predicted_sentences", "predicted_evidence")
WIKI_URL = "https://fever.ai/download/fever/wiki-pages.zip"
SentenceId = tuple[str, int]


def contexts_path(data_dir: PathLike, split: str, setting: str) -> pathlib.Path:
    """Where `prepare_contexts` writes the contexts of `split` in `setting`."""
    return pathlib.Path(data_dir) / "fever" / "contexts" / setting / f"{split}.jsonl"


def _first_present(candidates: Iterable[pathlib.Path], what: str) -> pathlib.Path:
    candidates = list(candidates)
    for path in candidates:
        if path.exists():
            return path
    raise MissingDataError(
        f"FEVER {what}: none of these exists: " + ", ".join(str(p) for p in candidates)
    )


def wiki_pages_source(data_dir: PathLike) -> pathlib.Path:
    """The wiki-pages directory (unzipped) or zip under `{data_dir}/fever/`."""
    fever = pathlib.Path(data_dir) / "fever"
    return _first_present(
        [fever / "wiki-pages", fever / "wiki-pages.zip"],
        f"Wikipedia sentences (download {WIKI_URL})",
    )


def retrieved_path(data_dir: PathLike, split: str) -> pathlib.Path:
    """The top-5 retrieved sentences file of `split`."""
    folder = pathlib.Path(data_dir) / "fever" / "retrieved"
    return _first_present(
        [folder / f"{split}.jsonl", folder / f"{split}.jsonl.gz"],
        f"retrieved sentences of {split} (the format is in the docstring of "
        "gcnn_match/data/fever.py)",
    )


# --- retrieved sentences -------------------------------------------------------------------------


def _sentence_id(entry) -> SentenceId:
    if (
        not isinstance(entry, list)
        or len(entry) < 2
        or not isinstance(entry[0], str)
        or isinstance(entry[1], bool)
        or not isinstance(entry[1], int)
    ):
        raise Malformed(
            f"a retrieved sentence must be [page, line] (a string and an "
            f"integer), found {json.dumps(entry)[:80]}"
        )
    return entry[0], entry[1]


def read_retrieved(
    path: PathLike, top_k: int = TOP_K, stats: ReadStats | None = None
) -> dict[int, tuple[SentenceId, ...]]:
    """Claim id -> its first `top_k` retrieved (page, line) ids, in rank order.

    Each line is `{"id": ..., "predicted_sentences": [[page, line], ...]}` (or the scorer's
    "predicted_evidence"). Extra fields and elements (scores) are ignored. A claim listed twice
    is an error: which list would be meant is unclear.
    """
    seen: dict[int, int] = {}

    def parse(line, lineno):
        obj = json_object(line)
        claim_id = json_key(obj, "id")
        key = next((k for k in RETRIEVED_KEYS if k in obj), None)
        if key is None:
            raise Malformed(f"missing key {RETRIEVED_KEYS[0]!r} (or {RETRIEVED_KEYS[1]!r})")
        if not isinstance(obj[key], list):
            raise Malformed(f"{key!r} must be a list of [page, line]")
        if claim_id in seen:
            raise Malformed(f"claim {claim_id} is listed again (first on line {seen[claim_id]})")
        seen[claim_id] = lineno
        return claim_id, tuple(_sentence_id(e) for e in obj[key][:top_k])

    return dict(drive(path, iter_lines, parse, stats))


# --- Wikipedia sentences -------------------------------------------------------------------------

_PAGE_ID = re.compile(r'\{"id": "((?:[^"\\]|\\.)*)"')


def _page_key(page: str) -> str:
    # Unicode titles may come composed in one file and decomposed in another.
    return unicodedata.normalize("NFC", page)


def _zip_lines(
    archive: zipfile.ZipFile, member: str, name: str, stats: ReadStats
) -> Iterator[tuple[int, str]]:
    with archive.open(member) as handle:
        for lineno, raw in enumerate(handle, start=1):
            stats.lines += 1
            try:
                yield lineno, raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as err:
                raise ReaderError(
                    name, lineno, f"not UTF-8 ({err.reason} at byte {err.start})"
                ) from None


def _wiki_files(source: pathlib.Path, stats: ReadStats) -> Iterator[tuple[str, Iterator]]:
    """(name for errors, its (line number, text) pairs) for every page file of the dump."""
    if source.is_dir():
        files = sorted(p for p in source.iterdir() if p.name.endswith((".jsonl", ".jsonl.gz")))
        if not files:
            raise MissingDataError(f"{source} holds no .jsonl file: unzip {WIKI_URL} there")
        for path in files:
            yield str(path), iter_lines(path, stats)
        return
    with zipfile.ZipFile(source) as archive:
        members = sorted(n for n in archive.namelist() if n.endswith(".jsonl"))
        if not members:
            raise MissingDataError(f"{source} holds no .jsonl member: is it {WIKI_URL}?")
        for member in members:
            name = f"{source}!{member}"
            yield name, _zip_lines(archive, member, name, stats)


def _page_lines(text: str) -> dict[int, str]:
    """The "lines" field: `index<TAB>sentence[<TAB>link...]` entries separated by newlines."""
    sentences = {}
    for number, entry in enumerate(text.split("\n")):
        if not entry.strip():
            continue
        index, _, rest = entry.partition("\t")
        if not index.isdigit():
            raise Malformed(
                f"'lines' entry {number} is not 'index<TAB>sentence...': {entry[:60]!r}"
            )
        sentences[int(index)] = rest.split("\t", 1)[0]
    return sentences


def read_wiki_sentences(
    source: PathLike, pages: Iterable[str], stats: ReadStats | None = None
) -> dict[str, dict[int, str]]:
    """The sentences of `pages` (NFC-normalised title -> {line index: sentence}).

    Only the wanted pages are parsed in full: a full scan of the 5.4M-page dump reads every
    line but decodes the JSON of a few. A malformed line of a wanted page raises a
    `ReaderError` naming the file (or zip member) and line.
    """
    source = pathlib.Path(source)
    wanted = {_page_key(p) for p in pages}
    stats = stats if stats is not None else ReadStats(source=source.name)
    found: dict[str, dict[int, str]] = {}
    if not wanted:
        return found
    for name, lines in _wiki_files(source, stats):
        for lineno, text in lines:
            match = _PAGE_ID.match(text)
            try:
                if match:
                    raw = match.group(1)
                    page = json.loads(f'"{raw}"') if "\\" in raw else raw
                else:  # not the dump's usual key order: parse it all
                    page = str(json_key(json_object(text), "id")) if text.strip() else ""
                key = _page_key(page)
                if key not in wanted:
                    continue
                lines_field = json_key(json_object(text), "lines")
                if not isinstance(lines_field, str):
                    raise Malformed("'lines' must be a string")
                found[key] = _page_lines(lines_field)
            except Malformed as bad:
                raise ReaderError(name, lineno, str(bad)) from None
            stats.examples += 1
    return found


# --- contexts ------------------------------------------------------------------------------------


def claim_context(
    claim, setting: str, retrieved: Mapping[int, tuple[SentenceId, ...]]
) -> tuple[SentenceId, ...]:
    """The (page, line) ids of a `FeverClaim`'s context in `setting` (see the module doc)."""
    if setting not in SETTINGS:
        raise ValueError(f"evidence setting must be one of {SETTINGS}, got {setting!r}")
    if setting == "gold" and claim.label != NEI and claim.evidence:
        return tuple(dict.fromkeys(s for evidence_set in claim.evidence for s in evidence_set))
    return retrieved[claim.id]


@dataclasses.dataclass
class PreparedContexts:
    """What `prepare_contexts` wrote: the file and its counts.

    Attributes:
        path: the contexts file.
        claims: claims written.
        sentences: context sentences (ids), with text or not.
        missing_page: sentences whose page is not in wiki-pages.
        missing_line: sentences whose page is there but not the line.
        empty_contexts: claims left without any sentence text.
    """

    path: pathlib.Path
    claims: int = 0
    sentences: int = 0
    missing_page: int = 0
    missing_line: int = 0
    empty_contexts: int = 0

    def summary(self) -> str:
        return (
            f"{self.path}: {self.claims} claims, {self.sentences} context sentences, "
            f"{self.missing_page} not found (page missing from wiki-pages), "
            f"{self.missing_line} not found (line missing from its page), "
            f"{self.empty_contexts} claims without any context text"
        )


def prepare_contexts(data_dir: PathLike, split: str, setting: str, log=print) -> PreparedContexts:
    """Builds `contexts_path(data_dir, split, setting)` from the claims, the retrieved
    sentences and wiki-pages (see the module doc); written atomically."""
    claims_file, _ = resolve_split("fever", split, data_dir)
    claims = list(read_fever_claims(claims_file))
    retrieved_file = retrieved_path(data_dir, split)
    retrieved = read_retrieved(retrieved_file)
    needed = [c.id for c in claims if setting == "retrieved" or c.label == NEI or not c.evidence]
    absent = [claim_id for claim_id in needed if claim_id not in retrieved]
    if absent:
        raise MissingDataError(
            f"{retrieved_file}: no retrieved sentences for {len(absent)} of the {len(needed)} "
            f"claims of {claims_file} that need them (first: id {absent[0]}); was it "
            "retrieved for another split?"
        )
    contexts = [claim_context(c, setting, retrieved) for c in claims]
    wanted = {page for ids in contexts for page, _ in ids}
    source = wiki_pages_source(data_dir)
    log(f"{split}/{setting}: reading the sentences of {len(wanted)} pages from {source}")
    pages = read_wiki_sentences(source, wanted)
    result = PreparedContexts(contexts_path(data_dir, split, setting))
    rows = []
    for claim, ids in zip(claims, contexts):
        context = []
        for page, line in ids:
            sentences = pages.get(_page_key(page))
            text = None if sentences is None else sentences.get(line)
            result.missing_page += sentences is None
            result.missing_line += sentences is not None and text is None
            context.append([page, line, text])
        result.claims += 1
        result.sentences += len(context)
        result.empty_contexts += not any(text for _, _, text in context)
        rows.append(
            json.dumps(
                {
                    "id": claim.id,
                    "claim": claim.claim,
                    "label": claim.label,
                    "evidence": [
                        [[None, None, page, line] for page, line in evidence_set]
                        for evidence_set in claim.evidence
                    ],
                    "context": context,
                },
                ensure_ascii=False,
            )
        )
    write_text_atomic(result.path, "\n".join(rows) + "\n")
    log(result.summary())
    return result
