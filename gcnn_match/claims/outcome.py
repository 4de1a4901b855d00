"""A claim's measurement as the report shows it (`Outcome`), and the seeds a verdict needs.

A verdict needs SEEDS seeds in each row (a majority-vote row is one); a claim with fewer is
"not run", with the seeds it has and the command that trains the rest (`plans.py`).
"""

import dataclasses
from typing import Optional

from gcnn_match.claims import floor_check, verdicts

SEEDS = (1, 2, 3, 4, 5)


class NotRecorded(ValueError):
    """The records of a claim's row lack the per-example column its metric reads (runs that
    wrote no official per-example terms): the claim is "not run", saying so."""


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A claim's measurement.

    Attributes:
        claim: the `Claim`.
        reading: what the measurement says by itself (`verdicts.READINGS`), or
            `verdicts.NOT_RUN`; "" for a claim against a cited row (nothing measured).
        estimate, low, high: our Δ (a fraction) or ratio, and its 95% interval (None when
            there is none).
        sample: seeds (or timed repeats) and units, in words.
        epochs: epochs run / registered of each row, in words.
        scale: the scale (or measurement) the numbers come from.
        note: what the reader should know about the numbers.
        command: for "not run", the command that produces the missing measurement; "" where
            the records lack a column that no command of ours fills (`NotRecorded`).
        floor: for a difference, the `floor_check.FloorCheck` of its rows.
        missing_data: for "not run" checked against a data folder, the splits its rows read
            that are absent there, in words; "" when all are present or it was not checked.
        p: the one-sided bootstrap p of the claim (`verdicts.p_value`); None without replicates.
        leaning_p: the one-sided p of the side the interval leans to (`verdicts.leaning_p`):
            p, or a contradicting side's when that is smaller.
        holm_p: leaning_p adjusted by Holm's method over the report's claims with a p
            (`assess`).
        size: where the paper's value lies against our interval (`verdicts.size_label`).
        hours: the estimated hours of `command` (`training_plan`); None where unknown.
        also_measured: a time claim's other measurements, in words, shown beside the verdict
            and never judged: on another kind of device than the paper's, or other records on
            its kind than the one judged.
        short: whether a row the claim reads has most seeds short of its schedule
            (`verdicts.Schedule.undertrained`).
        near_tail: whether a one-sided p lies within Monte Carlo error of the interval's tail
            (`verdicts.borderline`).
        aso: for a difference of two rows of several seeds each, the ε_min of almost
            stochastic order over their per-seed scores (`evidence/aso.py`): (of the claimed
            side, of the other side); () where there is none.
        verdict: the verdict of `verdicts.decide` (one of `verdicts.VERDICTS`), set by `assess`
            once the report's family has its Holm-adjusted p values.
    """

    claim: object
    reading: str
    estimate: Optional[float] = None
    low: Optional[float] = None
    high: Optional[float] = None
    sample: str = ""
    epochs: str = ""
    scale: str = ""
    note: str = ""
    command: str = ""
    floor: Optional[floor_check.FloorCheck] = None
    missing_data: str = ""
    p: Optional[float] = None
    leaning_p: Optional[float] = None
    holm_p: Optional[float] = None
    size: str = ""
    hours: Optional[float] = None
    also_measured: str = ""
    short: bool = False
    near_tail: bool = False
    aso: tuple = ()
    verdict: str = ""


def measured(claim, result, **fields):
    """The `Outcome` of a bootstrap `result` (a `statistics.Comparison`): its verdict, estimate
    and interval, with the other `fields`."""
    reading = verdicts.reading(result.low, result.high, claim)
    return Outcome(claim, reading, result.estimate, result.low, result.high, **fields)
