"""What a claim's evidence can carry: the rules that turn a measured interval into a verdict
(docs/design.md#claims).

A claim's interval says "confirmed", "inconclusive" or "contradicted" (`statistics.verdict`);
these rules then decide whether the evidence may say so:

- *undertrained at this budget*: a run capped below its registered schedule is complete only
  when its registered early stopping would have ended it by the cap (its selected epoch is at
  most cap − patience) or it stopped early itself; otherwise it is short by
  min(registered, selected + patience) − cap epochs. A claim with a row most of whose seeds
  are short is "undertrained at this budget", never confirmed or contradicted;
- *below floor*: a claim between two rows that are both below their table's first floor (the
  majority class; random order for a ranking table) is "below floor";
- *borderline*: a verdict whose one-sided bootstrap p lies within MC_ERRORS Monte Carlo
  standard errors, sqrt(p (1 − p) / resamples), of the interval's tail (0.025);
- *test split only*: a claim is never judged on the split that selected the checkpoint
  (SELECTION_SPLIT); it reads the test split's lines instead;
- *time claims* are judged on the paper's kind of device (PAPER_DEVICE); a record of another
  kind is shown beside the verdict and never makes it.

Beside the verdict, `size_label` says whether the paper's value lies inside our interval, and
`holm` adjusts the one-sided p of the side each interval leans to (`leaning_p`) for the number
of claims tested.
"""

import dataclasses
import math

import numpy as np

from gcnn_match.evidence import runs, statistics

UNDERTRAINED = "undertrained at this budget"
BELOW_FLOOR = "below floor"
BORDERLINE = "borderline"
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
    class; random order for ranking)."""
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
