"""Each claim against our measurements: Δ with its interval and a verdict, or "not run".

Accuracy-like claims read the per-example prediction records (`evidence/predictions.py`) and use the
seed-and-test-set bootstrap of `evidence/statistics.py`: "confirmed" when the 95% interval of
Δ = A − B excludes 0 on the claimed side, "contradicted" on the other side, "inconclusive"
otherwise. An "equivalent" claim is confirmed when the interval lies inside ±margin,
contradicted when it lies wholly outside, inconclusive otherwise.

A verdict needs SEEDS seeds in each row (a majority-vote row is one); a claim with fewer is
"not run", with the seeds it has and the command that trains the rest.

A row may have runs under several configs (e.g. an epoch cap). A claim sets like against like:
it uses a config both rows ran, the one with the most seeds in both (then the highest epoch
cap); only where the rows share none, or where each row's own config with the most seeds
(then the highest epoch cap) gives the row with the fewest seeds more, does it take those, and
says the configs differ. Units (examples or questions) are
those both rows were scored on in every seed. Beside the verdict, each row's metric is set
against the floors of its table (`floor_check.py`). The rules of `verdicts.py` then say what
the evidence can carry: "undertrained at this budget", "below floor", "borderline", a claim on
the checkpoint-selecting split read on test, a time claim judged on the paper's kind of device.
`difference` is that measurement for any two rows of a table: `readings.py` (and
experiments/compare.py) reads it both ways for rows that are no claim of the paper.

Time claims read, on the paper's kind of device, the whole-epoch records of
`experiments/epoch_times.py` (`evidence/epoch_times.py`) or the side-by-side measurements of
`make bench` and `make latency`: the ratio A / B of the time per epoch, per training pair
(bench) or per batch (latency), with the bootstrap
interval of `compare_ratio` over the recorded seconds of each timed step or batch, and the
same verdict rule against a ratio of 1. Records written before the step times were kept hold
each row's mean only: their ratio is shown without an interval, "inconclusive".

A claim against a row the paper cites from other work or reports only in a footnote
(`Claim.cited`) is "cited row, not reproduced": nothing of ours measures that row. A
parameter-count claim compares the counts of the rows' built models (exact, no interval); a
contrast claim, (A − B) − (C − D), uses `statistics.compare_contrast` on the four rows' records
like a difference of two; a claim against the majority class reads B from the floor record's
per-example predictions. F1 is measured from the records' labels as a ratio of sums over units
(`_unit_scores`); the FEVER score is the mean of the official scorer's per-claim term, which the
records keep (`fever_correct`).

Given a data folder, a "not run" claim also says which files its rows would read at the scale
of its command (`command_scale`) are absent from it: those claims wait for data, not only for
compute.
"""

import dataclasses
import json
import pathlib
import shlex
from typing import Optional

import numpy as np
import pandas as pd

from gcnn_match.baselines import floor
from gcnn_match.claims import floor_check, verdicts
from gcnn_match.data.experiment_data import apply_scale
from gcnn_match.data.registry import available_splits, get_dataset
from gcnn_match.evidence import devices, epoch_times, latency, predictions, runs, statistics
from gcnn_match.evidence.runs import run_of_registered, run_set_of
from gcnn_match.experiments import param_counts
from gcnn_match.experiments import registry as experiments
from gcnn_match.experiments.planning import splits_read

SEEDS = (1, 2, 3, 4, 5)
NOT_RUN_SCALE = "low-resource"  # the scale the "not run" commands train at
BENCH_THROUGHPUT = "train_pairs_per_second_bucket"
BENCH_STEP_SECONDS = "train_step_seconds_bucket"
LATENCY_SECONDS = "batch_seconds"
# Why a time measurement beside a verdict is not judged.
ANOTHER_DEVICE = "another kind of device than the paper's"
ANOTHER_RECORD = "another record on the paper's kind of device"
# Below this many timed steps (or batches) in a row, the percentile interval of a ratio may be
# too narrow (about 85% coverage at 5 on separate batches; evidence/statistics.py).
FEW_REPEATS = 10


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
    verdict: str = ""


class RecordedPredictions:
    """The per-example prediction records (`evidence/predictions.py`) under `results_dir`, read
    once per (table, scale)."""

    def __init__(self, results_dir):
        self.results_dir = pathlib.Path(results_dir)
        self._frames = {}

    def lines(self, table, scale, row, split):
        key = (table, scale)
        if key not in self._frames:
            path = predictions.record_path(self.results_dir, table, scale)
            self._frames[key] = predictions.read_record(path)
        frame = self._frames[key]
        return frame[(frame["row"] == row) & (frame["split"] == split)]


def _one_config(lines):
    """The lines of the config with the most seeds, then the highest epoch cap."""
    configs = lines.groupby("config").agg(seeds=("seed", "nunique"), cap=("max_epochs", "max"))
    best = configs.sort_values(["seeds", "cap"], ascending=False, kind="stable").index[0]
    return lines[lines["config"] == best]


def _shared_config(*lines):
    """The lines of each row under the config all ran with the most seeds in all (then the
    highest epoch cap), or None when they share no config."""
    # A majority vote is of its members' config ("<config>-vote").
    configs = [rows["config"].str.removesuffix("-vote") for rows in lines]
    seeds = [rows.groupby(config)["seed"].nunique() for rows, config in zip(lines, configs)]
    shared = sorted(set.intersection(*(set(s.index) for s in seeds)))
    if not shared:
        return None
    caps = pd.concat(lines).groupby(pd.concat(configs))["max_epochs"].max()
    best = max(shared, key=lambda c: (min(s[c] for s in seeds), caps[c]))
    return [rows[config == best] for rows, config in zip(lines, configs)]


def _compared_configs(*lines):
    """The lines of each row that a claim compares: the config all ran with the most seeds in
    all (`_shared_config`), unless each row's own config with the most seeds (`_one_config`)
    gives the row with the fewest seeds more (a run set part-way to five seeds at the
    registered schedule does not displace a complete capped one)."""
    own = [_one_config(rows) for rows in lines]
    shared = _shared_config(*lines)
    if shared is None or _fewest_seeds(own) > _fewest_seeds(shared):
        return own
    return shared


def _fewest_seeds(lines):
    """The fewest seeds of any row's `lines`; a majority vote ("<config>-vote", seed 0) counts
    as the complete set it was voted from."""
    return min(
        len(SEEDS) if rows["config"].str.endswith("-vote").all() else rows["seed"].nunique()
        for rows in lines
    )


def _cap(lines, name):
    """The epoch cap of one config's `lines` of row `name`, or None where it is the registered
    schedule."""
    cap = int(lines["max_epochs"].iloc[0])
    return None if cap == experiments.get(name).epochs else cap


def _epochs(lines, name):
    """ "12–20 / 20" (epochs run by its seeds / registered), with the cap where it differs."""
    run = lines.groupby("seed")["epochs"].first()
    return run_of_registered(run.tolist(), experiments.get(name).epochs, _cap(lines, name))


def _seed_count(lines):
    seeds = lines["seed"].unique()
    return "vote" if list(seeds) == [0] else str(len(seeds))


def reproduce_command(table, rows, scale=NOT_RUN_SCALE, skip_recorded=False):
    """The reproduce.py command that trains `rows` (registered names) of `table`, 5 seeds, to
    their registered schedule; with `skip_recorded`, only the seeds their record lacks."""
    slugs = ",".join(name.rsplit("/", 1)[-1] for name in rows)
    flags = [
        f"--table={table}",
        f"--rows={slugs}",
        f"--scale={scale}",
        f"--seeds={','.join(map(str, SEEDS))}",
    ]
    if skip_recorded:
        flags.append("--skip_recorded")
    return "python experiments/reproduce.py " + shlex.join(flags)


@dataclasses.dataclass(frozen=True)
class TrainingPlan:
    """What a claim still needs trained: the command that trains its rows without a complete
    run set at their registered schedule (SEEDS seeds, no epoch cap, test predictions
    recorded), its estimated hours (None where a row has no recorded time per epoch), and what
    the records already hold of those rows, in words."""

    command: str
    hours: Optional[float]
    note: str


def training_plan(claim, store, scale=NOT_RUN_SCALE):
    """The `TrainingPlan` that lets `claim` be judged at `scale`: a claim sets like against
    like, so every registered row of it without a complete run set at its registered schedule
    trains to it."""
    split, _ = predictions.split_and_column(judged_metric(claim))
    rows = [
        name
        for name in claim.rows
        if name not in claim.unregistered and _short_of_schedule(store, claim, scale, name, split)
    ]
    shortfalls = [
        _shortfall(store, claim, scale, row, split)
        for row in dict.fromkeys(_trained_row(name) for name in rows)
    ]
    hours = [s.hours for s in shortfalls]
    # Seeds with predictions at the registered schedule are skipped (--skip_recorded), unless
    # a row is recorded without predictions: it must train again, and the flag would skip it.
    skip_recorded = any(s.at_schedule for s in shortfalls) and not any(
        s.unpredicted for s in shortfalls
    )
    return TrainingPlan(
        reproduce_command(claim.table_id, rows, scale, skip_recorded=skip_recorded),
        sum(hours) if hours and None not in hours else None,
        "; ".join(note for s in shortfalls for note in s.notes(split)),
    )


@dataclasses.dataclass(frozen=True)
class _Shortfall:
    """What the records hold of one trained row short of its registered schedule.

    Attributes:
        row: the name of the row that trains (a majority vote's members).
        at_schedule: how many of the SEEDS have predictions at the registered schedule.
        unpredicted: where the row has no per-example predictions on the judged split, the most
            seeds one of its run sets records; 0 where it has them or no run set lists a seed
            (nothing that --skip_recorded could skip).
        hours: hours to train the SEEDS it lacks (None without a timed run set).
    """

    row: str
    at_schedule: int
    unpredicted: int
    hours: Optional[float]

    def notes(self, split):
        """The shortfall in words: the seeds already at the schedule and those recorded
        without predictions."""
        notes = []
        if 0 < self.at_schedule < len(SEEDS):
            notes.append(f"{self.at_schedule} of {len(SEEDS)} seeds trained to its schedule")
        if self.unpredicted:
            notes.append(
                f"{self.unpredicted} seeds recorded without per-example {split} predictions"
            )
        return [f"{self.row}: {note}" for note in notes]


def _shortfall(store, claim, scale, row, split):
    """The `_Shortfall` of trained row `row` of `claim`'s table on `split` at `scale`."""
    run_sets = runs.run_sets_of(store.results_dir, claim.table_id, scale, row)
    lines = store.lines(claim.table_id, scale, row, split)
    at_schedule = _seeds_at_schedule(lines, row)
    unpredicted = 0
    if run_sets and lines.empty:
        unpredicted = max(len(s.get("seeds", [])) for s in run_sets)
    hours = _hours(experiments.get(row), run_sets, len(SEEDS) - at_schedule)
    return _Shortfall(row, at_schedule, unpredicted, hours)


def _trained_row(name):
    """The row whose runs registered row `name` reports: a majority vote's members."""
    config = experiments.get(name)
    return config.runs_of if config.ensemble_size else name


def _hours(config, run_sets, seeds):
    """Hours to train `seeds` runs of row `config` to its registered schedule: from its run set
    at that schedule where one is timed (its seeds ran to their early stopping), else from its
    timed run set with the most seeds (each seed to its selected epoch plus the patience: a
    lower bound in epochs); None without a timed run set (`verdicts.Schedule.hours`)."""
    timed = [verdicts.schedule(config, s) for s in run_sets]
    timed = [t for t in timed if t is not None and t.seconds_per_epoch is not None]
    at_schedule = [t for t in timed if t.cap is None]
    basis = max(at_schedule or timed, key=lambda t: len(t.selected), default=None)
    return basis.hours(seeds) if basis else None


def _seeds_at_schedule(lines, row):
    """How many of the SEEDS of registered row `row` have prediction `lines` at its registered
    schedule (1 for a majority vote that has them)."""
    config = experiments.get(row)
    at_schedule = lines[(lines["max_epochs"] == config.epochs) & lines["seed"].isin([0, *SEEDS])]
    return at_schedule["seed"].nunique()


def _short_of_schedule(store, claim, scale, row, split):
    """Whether registered row `row` of `claim`'s table lacks a complete run set of `split`
    predictions at its registered schedule (SEEDS seeds, or the vote of them)."""
    complete = 1 if experiments.get(row).ensemble_size else len(SEEDS)
    lines = store.lines(claim.table_id, scale, row, split)
    return _seeds_at_schedule(lines, row) < complete


@dataclasses.dataclass(frozen=True)
class Difference:
    """Δ = A − B of two rows' metric, measured on the per-example records at one scale.

    Attributes:
        comparison: the `statistics.Comparison` of Δ: estimate, 95% interval, seeds, units
            (its verdict reads the interval for "A above B").
        scale: the scale of the records.
        means: each row's metric as its runs report it: the mean over seeds of the mean over
            units (a fraction).
        seeds: each row's seeds in words ("5", or "vote" for a majority-vote row).
        epochs: each row's epochs run / registered in words ("8–12 / 20 (cap 6)").
        configs: each row's config, the run directories' name without the seed.
    """

    comparison: object
    scale: str
    means: tuple
    seeds: tuple
    epochs: tuple
    configs: tuple

    @property
    def sample(self):
        """ "5 vs 5 seeds, 9824 units"."""
        return f"{self.seeds[0]} vs {self.seeds[1]} seeds, {self.comparison.units} units"

    @property
    def notes(self):
        """What the reader should know about the numbers: a row of one seed, differing
        configs."""
        notes = [self.comparison.note] if self.comparison.note else []
        return notes + self.config_notes

    @property
    def config_notes(self):
        """["configs differ: A …, B …"] where the rows' configs differ, else []."""
        # A vote is of its members' config.
        if len({c.removesuffix("-vote") for c in self.configs}) > 1:
            return [f"configs differ: A {self.configs[0]}, B {self.configs[1]}"]
        return []


def difference(store, table, a, b, metric, scales):
    """Δ = A − B of rows `a` and `b` (registered names) of `table` on `metric` (a mean over
    test units), at the first of `scales` where the records hold both rows.

    The config both rows ran with the most seeds in both (then the highest epoch cap), else
    per row the config with the most seeds (then the highest epoch cap), where the rows share
    no config or that gives the row with the fewest seeds more (`_compared_configs`); the
    units are those
    both rows were scored on in every seed; the interval is that of `statistics.compare_rows`.

    Args:
        store: the `RecordedPredictions` to read.
        table: the results table, e.g. "c-lstms-snli".
        a, b: registered row names of `table`.
        metric: e.g. "test_accuracy", "test_p@1", "dev_mismatched_accuracy".
        scales: scales in order of preference.

    Returns:
        A `Difference`, or None when no scale's records hold both rows.
    """
    split, column = predictions.split_and_column(metric)
    for scale in scales:
        lines = [store.lines(table, scale, row, split) for row in (a, b)]
        if any(rows.empty for rows in lines):
            continue
        lines = _compared_configs(*lines)
        terms = [_unit_scores(rows, column, row) for rows, row in zip(lines, (a, b))]
        units = _complete_units([scores for scores, _ in terms])
        vote = _is_vote_of(lines, a, b)
        trained = (lines[1], lines[1]) if vote else lines  # a vote ran its seeds' epochs
        if vote:
            comparison = _vote_comparison(lines[1], units, column, _positive(b, column))
        else:
            comparison = statistics.compare_rows(
                *(scores[units].to_numpy() for scores, _ in terms),
                denominators=_at_units([below for _, below in terms], units),
            )
        return Difference(
            comparison,
            scale,
            means=tuple(_row_metric(*pair) for pair in terms),
            seeds=tuple(_seed_count(rows) for rows in lines),
            epochs=tuple(_epochs(rows, name) for rows, name in zip(trained, (a, b))),
            configs=tuple(rows["config"].iloc[0] for rows in lines),
        )
    return None


def _is_vote_of(lines, a, b):
    """Whether row `a` is the majority vote of row `b`'s seeds under the same config."""
    vote, members = (rows["config"].iloc[0] for rows in lines)
    return (
        experiments.get(a).runs_of == b
        and experiments.get(a).ensemble_size > 0
        and vote == f"{members}-vote"
    )


def _unit_scores(lines, column, row):
    """(scores, denominators) of a row's lines, each a seed × uid frame (NaN where a seed has
    no prediction): the values of `column` and None, for a mean over units; for F1
    (`predictions.F1`), `statistics.unit_terms` of the predicted and gold labels against
    the positive label of `row`'s dataset."""
    if column != predictions.F1:
        if lines[column].isna().any():
            split = lines["split"].iloc[0]
            raise NotRecorded(
                f"{row}: its {split} records hold no {column}, which its runs did not write "
                f"(predictions/{split}_official.tsv); runs trained again record it"
            )
        return lines.pivot(index="seed", columns="uid", values=column), None
    predicted = lines.pivot(index="seed", columns="uid", values="predicted")
    gold = lines.groupby("uid")["gold"].first()[predicted.columns].to_numpy()
    positive = _positive(row, column)
    terms = statistics.unit_terms(predicted.to_numpy() == positive, gold == positive, True)
    return tuple(
        pd.DataFrame(values, predicted.index, predicted.columns).where(predicted.notna())
        for values in terms
    )


def _positive(row, column):
    """The label whose F1 `column` measures for registered row `row`; None for a mean."""
    if column != predictions.F1:
        return None
    dataset = get_dataset(experiments.get(row).dataset)
    return dataset.labels[dataset.positive_label]


def _complete_units(scores):
    """The uids that every seed of every row's score frame was scored on."""
    units = scores[0].columns
    for frame in scores[1:]:
        units = units.intersection(frame.columns)
    complete = np.logical_and.reduce([frame[units].notna().all().to_numpy() for frame in scores])
    return units[complete]


def _at_units(denominators, units):
    """The denominators' arrays at `units`, or None for means."""
    if denominators[0] is None:
        return None
    return [below[units].to_numpy() for below in denominators]


def _row_metric(scores, denominators):
    """A row's metric as its runs report it: the mean over seeds of each seed's metric."""
    below = scores.notna().sum(axis=1) if denominators is None else denominators.sum(axis=1)
    # An F1 with no positive label or prediction is 0, as `statistics.unit_terms` counts it.
    return (scores.sum(axis=1) / below).where(below > 0, 0.0).mean()


def _vote_comparison(members, units, column, positive=None):
    """vote − members of a majority vote and its member seeds' lines, the vote recomputed from
    the seeds drawn in each bootstrap replicate (`statistics.compare_vote`), on accuracy or on
    the F1 of label `positive` (`column`: "correct" or `predictions.F1`)."""
    if column not in predictions.LABEL_COLUMNS:
        # The vote is rebuilt from labels alone: it would measure accuracy under another name.
        raise ValueError(f"a vote is compared with its seeds on accuracy or F1, not {column}")
    predicted = members.pivot(index="seed", columns="uid", values="predicted")[units]
    gold = members.drop_duplicates("uid").set_index("uid")["gold"][units]
    labels = sorted(set(gold) | set(predicted.to_numpy().ravel()))
    code = {label: i for i, label in enumerate(labels)}
    return statistics.compare_vote(
        predicted.apply(lambda column: column.map(code)).to_numpy(),
        gold.map(code).to_numpy(),
        positive=None if positive is None else code[positive],
    )


def _seeds_to_go(claim, store, found):
    """ "not run" for a claim whose rows have fewer seeds than SEEDS under the config it reads,
    with the `training_plan` that completes them."""
    recorded = f"{found.seeds[0]} vs {found.seeds[1]} of {len(SEEDS)} seeds recorded"
    return _not_run(
        claim,
        store,
        found.scale,
        [recorded, *found.config_notes],
        sample=found.sample,
        epochs=f"A {found.epochs[0]}; B {found.epochs[1]}",
    )


def scale_that_scores(configs, split):
    """The scale a command that trains `configs` (registered rows) for `split` runs at:
    NOT_RUN_SCALE, or "full" where that scale does not score `split` (MultiNLI's dev-matched
    is the low-resource scale's training source)."""
    scaled = [apply_scale(c.replace(scale=NOT_RUN_SCALE)) for c in configs]
    if split in (None, "dev", "test") or all(split in c.extra_eval_splits for c in scaled):
        return NOT_RUN_SCALE
    return "full"


def command_scale(claim):
    """The scale that a "not run" claim's command trains at (`scale_that_scores`)."""
    split = (predictions.split_and_column(judged_metric(claim)) or (None,))[0]
    return scale_that_scores([c for c in claim.configs or () if c], split)


def _not_run(claim, store, at=None, said=(), **fields):
    """A "not run" `Outcome` of `claim` with the `training_plan` that lets it be judged at
    scale `at` (default `command_scale`): its command and hours, and what the records hold
    after what is `said`."""
    plan = training_plan(claim, store, at or command_scale(claim))
    note = "; ".join(filter(None, [*said, plan.note]))
    return Outcome(claim, "not run", note=note, command=plan.command, hours=plan.hours, **fields)


def judged_metric(claim):
    """The metric a claim is judged on: its own, or, where that is read on the split that
    selected the checkpoint, the same column on test."""
    split, _ = predictions.split_and_column(claim.metric) or (None, None)
    if split != verdicts.SELECTION_SPLIT:
        return claim.metric
    return "test" + claim.metric.removeprefix(split)


def _selection_split_not_run(claim, store, scales):
    """ "not run" for a claim on the checkpoint-selecting split whose rows have no test lines:
    the plan trains them to their registered schedule, recording test predictions."""
    split, _ = predictions.split_and_column(claim.metric)
    scale = next(s for s in scales if not store.lines(claim.table_id, s, claim.a, split).empty)
    plan = training_plan(claim, store, scale)
    return Outcome(
        claim,
        "not run",
        scale=scale,
        note=f"test predictions not recorded; the {split} split selected the checkpoint",
        command=plan.command,
        hours=plan.hours,
    )


def _schedules(store, scale, names, configs):
    """The `verdicts.Schedule` of the runs of each row `names[i]` under `configs[i]` that a
    claim reads at `scale` (a vote's: its members'); None for a row whose run set records no
    selected epochs."""
    schedules = []
    for name, config in zip(names, configs):
        registered = experiments.get(name)
        if config.endswith("-vote"):
            registered, config = experiments.get(registered.runs_of), config[: -len("-vote")]
        run_set = run_set_of(
            store.results_dir,
            experiments.table_id(registered),
            scale,
            registered.name,
            config,
        )
        schedules.append(verdicts.schedule(registered, run_set))
    return schedules


def _shortfalls_said(schedules):
    """Each row short of its schedule, in words: "A 4 of 5 seeds short by 1 epochs (...)"."""
    return [f"{row} {s.describe()}" for row, s in zip("ABCD", schedules) if s and any(s.shortfalls)]


def _measured(claim, result, **fields):
    """The `Outcome` of a bootstrap `result` (a `statistics.Comparison`): its verdict, estimate
    and interval, with the other `fields`."""
    reading = verdicts.reading(result.low, result.high, claim)
    return Outcome(claim, reading, result.estimate, result.low, result.high, **fields)


def _with_rules(claim, outcome, result, schedules, store, scale):
    """`outcome` (of a bootstrap `result` at `scale`) with what the rules of `verdicts.py`
    read: its one-sided p values, size label and Monte Carlo closeness to the tail, and the
    shortfall of its rows (`_undertrained`)."""
    outcome = dataclasses.replace(
        outcome,
        p=verdicts.p_value(result.replicates, claim),
        leaning_p=verdicts.leaning_p(result.replicates, claim),
        size=verdicts.size_label(claim, result.low, result.high),
        near_tail=verdicts.borderline(result.replicates, claim),
    )
    return _undertrained(claim, outcome, schedules, store, scale)


def _undertrained(claim, outcome, schedules, store, scale):
    """`outcome` marked short when a row has most seeds short of its schedule, with the
    `training_plan` that trains the claim's rows to their schedule."""
    if not any(s is not None and s.undertrained for s in schedules):
        return outcome
    plan = training_plan(claim, store, scale)
    return dataclasses.replace(
        outcome,
        short=True,
        note="; ".join(filter(None, [outcome.note, plan.note])),
        command=plan.command,
        hours=plan.hours,
    )


def assess_difference(claim, store, scales):
    metric = judged_metric(claim)
    found = difference(store, claim.table_id, claim.a, claim.b, metric, scales)
    recorded = any(
        not store.lines(claim.table_id, scale, claim.a, split).empty
        for scale in scales
        for split in [predictions.split_and_column(claim.metric)[0]]
    )
    if found is None and metric != claim.metric and recorded:
        return _selection_split_not_run(claim, store, scales)
    if found is None:
        return _not_run(claim, store)
    if any(n != "vote" and int(n) < len(SEEDS) for n in found.seeds):
        return _seeds_to_go(claim, store, found)
    result = found.comparison
    schedules = _schedules(store, found.scale, (claim.a, claim.b), found.configs)
    said = _shortfalls_said(schedules)
    outcome = _measured(
        claim,
        result,
        sample=found.sample,
        epochs=f"A {found.epochs[0]}; B {found.epochs[1]}",
        scale=found.scale,
        note="; ".join(found.notes + said),
        floor=_floor(store, claim, found, metric),
    )
    return _with_rules(claim, outcome, result, schedules, store, found.scale)


def _floor(store, claim, found, metric):
    """The `floor_check.FloorCheck` of a difference's rows on `metric`, and, where that is not
    its table's main metric (the first its rows compare: accuracy beside COIN's F1), the check
    on the main metric that "below floor" reads (`FloorCheck.judged`)."""
    check = floor_check.check(store.results_dir, claim.table_id, found.scale, metric, found.means)
    main = claim.registered.compare[0][1]
    if predictions.split_and_column(main) == predictions.split_and_column(metric):
        return check
    split, column = predictions.split_and_column(main)
    means = []
    for row, config in zip((claim.a, claim.b), found.configs):
        lines = store.lines(claim.table_id, found.scale, row, split)
        means.append(_row_metric(*_unit_scores(lines[lines["config"] == config], column, row)))
    judged = floor_check.check(store.results_dir, claim.table_id, found.scale, main, means)
    return dataclasses.replace(check, judged=judged)


def _bench_rates(results_dir, names):
    """(file, {name: record}) of the results/bench*.json that measured all `names` side by
    side over the most timed steps (the fewest of its rows'; the first file by name among
    equals); None when none did."""
    found = []
    for path in sorted(pathlib.Path(results_dir).glob("bench*.json")):
        results = json.loads(path.read_text("utf-8"))["results"]
        measured = {r["name"]: r for r in results if "error" not in r}
        if all(name in measured for name in names):
            found.append((path, measured))
    return max(
        found,
        key=lambda f: min(f[1][name].get("timed_steps_bucket", 0) for name in names),
        default=None,
    )


def assess_bench(claim, results_dir):
    """A training-time claim, judged on the paper's kind of device: from the whole-epoch
    records (`evidence/epoch_times.py`) or the step bench (`make bench`), whichever ran there,
    the epoch records first; a measurement on another kind of device is shown, not judged."""
    device = verdicts.PAPER_DEVICE[claim.metric]
    bench, bench_device = _bench_outcome(claim, results_dir)
    records = epoch_times.timing(results_dir, (claim.a, claim.b))
    timed = epoch_times.most_repeats(records, (claim.a, claim.b), device)
    others = [
        _shown_line(
            _epochs_outcome(claim, record),
            ANOTHER_RECORD
            if devices.device_class({"device": record.device}) == device
            else ANOTHER_DEVICE,
        )
        for record in records
        if record != timed
    ]
    if timed is not None:
        outcome = _epochs_outcome(claim, timed)
    elif bench_device == device:
        return dataclasses.replace(bench, also_measured="<br>".join(others))
    else:
        outcome = Outcome(
            claim,
            "not run",
            note=f"no record on a {device}, the paper's device",
            command="python experiments/epoch_times.py --jit_compile --padding=fixed "
            f"--epochs=5 --table={claim.table_id} --json=results/epoch-times-{device.lower()}.json",
        )
    if bench_device not in (None, device):
        others.append(_shown_line(bench, ANOTHER_DEVICE))
    return dataclasses.replace(outcome, also_measured="<br>".join(others))


def _epochs_outcome(claim, record):
    """A time claim's ratio of whole-epoch times from one `epoch_times.EpochTimes` record."""
    a, b = (record.seconds[name] for name in (claim.a, claim.b))
    return _ratio_outcome(
        claim,
        a,
        b,
        sample=f"{len(a)} vs {len(b)} epochs",
        scale=f"{record.path.name}: whole training epochs after the first, {record.device}",
    )


def _shown_line(outcome, why):
    """A time measurement shown beside a verdict and not judged, in words, with `why`
    (ANOTHER_DEVICE or ANOTHER_RECORD)."""
    return f"{outcome.scale}: {_ratio_text(outcome)}, {why}: not judged"


def _ratio_text(outcome):
    if outcome.low is None:
        return f"{outcome.estimate:.2f}× (no interval)"
    return f"{outcome.estimate:.2f}× [{outcome.low:.2f}×, {outcome.high:.2f}×]"


def _bench_outcome(claim, results_dir):
    """(the step bench's `Outcome` of a time claim, the kind of device it ran on); the device
    is None where no bench record timed both rows."""
    found = _bench_rates(results_dir, (claim.a, claim.b))
    if found is None:
        slugs = ",".join(name.rsplit("/", 1)[-1] for name in (claim.a, claim.b))
        command = "python experiments/bench.py " + shlex.join(
            [
                f"--tables={claim.table_id}",
                f"--rows={slugs}",
                f"--section={claim.table_id}",
                f"--json=results/bench-{claim.table_id}.json",
            ]
        )
        return Outcome(claim, "not run", command=command), None
    path, measured = found
    a, b = measured[claim.a], measured[claim.b]
    machine = a["environment"]
    device = devices.device_class(machine)
    sample = f"{a['timed_steps_bucket']} vs {b['timed_steps_bucket']} timed steps"
    scale = (
        f"{path.name}: training throughput, bucketed batches, {machine['cpu']} "
        f"({machine['cpu_count']} cores)"
    )
    if BENCH_STEP_SECONDS in a and BENCH_STEP_SECONDS in b:
        values = [_seconds_per_pair(record) for record in (a, b)]
        return _ratio_outcome(claim, *values, sample=sample, scale=scale), device
    ratio = b[BENCH_THROUGHPUT] / a[BENCH_THROUGHPUT]  # time per pair of A over that of B
    why = f"{path.name} keeps each row's mean throughput over its timed steps, not each step's time"
    outcome = Outcome(
        claim,
        "inconclusive",
        ratio,
        sample=sample,
        scale=scale,
        note=_no_interval(claim, ratio, why),
    )
    return outcome, device


def _seconds_per_pair(record):
    """Each timed step's seconds over the row's mean pairs per timed step: values whose mean is
    the row's time per pair (1 / its recorded throughput)."""
    seconds = np.asarray(record[BENCH_STEP_SECONDS])
    pairs_per_step = record[BENCH_THROUGHPUT] * seconds.sum() / len(seconds)
    return seconds / pairs_per_step


def _ratio_outcome(claim, values_a, values_b, sample, scale):
    """The ratio mean(values_a) / mean(values_b) with its bootstrap interval and verdict."""
    result = statistics.compare_ratio(values_a, values_b, expected=claim.expected)
    note = ""
    if min(len(values_a), len(values_b)) < FEW_REPEATS:
        note = f"under {FEW_REPEATS} timed steps in a row: the interval may be too narrow"
    return _measured(
        claim,
        result,
        sample=sample,
        scale=scale,
        note=note,
        p=verdicts.p_value(result.replicates, claim),
        leaning_p=verdicts.leaning_p(result.replicates, claim),
        size=verdicts.size_label(claim, result.low, result.high),
        near_tail=verdicts.borderline(result.replicates, claim),
    )


def _no_interval(claim, ratio, why):
    """The note of a ratio without an interval: why, and which side its value lies on."""
    side = (ratio > 1.0) == (claim.expected == "greater")
    return f"no interval: {why}; the ratio itself lies on the {'claimed' if side else 'other'} side"


def assess_latency(claim, results_dir):
    path = latency.record_path(results_dir)
    measured = latency.measured(results_dir)
    if claim.a not in measured or claim.b not in measured:
        return Outcome(claim, "not run", command="make latency")
    a, b = measured[claim.a], measured[claim.b]
    sample = f"{a['batches']} vs {b['batches']} batches"
    device = devices.device_class(latency.environment(results_dir))
    scale = f"{path.name}: {device} inference, batches of 8 pairs"
    if device != verdicts.PAPER_DEVICE[claim.metric]:
        ratio = a["mean"] / b["mean"]
        return Outcome(
            claim,
            "not run",
            note=f"no record on a {verdicts.PAPER_DEVICE[claim.metric]}, the paper's device",
            command="make latency",
            also_measured=f"{scale}: {ratio:.2f}×, {ANOTHER_DEVICE}: not judged",
        )
    if LATENCY_SECONDS in a and LATENCY_SECONDS in b:
        return _ratio_outcome(
            claim, a[LATENCY_SECONDS], b[LATENCY_SECONDS], sample=sample, scale=scale
        )
    return Outcome(
        claim,
        "inconclusive",
        a["mean"] / b["mean"],
        sample=sample,
        scale=scale,
        note=_no_interval(
            claim,
            a["mean"] / b["mean"],
            f"{path.name} keeps each model's mean and standard deviation (A "
            f"{a['std'] / a['mean']:.0%}, B {b['std'] / b['mean']:.0%} of the mean), not each "
            "batch's time",
        ),
    )


def assess_cited(claim):
    """A claim against a row the paper cites (from other work, or from a footnote): nothing of
    ours to set against it, so no measurement; the note gives the paper's value of that row
    (the report's preamble says what such rows are)."""
    ((name, value),) = claim.cited
    shown = param_counts.printed(value) if claim.metric == "params" else f"{100 * value:.2f}"
    return Outcome(claim, "", note=f"{name}: {shown} in the paper")


def assess_params(claim):
    """The ratio of the rows' parameter counts, each counted on its built model by its
    table's convention (`param_counts.row_count`): exact numbers, so no interval."""
    counts = [param_counts.row_count(config) for config in claim.configs]
    ratio = counts[0] / counts[1]
    differ = [
        f"{label}: {said}"
        for label, config, count in zip("AB", claim.configs, counts)
        if (said := param_counts.mismatch(config, count))
    ]
    return Outcome(
        claim,
        verdicts.count_reading(ratio, claim),
        ratio,
        size=verdicts.size_label(claim, ratio, ratio),
        sample=f"{counts[0]:,} vs {counts[1]:,} parameters",
        scale="the built models at the registered widths (param_counts.py)",
        note="; ".join(["exact counts", *differ]),
    )


def _majority_lines(results_dir, table, scale, split):
    """The floor record's majority-class predictions on `split` as the record lines of one
    seed (0); None without a record."""
    path = floor.predictions_path(results_dir, table, scale)
    if not path.exists():
        return None
    lines = pd.read_csv(path, dtype=str, keep_default_na=False)
    lines = lines[lines["split"] == split].rename(columns={"majority": "predicted"})
    return lines.assign(seed=0, correct=(lines["predicted"] == lines["gold"]).astype(int))


def assess_floor(claim, store, scales):
    """Row A against its table's majority class (B), at the first of `scales` whose records
    hold A and the floor's predictions: `statistics.compare_rows` with B one fixed prediction,
    so the interval holds A's seeds and the test set."""
    split, column = predictions.split_and_column(claim.metric)
    for scale in scales:
        lines = store.lines(claim.table_id, scale, claim.a, split)
        majority = _majority_lines(store.results_dir, claim.table_id, scale, split)
        if lines.empty or majority is None:
            continue
        lines = _one_config(lines)
        epochs = f"A {_epochs(lines, claim.a)}; B no training"
        if lines["seed"].nunique() < len(SEEDS):
            return _not_run(claim, store, scale, epochs=epochs, scale=scale)
        terms = [_unit_scores(rows, column, claim.a) for rows in (lines, majority)]
        units = _complete_units([scores for scores, _ in terms])
        result = statistics.compare_rows(
            *(scores[units].to_numpy() for scores, _ in terms),
            claim.expected,
            denominators=_at_units([below for _, below in terms], units),
        )
        outcome = _measured(
            claim,
            result,
            sample=f"{lines['seed'].nunique()} seeds vs one fixed prediction, {len(units)} units",
            epochs=epochs,
            scale=scale,
            note="B is the floor record's majority class: no seeds to resample",
        )
        schedules = _schedules(store, scale, [claim.a], [lines["config"].iloc[0]])
        return _with_rules(claim, outcome, result, schedules, store, scale)
    return _not_run(claim, store)


def _contrast_lines(store, claim, scale, split):
    """Each row's lines under the configs `_compared_configs` picks for the four; None when a
    row has none."""
    lines = [store.lines(claim.table_id, scale, row, split) for row in claim.rows]
    if any(rows.empty for rows in lines):
        return None
    return _compared_configs(*lines)


def assess_contrast(claim, store, scales):
    """(A − B) − (C − D) of four rows' metric at the first of `scales` where the records hold
    all four: `statistics.compare_contrast` over the units all four were scored on in every
    seed, with the verdict rule of a difference."""
    split, column = predictions.split_and_column(claim.metric)
    for scale in scales:
        lines = _contrast_lines(store, claim, scale, split)
        if lines is None:
            continue
        epochs = "; ".join(
            f"{label} {_epochs(rows, row)}" for label, rows, row in zip("ABCD", lines, claim.rows)
        )
        configs = sorted({rows["config"].iloc[0] for rows in lines})
        notes = [f"configs differ: {', '.join(configs)}"] if len(configs) > 1 else []
        short = [r for r, rows in zip(claim.rows, lines) if rows["seed"].nunique() < len(SEEDS)]
        if short:
            said = [f"{len(short)} rows short of {len(SEEDS)} seeds", *notes]
            return _not_run(claim, store, scale, said, epochs=epochs, scale=scale)
        terms = [_unit_scores(rows, column, row) for rows, row in zip(lines, claim.rows)]
        units = _complete_units([scores for scores, _ in terms])
        result = statistics.compare_contrast(
            [scores[units].to_numpy() for scores, _ in terms],
            [1.0, -1.0, -1.0, 1.0],
            claim.expected,
            denominators=_at_units([below for _, below in terms], units),
        )
        seeds = " vs ".join(str(rows["seed"].nunique()) for rows in lines)
        schedules = _schedules(store, scale, claim.rows, [r["config"].iloc[0] for r in lines])
        outcome = _measured(
            claim,
            result,
            sample=f"{seeds} seeds, {len(units)} units",
            epochs=epochs,
            scale=scale,
            note="; ".join(filter(None, [result.note, *notes, *_shortfalls_said(schedules)])),
        )
        return _with_rules(claim, outcome, result, schedules, store, scale)
    return _not_run(claim, store)


def missing_data(claim, data_dir):
    """The dataset splits the rows of `claim` read at its `command_scale` (bench reads the same
    files) that have no file under `data_dir`: "multinli (dev_matched, train)"; "" when
    all are there or the claim reads no data (latency). Only splits are checked, not vectors
    or other resources (a missing one of those stops the run itself, naming it).

    Args:
        claim: a `Claim`.
        data_dir: the data folder, as the reader should see it named.
    """
    if claim.configs is None:
        return ""
    needed = splits_read(c.replace(scale=command_scale(claim)) for c in claim.configs if c)
    missing = []
    for dataset, splits in needed.items():
        present = available_splits(dataset, data_dir)
        absent = [split for split in splits if split not in present]
        if absent:
            missing.append(f"{dataset} ({', '.join(absent)})")
    return "; ".join(missing)


def assess(claims, results_dir, scales=("full", "low-resource"), data_dir=None):
    """The `Outcome` of every claim.

    Args:
        claims: the `Claim`s.
        results_dir: the folder of the committed records.
        scales: scales in order of preference.
        data_dir: when given, each "not run" outcome names the splits its rows lack there,
            and its command reads that folder.
    """
    store = RecordedPredictions(results_dir)
    outcomes = []
    for claim in claims:
        try:
            outcome = _assess_one(claim, store, scales)
        except NotRecorded as missing:
            outcome = Outcome(claim, verdicts.NOT_RUN, note=str(missing))
        if data_dir is not None and outcome.reading == verdicts.NOT_RUN:
            outcome = dataclasses.replace(outcome, missing_data=missing_data(claim, data_dir))
        if data_dir is not None and outcome.command.startswith("python experiments/"):
            outcome = dataclasses.replace(
                outcome, command=f"{outcome.command} {shlex.quote(f'--data_dir={data_dir}')}"
            )
        outcomes.append(outcome)
    return [dataclasses.replace(o, verdict=verdicts.decide(o)) for o in with_holm(outcomes)]


def _assess_one(claim, store, scales):
    """The `Outcome` of one claim, by its kind."""
    if claim.cited:
        return assess_cited(claim)
    if claim.metric == "params":
        return assess_params(claim)
    if claim.metric == "seconds_per_batch":
        return assess_latency(claim, store.results_dir)
    if claim.metric == "seconds_per_epoch":
        return assess_bench(claim, store.results_dir)
    if claim.c is not None:
        return assess_contrast(claim, store, scales)
    if claim.floor is not None:
        return assess_floor(claim, store, scales)
    return assess_difference(claim, store, scales)


def with_holm(outcomes):
    """`outcomes` with the Holm-adjusted p (`verdicts.holm`) of the side each leans to, for
    those that have a p: the family is the report's tested claims."""
    tested = [i for i, o in enumerate(outcomes) if o.p is not None]
    adjusted = dict(zip(tested, verdicts.holm([outcomes[i].leaning_p for i in tested])))
    return [
        dataclasses.replace(o, holm_p=adjusted[i]) if i in adjusted else o
        for i, o in enumerate(outcomes)
    ]


def counts(outcomes):
    """{verdict: number of outcomes}, every verdict present."""
    found = dict.fromkeys(verdicts.VERDICTS, 0)
    for outcome in outcomes:
        found[outcome.verdict] += 1
    return found
