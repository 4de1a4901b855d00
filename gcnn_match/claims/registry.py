"""The registry of claims: each comparative statement a paper makes from its own rows.

A claim compares row A with row B of one table on one metric, in the direction the paper
states, and carries the paper's sentence (or table cells) that says so. The paper's Δ (or
ratio) is not written here: it comes from the rows' registered targets, so that each number
has one place. Per-paper modules (`<paper>_claims.py`) call `register` at import time.

Three kinds of measurement, told apart by the metric:

- a metric that is a mean over test units ("test_accuracy", "dev_mismatched_accuracy",
  "test_p@1", "test_map"...) or F1 ("test_f1", a ratio of sums over them;
  `predictions.split_and_column`): Δ = A − B from the per-example prediction records, with the
  seed-and-test-set interval;
- "seconds_per_epoch": the ratio time_A / time_B of whole training epochs
  (results/epoch-times-*.json, experiments/epoch_times.py) or of the side-by-side training
  throughput of `make bench` (results/bench*.json), on the paper's kind of device
  (`timing.assess_bench`), beside the ratio of the paper's times per epoch;
- "seconds_per_batch": the ratio from `make latency` (results/latency.json, COIN's Table 5);
  A and B are then the models that experiments/latency.py times, not table rows;
- "params": the ratio of the rows' parameter counts, by their table's counting convention
  (gcnn_match/experiments/param_counts.py);

A row the paper cites from other work (BiMPM, DGEM...), or reports only in a footnote (the
C-LSTMs' stacked attention LSTM), is not reproduced here: a claim against it names it in
`cited` with the paper's value, and is reported as such. `authors_ran` marks the cited rows
that the paper's authors ran themselves (ATTCONV's re-implemented MultichannelCNN, COIN's
fine-tuned BERT, the C-LSTMs' footnote row): rows this toolkit does not train. A claim
whose quote is a sentence of the paper's method (ATTCONV §4.1: "we always report [...] and
compare against five types of common baselines") rather than of its results is marked
`method_quote`. A claim with rows C and D is about a contrast of four rows, (A − B) − (C − D)
("TC gains more from four directions than LC").
"""

import dataclasses
import importlib
import pkgutil
from typing import Optional

from gcnn_match.evidence import latency
from gcnn_match.evidence.predictions import LABEL_COLUMNS, split_and_column
from gcnn_match.experiments import registry as experiments

EXPECTED = ("greater", "less", "equivalent")
TIME_METRICS = ("seconds_per_epoch", "seconds_per_batch")
COUNT_METRIC = "params"
PAPERS = ("GCNN", "ATTCONV", "C-LSTMs", "COIN")
# How far, as a fraction of it, a ratio the paper's cells give may lie from a ratio its
# sentence states ("nearly 1/5") and still meet it [U→S].
STATED_RATIO_SLACK = 0.25

_CLAIMS = []


@dataclasses.dataclass(frozen=True)
class Claim:
    """One comparative statement of a paper.

    Args:
        paper: "GCNN", "ATTCONV", "C-LSTMs" or "COIN".
        statement: the claim in a few words ("GCNN beats CNN").
        a, b: registered row names (models of experiments/latency.py for "seconds_per_batch").
        metric: our metric key, as the rows' `compare` pairs name it, or a time metric.
        expected: "greater" (A's value above B's), "less", or "equivalent" (within ±margin).
        quote: the paper's words, verbatim up to whitespace, hyphens at line breaks and
            markup; "[...]" joins passages that are apart in the paper.
        margin: for "equivalent", the largest |Δ| still called comparable [U→S].
        table: the paper's table, where row A's registration does not say it.
        paper_key: the paper's key of the metric in the rows' targets, where it is not the one
            the rows' `compare` pairs set against `metric` (Table 9's test row of ATTCONV,
            whose rows are compared with the paper's dev numbers).
        cited: ((name, paper value), ...) for A or B where it is a row not reproduced here:
            one the paper cites from other work, reports only in a footnote, or ran itself
            (`authors_ran`); its name as the paper prints it and its value there (a
            fraction, or a count for "params"). The other row is registered.
        authors_ran: with `cited` only: the cited row is one the paper's authors ran
            themselves (a baseline they re-implemented, trained or fine-tuned, as the paper's
            text says), not a number taken from other work.
        method_quote: the quote states the paper's method (the comparisons its experiments
            are set up to make, ATTCONV §4.1), not a result that draws this comparison: no
            sentence of the results ranks the pair, whose direction the quoted cells give.
        c, d: with a contrast claim, the rows whose difference A − B is set against:
            the claim is (A − B) − (C − D) compared with 0.
        floor: where B is its table's majority class ("majority class"), the paper's value of
            it; ours is the floor record's majority-class prediction (`baselines/floor.py`).
        stated_margin: the least gap the sentence states (">10%": 0.10), where it states
            one; the claim is the direction, and `note` says whether the cells reach it.
        stated_ratio: for a ratio claim, the ratio the sentence states as approximate
            ("nearly 1/5": 0.2); the cells meet it where their ratio lies within
            `STATED_RATIO_SLACK` of it, and `note` says where they do not.
    """

    paper: str
    statement: str
    a: str
    b: str
    metric: str
    expected: str
    quote: str
    margin: Optional[float] = None
    table: Optional[str] = None
    cited: tuple = ()
    c: Optional[str] = None
    d: Optional[str] = None
    floor: Optional[float] = None
    paper_key: Optional[str] = None
    stated_margin: Optional[float] = None
    stated_ratio: Optional[float] = None
    authors_ran: bool = False
    method_quote: bool = False

    def __post_init__(self):
        if self.expected not in EXPECTED:
            raise ValueError(f"{self.statement}: expected must be one of {EXPECTED}")
        if (self.expected == "equivalent") != (self.margin is not None):
            raise ValueError(f"{self.statement}: a margin goes with, and only with, equivalent")
        measured = self.metric in (*TIME_METRICS, COUNT_METRIC) or split_and_column(self.metric)
        # A cited claim measures nothing: its metric may be any the paper's table reports.
        if not (measured or self.cited):
            raise ValueError(
                f"{self.statement}: {self.metric!r} is not a mean over test units, F1, a time "
                "nor a count"
            )
        if not set(self.cited_values) <= {self.a, self.b} or len(self.cited) > 1:
            raise ValueError(f"{self.statement}: one of A and B is cited, by its name")
        if self.authors_ran and not self.cited:
            raise ValueError(f"{self.statement}: authors_ran marks a cited row")
        if (self.c is None) != (self.d is None) or (self.c and (self.cited or self.is_ratio)):
            raise ValueError(f"{self.statement}: a contrast names C and D, rows of records")
        # The floor record keeps the majority class's labels only.
        _, column = split_and_column(self.metric) or (None, None)
        if self.floor is not None and (self.cited or self.c or column not in LABEL_COLUMNS):
            raise ValueError(
                f"{self.statement}: a floor is B of a difference of two rows in accuracy or F1"
            )
        if self.stated_margin is not None and self.is_ratio:
            raise ValueError(f"{self.statement}: a ratio claim states a ratio, not a margin")
        if self.stated_ratio is not None and not (self.is_ratio and self.stated_ratio > 0):
            raise ValueError(f"{self.statement}: a stated ratio is positive, on a ratio claim")

    @property
    def cells_against(self):
        """Whether the paper's own cells (its Δ or ratio) go against its sentence: the other
        side of no difference, or at it (for "comparable", at or beyond the margin)."""
        null = 1.0 if self.is_ratio else 0.0
        if self.expected == "equivalent":
            return abs(self.paper_value - null) >= self.margin
        return (self.paper_value > null) != (self.expected == "greater") or (
            self.paper_value == null
        )

    @property
    def note(self):
        """What the report says after the quote where the paper's own numbers differ from its
        sentence: a direction they go against, a stated margin or ratio they miss (None
        otherwise)."""
        against = self.cells_against
        if against and self.metric == COUNT_METRIC:
            side = "above" if self.expected == "less" else "below"
            return f"the paper's own counts put it at or {side} this row's"
        if against:
            return "the paper's own cells go against its sentence for this pair"
        if self.stated_margin is not None and abs(self.paper_value) <= self.stated_margin:
            return "the paper's own cells miss the quoted margin: the direction is registered"
        if (
            self.stated_ratio is not None
            and abs(self.paper_value / self.stated_ratio - 1) > STATED_RATIO_SLACK
        ):
            return "the paper's own cells miss the quoted ratio: the direction is registered"
        return None

    @property
    def is_ratio(self):
        return self.metric in (*TIME_METRICS, COUNT_METRIC)

    @property
    def cited_values(self):
        """{name: the paper's value} of the cited row, {} when both rows are registered."""
        return dict(self.cited)

    @property
    def unregistered(self):
        """{name: the paper's value} of A or B where it is no registered row: a cited row, or
        the majority class of `floor`."""
        return {**self.cited_values, **({self.b: self.floor} if self.floor is not None else {})}

    @property
    def rows(self):
        """The names of A and B, then of C and D for a contrast."""
        return (self.a, self.b) if self.c is None else (self.a, self.b, self.c, self.d)

    @property
    def configs(self):
        """The registered configs of `rows`, None in place of a cited row (None for latency
        models)."""
        if self.metric == "seconds_per_batch":
            return None
        unregistered = self.unregistered
        return tuple(None if name in unregistered else experiments.get(name) for name in self.rows)

    @property
    def registered(self):
        """The config of the first registered row (None for latency models)."""
        return next(filter(None, self.configs), None) if self.configs else None

    @property
    def table_id(self):
        """The results table of the rows ("gcnn-quora"); None for latency models."""
        return experiments.table_id(self.registered) if self.registered else None

    @property
    def paper_table(self):
        return self.table or self.registered.table

    @property
    def paper_value(self):
        """The paper's Δ (A − B, a fraction; (A − B) − (C − D) for a contrast) or ratio
        (A / B), from the registered targets and the cited value."""
        if self.metric == "seconds_per_batch":
            return latency.PAPER[self.a][0] / latency.PAPER[self.b][0]
        unregistered = self.unregistered
        values = [
            unregistered[name] if config is None else config.targets[self.paper_metric]
            for name, config in zip(self.rows, self.configs)
        ]
        if self.is_ratio:
            return values[0] / values[1]
        if self.c is not None:
            return (values[0] - values[1]) - (values[2] - values[3])
        return values[0] - values[1]

    @property
    def paper_metric(self):
        """The paper's key of the metric in the rows' targets (`paper_key`, else their
        `compare` pairs)."""
        if self.is_ratio:
            return self.metric
        if self.paper_key:
            return self.paper_key
        return dict((ours, paper) for paper, ours in self.registered.compare)[self.metric]


def register(claim):
    _CLAIMS.append(claim)
    return claim


def _load():
    import gcnn_match.claims as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name.endswith("_claims"):
            importlib.import_module(f"gcnn_match.claims.{module.name}")


def select(paper=None):
    """Registered claims in the papers' order, then registration order."""
    _load()
    return sorted(
        (c for c in _CLAIMS if paper is None or c.paper == paper),
        key=lambda c: PAPERS.index(c.paper),
    )
