"""Every number the hand-written prose of REPRODUCTION.md quotes, traced to where it comes from.

The tables between `<!-- begin KEY -->` and `<!-- end KEY -->` are rendered from the committed
records; the prose around them is written by hand, so a number there can go stale, come from a
run directory that no record holds, or be rounded into something no record says. `check` lists
every number of the prose that is none of:

- a value of a committed record under results/ (table records, floors, benchmarks, latency,
  C-LSTM speed), a number or one inside a text field, as recorded or × 100 (a fraction as a
  percentage), at the precision the prose prints it: "75.96" is 0.759633, "900K" is 900,000;
- a paper number: a target of a registered row (gcnn_match/experiments/*_rows.py), likewise;
- a difference ("3.26 points", "Δ 0.5") or a ratio ("1.6×", "ratio 11.8") of two values that one
  record (or one table's targets) holds under the same field;
- a registered schedule (a row's epochs and early-stopping patience) or one of COIN Table 5's
  paper latencies (`evidence.latency.PAPER`);
- asserted by a test file that its section names (`tests/...py`), e.g. a parameter count;
- in a context that quotes no result: a code span (commands, paths), a link target
  (`_CODE_OR_LINK`), a citation's year, a reference to a paper's table, figure, equation or
  section (`_REFERENCES`).

The prose on one paper (a section whose heading names it) is traced to that paper's records and
to those of no paper (machines, the C-LSTM speed table), so that a number of another paper's
table does not vouch for it. A number matches at the precision it is printed with, so a short
one ("2", "1.6") matches by coincidence more easily than "75.96" or "1,170,000": the check
catches stale, invented and mis-rounded results, not every wrong short number.
"""

import dataclasses
import itertools
import json
import math
import pathlib
import re

from gcnn_match.evidence import latency
from gcnn_match.experiments import registry
from gcnn_match.training.metrics import is_headline_metric

_BLOCK = re.compile(r"<!-- begin (\S+) -->.*?<!-- end \1 -->", re.S)
# Digits not glued to a word, a version or another number, thousands separated by commas, with
# a K or M multiplier; a vector's name such as "6B-50d" is not a number.
_NUMBER = re.compile(r"(?<![\w.,@/^])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[KM]?(?![\w²])")
_MULTIPLIERS = {"K": 1e3, "M": 1e6}
_CODE_OR_LINK = re.compile(r"`[^`]*`|\]\([^)]*\)")  # may span lines
_REFERENCES = re.compile(
    r"et al\.,? \d{4}"  # a citation's year
    r"|\b(?:Tables?|Figures?|Eqs?\.|Section|§)\s?\d+(?:\.\d+)*(?:[–-]\d+)?"  # the paper's parts
)
_RANGE_END = re.compile(r"[–-][\d.,]+")
_RATIO_AFTER = re.compile(r"\s*[×x](?!\w)")
_POINTS_AFTER = re.compile(r"(?:\s+|-)points?\b")
_TEST_FILE = re.compile(r"\btests/[\w/]+\.py\b")


@dataclasses.dataclass(frozen=True)
class Quoted:
    """A number of the prose.

    Args:
        line: its line in the markdown file (1-based).
        text: as printed, e.g. "1,350,000", "0.5123", "900K".
        kind: "value", "difference" or "ratio" (what it may be traced to).
        context: the line it is on.
        multiplier: the unit's ("900K": 1,000; "1.2 GFLOP": 10⁹; "184.3 GFLOP/s": 1, as
            the records hold rates).
    """

    line: int
    text: str
    kind: str
    context: str
    multiplier: float = 1.0

    @property
    def decimals(self):
        fraction = re.search(r"\.(\d+)", self.text)
        return len(fraction.group(1)) if fraction else 0

    @property
    def printed(self):
        """The number as printed, in its unit, without thousands separators."""
        return f"{float(self.text.rstrip('KM').replace(',', '')):.{self.decimals}f}"


def _parse(text):
    """The value of a number as `_NUMBER` finds it ("1,350,000", "900K")."""
    return float(text.rstrip("KM").replace(",", "")) * _MULTIPLIERS.get(text[-1], 1.0)


def prose_sections(markdown):
    """(first line number, lines) of each stretch of prose: the text between headings and
    rendered blocks, whose lines are blanked so that line numbers stay those of the file."""
    text = _BLOCK.sub(lambda m: "\n" * m.group().count("\n"), markdown)
    sections, start, lines = [], 1, []
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("#") and lines:
            sections.append((start, lines))
            start, lines = number, []
        lines.append(line)
    return sections + [(start, lines)]


def quoted_numbers(first_line, lines):
    """The numbers of a stretch of prose that may quote a result."""
    text = _CODE_OR_LINK.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), "\n".join(lines))
    references = [m.span() for m in _REFERENCES.finditer(text)]
    found = []
    for match in _NUMBER.finditer(text):
        if any(a <= match.start() < b for a, b in references):
            continue
        after, before = text[match.end() :], text[max(0, match.start() - 10) : match.start()]
        if range_end := _RANGE_END.match(after):
            after = after[range_end.end() :]
        if _RATIO_AFTER.match(after) or re.search(r"ratio\s+$", before):
            kind = "ratio"
        elif _POINTS_AFTER.match(after) or re.search(r"Δ\s+$", before):
            kind = "difference"
        else:
            kind = "value"
        number = match.group()
        # Records count FLOPs one by one but rates in GFLOP/s already.
        giga = re.match(r"\s+GFLOP(?!/s)", after)
        multiplier = 1e9 if giga else _MULTIPLIERS.get(number[-1], 1.0)
        line = text.count("\n", 0, match.start())
        found.append(Quoted(first_line + line, number, kind, lines[line].strip(), multiplier))
    return found


class Sources:
    """What a number may be traced to: the records of `results_dir`, the registered targets and
    schedules and COIN's paper latencies, in the prose's units (a metric's fraction as a
    percentage), as values and, per field of one record (or one table's targets), as pairs for
    differences and ratios.

    Each value belongs to the paper of the row or table it describes, or to none (a machine, a
    benchmark of no registered row)."""

    def __init__(self, results_dir):
        self.values, self.fields = {}, {}
        configs = registry.select()
        self._papers = {registry.table_id(c): c.paper for c in configs}
        self._papers.update({c.name: c.paper for c in configs})
        for path in sorted(pathlib.Path(results_dir).glob("*.json")):
            self._walk(json.loads(path.read_text("utf-8")), (None, path.name), None)
        for config in configs:
            for key, target in config.targets.items():
                self._add(target, (config.paper, f"{registry.table_id(config)} targets"), key)
            schedule = (config.epochs, config.early_stopping_patience)
            self.values.setdefault(config.paper, []).extend(map(float, schedule))
        for mean, std, params in latency.PAPER.values():
            for key, value in (("mean", mean), ("std", std), ("params", _parse(params))):
                self._add(value, ("COIN", "latency paper"), key)
        self._printed_cache = {}

    def _paper(self, node):
        """The paper a record's dict describes: a row's ("name") or a table's ("key")."""
        names = [n for n in (node.get("name"), node.get("key")) if isinstance(n, str)]
        return next((self._papers[n] for n in names if n in self._papers), None)

    def _walk(self, node, source, key):
        if isinstance(node, dict):
            paper = self._paper(node)
            source = (paper, source[1]) if paper else source
            for child_key, child in node.items():
                self._walk(child, source, child_key)
        elif isinstance(node, list):
            # A [mean, std] pair: the std joins no field, so no difference mixes the two.
            pair = len(node) == 2 and all(isinstance(v, float) for v in node)
            for i, child in enumerate(node):
                self._walk(child, source, (key, "std") if pair and i else key)
        elif isinstance(node, str):
            values = self.values.setdefault(source[0], [])
            values += [_parse(match.group()) for match in _NUMBER.finditer(node)]
        elif isinstance(node, (int, float)) and not isinstance(node, bool):
            self._add(node, source, key)

    def _add(self, value, source, key):
        metric = key[0] if isinstance(key, tuple) else key
        value = float(value) * (100.0 if metric and is_headline_metric(metric) else 1.0)
        self.values.setdefault(source[0], []).append(value)
        if key is not None and not isinstance(key, tuple):
            self.fields.setdefault((source, key), []).append(value)

    def _printed(self, kind, decimals, multiplier, paper):
        """Each traceable number of `kind` for the prose on `paper` (None: on every paper), as
        printed with `decimals` after `multiplier`."""
        cache_key = (kind, decimals, multiplier, paper)
        if cache_key not in self._printed_cache:
            if kind == "value":
                values = [v for p, vs in self.values.items() if _serves(p, paper) for v in vs]
            else:
                values = [
                    abs(a - b) if kind == "difference" else a / b
                    for ((p, _), _), group in self.fields.items()
                    if _serves(p, paper)
                    for a, b in itertools.permutations(group, 2)
                    if kind == "difference" or b
                ]
            self._printed_cache[cache_key] = {
                f"{v / multiplier:.{decimals}f}" for v in values if math.isfinite(v)
            }
        return self._printed_cache[cache_key]

    def traces(self, quoted, paper=None, extra=()):
        """Whether `quoted`, in the prose on `paper`, is a value (or its difference or ratio)
        of the sources or of `extra` (numbers of the section's test files)."""
        kinds = dict.fromkeys(("value", quoted.kind))
        if any(
            quoted.printed in self._printed(kind, quoted.decimals, quoted.multiplier, paper)
            for kind in kinds
        ):
            return True
        return quoted.printed in {f"{v / quoted.multiplier:.{quoted.decimals}f}" for v in extra}


def _serves(source_paper, prose_paper):
    """Whether a value of `source_paper` (None: of no paper) may trace prose on `prose_paper`
    (None: on every paper)."""
    return source_paper is None or prose_paper is None or source_paper == prose_paper


def section_paper(lines):
    """The paper a section's heading names (None for the sections on every paper)."""
    heading = lines[0] if lines and lines[0].startswith("#") else ""
    papers = {c.paper for c in registry.select()}
    named = [p for p in papers if p.rstrip("s") in heading]
    return named[0] if len(named) == 1 else None


def _asserted_by_tests(lines, repo):
    """The numbers of the test files the lines name (Python literals such as 8_016_302, and
    numbers written with commas in their comments)."""
    numbers = []
    for path in {p for line in lines for p in _TEST_FILE.findall(line)}:
        if (repo / path).is_file():
            text = (repo / path).read_text("utf-8")
            literals = re.finditer(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d[\d_]*)(?:\.\d+)?", text)
            numbers += [float(m.group().replace("_", "").replace(",", "")) for m in literals]
    return numbers


def check(markdown_path, results_dir, repo=None):
    """The numbers of the prose of `markdown_path` that nothing traces (list of `Quoted`)."""
    path = pathlib.Path(markdown_path)
    repo = pathlib.Path(repo) if repo else path.parent
    sources = Sources(results_dir)
    untraced = []
    for first_line, lines in prose_sections(path.read_text("utf-8")):
        paper, tested = section_paper(lines), _asserted_by_tests(lines, repo)
        for quoted in quoted_numbers(first_line, lines):
            if not sources.traces(quoted, paper, tested):
                untraced.append(quoted)
    return untraced
