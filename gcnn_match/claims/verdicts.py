"""What a claim's evidence can carry: the whole verdict rule, as one ordered list of checks
(`RULE`; docs/design.md#claims and CLAIMS.md's preamble are rendered from it).

A claim's measurement reads "confirmed", "inconclusive" or "contradicted" from its interval
(`statistics.verdict`; for "comparable within ±margin", `equivalence_verdict`), or "not run";
the checks of `RULE` then say, in their order, whether the evidence may say so: the first check
that holds gives the verdict (`decide`), and a claim that passes them all keeps its reading.
What the checks read of a claim's outcome (`outcome.Outcome`): `claim`, `reading`, `short`
(`Schedule.undertrained` of a row it reads), `floor` (`floor_check.FloorCheck`), `near_tail`
(`borderline`) and `holm_p` (`holm` over the report's tested family).

Two rules shape the readings before the checks: *test split only*, a claim is never judged on
the split that selected the checkpoint (SELECTION_SPLIT) and reads the test split's lines
instead; *time claims* are judged on the paper's kind of device (PAPER_DEVICE), a record of
another kind shown beside the verdict and never making it. Beside the verdict, `size_label`
says whether the paper's value lies inside our interval.
"""

import dataclasses
import math

import numpy as np

from gcnn_match.evidence import aso, runs, statistics

NOT_RUN = "not run"
CITED = "cited row, not reproduced"
NOT_IMPLEMENTED = "not implemented yet"
UNDERTRAINED = "undertrained at this budget"
BELOW_FLOOR = "below floor"
BORDERLINE = "borderline"
AFTER_HOLM = "inconclusive after Holm"
TABLE_AGAINST_TEXT = "the paper's table disagrees with its text"
READINGS = ("confirmed", "contradicted", "inconclusive")  # what an interval itself can say
JUDGED = ("confirmed", "contradicted")
TAIL = (1.0 - statistics.CONFIDENCE) / 2.0  # the p a 95% interval's verdict turns on
MC_ERRORS = 2.0
# The prediction role that early stopping reads (training/loop.py): it selected the checkpoint.
SELECTION_SPLIT = "dev"
# The device each time metric's paper measured on: GCNN timed training epochs on a GPU
# (Tables 1-2), COIN its inference latency on a CPU (Table 5).
PAPER_DEVICE = {"seconds_per_epoch": "GPU", "seconds_per_batch": "CPU"}
CONSISTENT = "consistent with the paper"
SIZE_DIFFERS = "direction holds, size differs"
NOT_THE_PAPERS = "the paper's value lies outside our interval"


def shortfall(selected, run, cap, registered, patience):
    """Epochs a run still had to go under its registered schedule: 0 when it ran the schedule
    (no cap, or a cap at or above it), stopped early itself (`run` below `cap`), or its early
    stopping would have ended it by the cap (`selected` at most cap − patience). A cap the
    records cannot tell (`runs.UNKNOWN_CAP`) is taken to be where the run ended."""
    if cap == runs.UNKNOWN_CAP:
        cap = run
    if cap is None or cap >= registered or run < cap or selected <= cap - patience:
        return 0
    return min(registered, selected + patience) - cap


@dataclasses.dataclass(frozen=True)
class Schedule:
    """A row's runs under one config against its registered schedule.

    Attributes:
        row: the registered row name.
        registered, patience: the registered epochs and early-stopping patience.
        cap: the epoch cap the runs ran under (None: the registered schedule;
            `runs.UNKNOWN_CAP`: the records cannot tell).
        selected, run: per seed, the selected (best) epoch and the epochs run.
        seconds_per_epoch: the runs' mean seconds per epoch (None where not recorded).
    """

    row: str
    registered: int
    patience: int
    cap: object
    selected: tuple
    run: tuple
    seconds_per_epoch: object = None

    @property
    def shortfalls(self):
        return tuple(
            shortfall(s, r, self.cap, self.registered, self.patience)
            for s, r in zip(self.selected, self.run)
        )

    @property
    def undertrained(self):
        """Whether most seeds are short of their schedule."""
        return sum(n > 0 for n in self.shortfalls) > len(self.selected) / 2

    def hours(self, seeds):
        """Hours to train `seeds` runs of the row to its registered schedule: each at least to
        the mean selected epoch plus the patience (a run's selected epoch can only move later
        without the cap); None without a recorded time per epoch."""
        if self.seconds_per_epoch is None:
            return None
        epochs = [min(self.registered, s + self.patience) for s in self.selected]
        return seeds * sum(epochs) / len(epochs) * self.seconds_per_epoch / 3600.0

    def describe(self):
        """E.g. "4 of 5 seeds short by 1–2 epochs (selected 2, 2, 2, 2, 1; cap 6 of 20,
        patience 5)"."""
        short = [n for n in self.shortfalls if n]
        if not short:
            return f"{len(self.selected)} seeds complete"
        spread = f"{min(short)}" if min(short) == max(short) else f"{min(short)}–{max(short)}"
        selected = ", ".join(map(str, self.selected))
        return (
            f"{len(short)} of {len(self.selected)} seeds short by {spread} epochs (selected "
            f"{selected}; cap {self.cap} of {self.registered}, patience {self.patience})"
        )


def schedule(config, run_set):
    """The `Schedule` of registered row `config` from its recorded run set (`runs.run_set_of`);
    None without one or where it does not record each seed's selected epoch."""
    if run_set is None or not run_set.get("best_epoch"):
        return None
    timing = run_set.get("seconds_per_epoch")
    return Schedule(
        row=config.name,
        registered=config.epochs,
        patience=config.early_stopping_patience,
        cap=runs.epoch_cap(run_set, config.epochs),
        selected=tuple(run_set["best_epoch"]),
        run=tuple(run_set["epochs_run"]),
        seconds_per_epoch=timing[0] if timing else None,
    )


def below_floor(floor):
    """Whether both rows of a `floor_check.FloorCheck` lie below its first floor (the majority
    class; random order for ranking) on their table's main metric (`FloorCheck.judged`)."""
    if floor is not None and floor.judged is not None:
        floor = floor.judged
    if floor is None or not floor.floors:
        return False
    _, value = floor.floors[0]
    return all(mean < value for mean in floor.means)


def p_value(replicates, claim):
    """The one-sided bootstrap p of `claim` against its replicates: for a direction, the
    fraction on the wrong side of no difference (0, or 1 for a ratio); for "comparable within
    ±margin", the larger of the fractions beyond each side of the margin (two one-sided
    tests)."""
    if claim.expected == "equivalent":
        beyond = statistics.side(replicates, claim.margin) >= 0
        below = statistics.side(replicates, -claim.margin) <= 0
        return float(max(np.mean(beyond), np.mean(below)))
    null = 1.0 if claim.is_ratio else 0.0
    return statistics.one_sided_p(replicates, null, claim.expected)


def tails(replicates, claim):
    """The one-sided bootstrap p of each verdict other than "inconclusive" that the interval
    can give: the claimed side's (`p_value`) first, then each contradicting side's (for a
    direction, the fraction at or beyond no difference on the claimed side; for "comparable
    within ±margin", the fractions at or inside +margin and at or inside −margin)."""
    claimed = p_value(replicates, claim)
    if claim.expected == "equivalent":
        inside_above = statistics.side(replicates, claim.margin) <= 0
        inside_below = statistics.side(replicates, -claim.margin) >= 0
        return [claimed, float(np.mean(inside_above)), float(np.mean(inside_below))]
    other = dataclasses.replace(
        claim, expected="less" if claim.expected == "greater" else "greater"
    )
    return [claimed, p_value(replicates, other)]


def leaning_p(replicates, claim):
    """The smallest of `tails`: the one-sided p of the verdict our interval leans to, which
    the Holm adjustment (`holm`) reads, so that a contradicted verdict is tested against the
    family-wise error as a confirmed one is."""
    return min(tails(replicates, claim))


def borderline(replicates, claim):
    """Whether one of the verdict's `tails` lies within MC_ERRORS Monte Carlo standard errors
    of TAIL: another set of draws could turn the verdict."""
    resamples = len(replicates)
    return any(
        abs(p - TAIL) <= MC_ERRORS * math.sqrt(p * (1 - p) / resamples)
        for p in tails(replicates, claim)
    )


def size_label(claim, low, high):
    """Where the paper's value lies against our interval [low, high]: CONSISTENT inside it,
    SIZE_DIFFERS outside it with the interval on the claimed side, else NOT_THE_PAPERS."""
    paper = claim.paper_value
    if low <= paper <= high:
        return CONSISTENT
    null = 1.0 if claim.is_ratio else 0.0
    if claim.expected != "equivalent" and statistics.verdict(low, high, null, claim.expected) == (
        "confirmed"
    ):
        return SIZE_DIFFERS
    return NOT_THE_PAPERS


def holm(pvalues):
    """Holm's step-down adjustment of `pvalues` (Holm 1979): the k-th smallest times the number
    of p values not smaller, made non-decreasing, at most 1; in the input's order."""
    order = np.argsort(pvalues, kind="stable")
    count = len(pvalues)
    adjusted = np.empty(count)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (count - rank) * pvalues[index]))
        adjusted[index] = running
    return adjusted.tolist()


def reading(low, high, claim):
    """What the interval [low, high] of `claim`'s Δ (or ratio) says by itself: "confirmed",
    "contradicted" or "inconclusive" (`statistics.verdict` against no difference; for
    "comparable within ±margin", `equivalence_verdict`)."""
    if claim.expected == "equivalent":
        return equivalence_verdict(low, high, claim.margin)
    return statistics.verdict(low, high, 1.0 if claim.is_ratio else 0.0, claim.expected)


def equivalence_verdict(low, high, margin):
    """Where [low, high] lies against ±margin; within `statistics.TIE` of it is at it."""
    side = statistics.side
    if side(low, -margin) > 0 and side(high, margin) < 0:
        return "confirmed"
    if side(low, margin) > 0 or side(high, -margin) < 0:
        return "contradicted"
    return "inconclusive"


def count_reading(ratio, claim):
    """What an exact ratio of parameter counts says: as an interval of no width (`reading`),
    except that two equal counts contradict "fewer" (or "more") rather than leave it open."""
    if ratio == 1.0 and claim.expected != "equivalent":
        return "contradicted"
    return reading(ratio, ratio, claim)


def _not_run(outcome):
    return outcome.reading == NOT_RUN


def _cited(outcome):
    return bool(outcome.claim.cited) and not outcome.claim.authors_ran


def _not_implemented(outcome):
    return bool(outcome.claim.cited) and outcome.claim.authors_ran


def _undertrained(outcome):
    return outcome.short


def _below_floor(outcome):
    return below_floor(outcome.floor)


def _borderline(outcome):
    return outcome.near_tail


def _after_holm(outcome):
    held = outcome.holm_p is not None and statistics.side(outcome.holm_p, TAIL) >= 0
    return outcome.reading in JUDGED and held


def _table_against_text(outcome):
    claim = outcome.claim
    return claim.metric == "params" and claim.cells_against and outcome.reading == "contradicted"


@dataclasses.dataclass(frozen=True)
class Check:
    """One step of the verdict rule: the `verdict` a claim gets when `holds(outcome)`, and
    what that means, in words (`meaning`)."""

    verdict: str
    holds: object
    meaning: str


RULE = (
    Check(
        NOT_RUN,
        _not_run,
        "a row lacks its runs, its seeds, its test predictions or a record on the paper's "
        "kind of device: nothing was measured (the verdict gives the command that measures it)",
    ),
    Check(
        CITED, _cited, "a row is one the paper cites from other work: nothing of ours measures it"
    ),
    Check(
        NOT_IMPLEMENTED,
        _not_implemented,
        "a row is one the paper's authors ran themselves that this project does not build yet",
    ),
    Check(
        UNDERTRAINED,
        _undertrained,
        "a row ran under an epoch cap at which its registered early stopping would not yet have "
        "ended most of its seeds (the verdict gives the command that trains them to their "
        "schedule, with its hours)",
    ),
    Check(
        BELOW_FLOOR,
        _below_floor,
        "both rows lie below their table's first floor on the table's main metric (the "
        "majority class; random order for ranking), whatever the interval says",
    ),
    Check(
        BORDERLINE,
        _borderline,
        "the one-sided bootstrap p of the claimed side or of a contradicting side lies within "
        f"{MC_ERRORS:g} Monte Carlo standard errors of {TAIL:g}: another set of draws could "
        "turn the verdict",
    ),
    Check(
        AFTER_HOLM,
        _after_holm,
        "the interval excludes no difference, but the Holm-adjusted p of the side it leans to, "
        f"over the report's tested family, is not below {TAIL:g}: the family-wise error does "
        "not let the verdict stand",
    ),
    Check(
        TABLE_AGAINST_TEXT,
        _table_against_text,
        "a parameter count goes against the paper's sentence as the paper's own table does: "
        "the paper contradicts itself, no measurement does",
    ),
)
# Every verdict, in the order of the rule, then the readings that pass it.
VERDICTS = tuple(check.verdict for check in RULE) + READINGS
READING_MEANINGS = {
    "confirmed": "the interval excludes no difference on the claimed side (for a claim that "
    "two rows are comparable, it lies inside ±margin) and no check above holds",
    "contradicted": "the interval excludes no difference on the other side (for comparable "
    "rows, it lies wholly outside ±margin) and no check above holds",
    "inconclusive": "the interval holds no difference (or straddles the margin)",
}


def decide(outcome):
    """The verdict of `outcome`: that of the first check of `RULE` that holds, else its
    reading."""
    for check in RULE:
        if check.holds(outcome):
            return check.verdict
    return outcome.reading


def rule_lines():
    """The rule as a Markdown list, in its order: each verdict in bold with its meaning."""
    meanings = [(c.verdict, c.meaning) for c in RULE] + list(READING_MEANINGS.items())
    return [f"{n}. **{verdict}**: {meaning}." for n, (verdict, meaning) in enumerate(meanings, 1)]


# What each verdict says of the sides, for the second opinion of almost stochastic order.
_SIDE_OF_VERDICT = {
    "confirmed": "the claimed side",
    "contradicted": "the other side",
    "inconclusive": "neither side",
    AFTER_HOLM: "neither side",
}
ASO_VERDICTS = tuple(_SIDE_OF_VERDICT)  # the verdicts that say which side, if any, is ahead


def aso_side(outcome):
    """The side almost stochastic order finds dominant over the other: "the claimed side" or
    "the other side" where its ε_min is below `aso.THRESHOLD` (Dror et al.'s τ), else "neither
    side"; None where the outcome has no ASO."""
    if not outcome.aso:
        return None
    claimed, other = outcome.aso
    if claimed < aso.THRESHOLD:
        return "the claimed side"
    return "the other side" if other < aso.THRESHOLD else "neither side"


def aso_disagrees(outcome):
    """Whether ASO's side differs from the one the verdict gives (confirmed: the claimed side;
    contradicted: the other; inconclusive, also after Holm: neither); False where either says
    nothing of the sides (no ASO, or a verdict that judges nothing)."""
    side = aso_side(outcome)
    verdict_side = _SIDE_OF_VERDICT.get(outcome.verdict)
    return side is not None and verdict_side is not None and side != verdict_side
