"""The registry of claims: each comparative statement a paper makes from its own rows.

A claim compares row A with row B of one table on one metric, in the direction the paper
states, and carries the paper's sentence (or table cells) that says so. The paper's Δ (or
ratio) is not written here: it comes from the rows' registered targets, so that each number
has one place. Per-paper modules (`<paper>_claims.py`) call `register` at import time.

Three kinds of measurement, told apart by the metric:

- a metric that is a mean over test units ("test_accuracy", "dev_mismatched_accuracy",
  "test_p@1", "test_map"...; `records.split_and_column`): Δ = A − B from the per-example
  prediction records, with the seed-and-test-set bootstrap interval;
- "seconds_per_epoch": the ratio time_A / time_B from the side-by-side training throughput of
  `make bench` (results/bench*.json), beside the ratio of the paper's times per epoch;
- "seconds_per_batch": the ratio from `make latency` (results/latency.json, COIN's Table 5);
  A and B are then the models that experiments/latency.py times, not table rows.
"""

import dataclasses
import importlib
import pkgutil
from typing import Optional

from gcnn_match.evidence import latency
from gcnn_match.evidence.predictions import split_and_column
from gcnn_match.experiments import registry as experiments

EXPECTED = ("greater", "less", "equivalent")
TIME_METRICS = ("seconds_per_epoch", "seconds_per_batch")
PAPERS = ("GCNN", "ATTCONV", "C-LSTMs", "COIN")

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

    def __post_init__(self):
        if self.expected not in EXPECTED:
            raise ValueError(f"{self.statement}: expected must be one of {EXPECTED}")
        if (self.expected == "equivalent") != (self.margin is not None):
            raise ValueError(f"{self.statement}: a margin goes with, and only with, equivalent")
        if self.metric not in TIME_METRICS and split_and_column(self.metric) is None:
            raise ValueError(
                f"{self.statement}: {self.metric!r} is not a mean over test units nor a time"
            )

    @property
    def is_ratio(self):
        return self.metric in TIME_METRICS

    @property
    def configs(self):
        """The registered configs of A and B (None for latency models)."""
        if self.metric == "seconds_per_batch":
            return None
        return experiments.get(self.a), experiments.get(self.b)

    @property
    def table_id(self):
        """The results table of the rows ("gcnn-quora"); None for latency models."""
        configs = self.configs
        return experiments.table_id(configs[0]) if configs else None

    @property
    def paper_table(self):
        return self.table or self.configs[0].table

    @property
    def paper_value(self):
        """The paper's Δ (A − B, a fraction) or ratio (A / B), from the registered targets."""
        if self.metric == "seconds_per_batch":
            return latency.PAPER[self.a][0] / latency.PAPER[self.b][0]
        a, b = (c.targets[self.paper_metric] for c in self.configs)
        return a / b if self.is_ratio else a - b

    @property
    def paper_metric(self):
        """The paper's key of the metric in the rows' targets (their `compare` pairs)."""
        if self.is_ratio:
            return self.metric
        return dict((ours, paper) for paper, ours in self.configs[0].compare)[self.metric]


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
