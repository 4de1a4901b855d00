"""The verdicts and commands the hand-written prose of REPRODUCTION.md states, checked against
CLAIMS.md and the committed records (`prose_numbers.py` traces its numbers).

- A sentence of prose (not a table line) that states a verdict (VERDICT_WORDS: "confirmed",
  "inconclusive"...) or an ordering of rows (ORDERING_WORDS: "beats", "outperforms", "above"...;
  not "above the majority class", a floor, nor "above it" after a floor the sentence names, nor
  the text of a link to a place in the document, nor a link's target) must link the CLAIMS.md
  row it rests on, `[...](CLAIMS.md#gcnn-gcnn-beats-cnn-quora)` (the row anchors of
  `reporting/claims_report.anchor`); each verdict it names must be the verdict of a row it links,
  and each row it links must agree with it on its own: the sentence names that row's verdict
  (VERDICT_WORDS: "undertrained" for "undertrained at this budget"), or states an ordering and
  the row's verdict is "confirmed". An ordering over an undertrained, inconclusive, below-floor
  or not-run claim says so.
- A sentence on the report's multiplicity (it names Holm, or "the report's many tests") says
  whether a verdict survives the Holm adjustment ("not once the report's many tests are
  counted", "does not survive" say it does not) and must link rows whose Holm-adjusted p in
  CLAIMS.md agrees: below the one-sided 2.5% (`verdicts.TAIL`) when it survives.
- A quoted command, a code span starting with "python experiments/" or "make ", must be one
  that a committed record's provenance holds (the "command" and "commands" fields of
  results/*.json, and the command lines of their "argv"), or, for `make`, a target of the
  Makefile.
"""

import dataclasses
import json
import pathlib
import re
import shlex

from gcnn_match.claims.verdicts import TAIL
from gcnn_match.reporting.prose_numbers import prose_sections

VERDICT_WORDS = (
    "confirmed",
    "contradicted",
    "inconclusive",
    "borderline",
    "below floor",
    "undertrained",
    "cited row",
    "not implemented",
    "the paper's table disagrees",
    "not run",
)
ORDERING_WORDS = (
    "beats",
    "beat",
    "outperforms",
    "outperform",
    "surpasses",
    "better than",
    "worse than",
    "above",
    "below",
)
_WORDS = re.compile(
    r"\b(" + "|".join(re.escape(w) for w in VERDICT_WORDS + ORDERING_WORDS) + r")\b", re.I
)
# "the table below", "as above": a place in the document, not an ordering.
_PLACE = re.compile(
    r"\b(?:above|below)\s*(?:[:.,;)]|$)"
    r"|\b(?:table|tables|figure|section|see|listed|shown|as)\s+(?:above|below)\b",
    re.I,
)
# A row set against a floor, not against another row: no claim of a paper (the floor of the
# verdict "below floor" is none).
_FLOOR_NAME = r"\b(?:(?<!below )floors?|majority class|TF-IDF|chance)\b"
_FLOOR = re.compile(r"\b(?:above|below)\b[^.;]{0,40}?" + _FLOOR_NAME, re.I)
# "... below the TF-IDF + LR floor; only X is above it": the pronoun is the floor named before.
_FLOOR_PRONOUN = re.compile(r"(" + _FLOOR_NAME + r".*?)\b(?:above|below)\s+(?:it|them)\b", re.I)
# "[memory below](#c-lstms-...)": the text of a link to a place in this document.
_PLACE_LINK = re.compile(r"\[[^\]]*\]\(#[^)]*\)")
# The target of a link: its anchor ("...-beats-light-scitail") states nothing.
_TARGET = re.compile(r"(?<=\])\([^)]*\)")
_LINK = re.compile(r"CLAIMS\.md#([a-z0-9-]+)")
_ANCHOR = re.compile(r'<a id="([a-z0-9-]+)"></a>')
_CODE = re.compile(r"`([^`\n]+)`")
_COMMAND = re.compile(r"^(?:python experiments/|make )")
_MULTIPLICITY = re.compile(r"\bHolm\b|the report's many tests", re.I)
_NOT_SURVIVING = re.compile(r"\bnot\b[^.;]{0,40}?(?:many tests are counted|survive)", re.I)
# The "p (Holm)" cell: "0.0014 (0.0560)", or "0.9943; against 0.0057 (0.2109)".
_HOLM_CELL = re.compile(r"\| \d\.\d{4}(?:; against \d\.\d{4})? \((\d\.\d{4})\) \|")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*(\[`])")


@dataclasses.dataclass(frozen=True)
class Finding:
    """A sentence of the prose that the check rejects.

    Args:
        line: the line the sentence starts on (1-based).
        problem: what is wrong, in words.
        text: the sentence (or the quoted command).
    """

    line: int
    problem: str
    text: str


def claim_verdicts(claims_markdown):
    """{anchor: verdict} of the claim rows of CLAIMS.md: the verdict is the last cell's bold
    word, or "not run"."""
    verdicts = {}
    for line in claims_markdown.splitlines():
        anchor = _ANCHOR.search(line)
        if not anchor:
            continue
        last = line.rstrip(" |").rsplit(" | ", 1)[-1]
        bold = re.match(r"\*\*(.+?)\*\*", last)
        verdicts[anchor.group(1)] = bold.group(1) if bold else last.split(" (")[0].split(":")[0]
    return verdicts


def claim_holm(claims_markdown):
    """{anchor: Holm-adjusted p} of the claim rows of CLAIMS.md that have a p."""
    found = {}
    for line in claims_markdown.splitlines():
        anchor, cell = _ANCHOR.search(line), _HOLM_CELL.search(line)
        if anchor and cell:
            found[anchor.group(1)] = float(cell.group(1))
    return found


def recorded_commands(results_dir):
    """Every command a committed record under `results_dir` says produced it."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "command" and isinstance(value, str):
                    found.add(value)
                elif key == "commands" and isinstance(value, list):
                    found.update(v for v in value if isinstance(v, str))
                elif key == "argv" and isinstance(value, list) and value:
                    found.add("python " + shlex.join(value))
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(pathlib.Path(results_dir).glob("*.json")):
        walk(json.loads(path.read_text("utf-8")))
    return {" ".join(command.split()) for command in found}


def make_targets(makefile):
    """The targets a Makefile defines."""
    text = pathlib.Path(makefile).read_text("utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", text, re.M))


def _sentences(first_line, lines):
    """(line, sentence) of a stretch of prose: paragraphs and list items split into sentences,
    code spans kept whole."""
    paragraph, start = [], first_line
    for number, line in enumerate(lines + [""], first_line):
        item = re.match(r"\s*(?:[-*]|\d+\.)\s", line)
        if (not line.strip() or item or line.startswith("#")) and paragraph:
            yield from _split(start, " ".join(paragraph))
            paragraph = []
        if line.strip() and not line.startswith(("#", "|")):  # tables are not sentences
            start = number if not paragraph else start
            paragraph.append(line.strip())


def _split(line, text):
    for sentence in _SENTENCE_END.split(text):
        yield line, sentence


def _stated(sentence):
    """The verdict and ordering words (lower case) a sentence states, leaving out code spans,
    places in the document and rows set against a floor."""
    prose = _TARGET.sub("", _PLACE_LINK.sub("", _CODE.sub("", sentence)))
    while _FLOOR_PRONOUN.search(prose):
        prose = _FLOOR_PRONOUN.sub(r"\1", prose, count=1)
    return [w.lower() for w in _WORDS.findall(_PLACE.sub("", _FLOOR.sub("", prose)))]


def _sentence_findings(line, sentence, verdicts):
    """The `Finding` (at most one) of a sentence's verdicts and orderings.

    Args:
        line: the line the sentence starts on.
        sentence: the sentence.
        verdicts: {anchor: verdict} of CLAIMS.md's rows (`claim_verdicts`).
    """
    words = _stated(sentence)
    if not words:
        return []
    links = _LINK.findall(sentence)
    if not links:
        return [Finding(line, f"states {words[0]!r} without linking its CLAIMS.md row", sentence)]
    unknown = [anchor for anchor in links if anchor not in verdicts]
    if unknown:
        return [Finding(line, f"links no CLAIMS.md row: #{unknown[0]}", sentence)]
    linked = {verdicts[anchor].lower() for anchor in links}
    said = [w for w in words if w in VERDICT_WORDS]
    wrong = [w for w in said if not any(v.startswith(w) for v in linked)]
    if wrong:
        return [
            Finding(
                line,
                f"says {wrong[0]!r} where its CLAIMS.md row says {', '.join(sorted(linked))}",
                sentence,
            )
        ]
    # Each link on its own, one agreeing link covering no other: an ordering states
    # "confirmed", any other verdict the sentence names.
    ordering = any(w in ORDERING_WORDS for w in words)
    for anchor in links:
        verdict = verdicts[anchor].lower()
        if not (any(verdict.startswith(w) for w in said) or ordering and verdict == "confirmed"):
            problem = f"does not say {verdict!r}, the verdict of its CLAIMS.md row #{anchor}"
            return [Finding(line, problem, sentence)]
    return []


def _multiplicity_findings(line, sentence, holm):
    """The `Finding` (at most one) of a sentence's word on the Holm adjustment.

    Args:
        line: the line the sentence starts on.
        sentence: the sentence.
        holm: {anchor: Holm-adjusted p} of CLAIMS.md's rows (`claim_holm`).
    """
    if not _MULTIPLICITY.search(_CODE.sub("", sentence)):
        return []
    survives = not _NOT_SURVIVING.search(sentence)
    tested = [anchor for anchor in _LINK.findall(sentence) if anchor in holm]
    if not tested:
        return [Finding(line, "names the Holm adjustment without linking a tested claim", sentence)]
    for anchor in tested:
        if (holm[anchor] < TAIL) != survives:
            said = "survives" if survives else "does not survive"
            problem = (
                f"says the verdict {said} the Holm adjustment where its CLAIMS.md row "
                f"#{anchor} has {holm[anchor]:.4f}"
            )
            return [Finding(line, problem, sentence)]
    return []


def _command_findings(line, sentence, commands, targets):
    findings = []
    for code in _CODE.findall(sentence):
        if not _COMMAND.match(code):
            continue
        if code.startswith("make "):
            known = all(word in targets for word in code.split()[1:] if "=" not in word)
        else:
            known = " ".join(code.split()) in commands
        if not known:
            findings.append(Finding(line, "quotes a command no record's provenance holds", code))
    return findings


def check(markdown_path, claims_path, results_dir, makefile):
    """The `Finding`s of the prose of `markdown_path` against CLAIMS.md at `claims_path`, the
    records under `results_dir` and `makefile`."""
    claims_markdown = pathlib.Path(claims_path).read_text("utf-8")
    verdicts, holm = claim_verdicts(claims_markdown), claim_holm(claims_markdown)
    commands, targets = recorded_commands(results_dir), make_targets(makefile)
    findings = []
    for first_line, lines in prose_sections(pathlib.Path(markdown_path).read_text("utf-8")):
        for line, sentence in _sentences(first_line, lines):
            findings += _sentence_findings(line, sentence, verdicts)
            findings += _multiplicity_findings(line, sentence, holm)
            findings += _command_findings(line, sentence, commands, targets)
    return findings
