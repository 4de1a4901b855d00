"""What a claim not yet judged needs: the command that trains its rows to their registered
schedule, its hours, and, given a data folder, the dataset splits its rows would read that are
absent there (those claims wait for data, not only for compute).
"""

import dataclasses
import shlex
from typing import Optional

from gcnn_match.claims import verdicts
from gcnn_match.claims.outcome import SEEDS, Outcome
from gcnn_match.data.experiment_data import apply_scale
from gcnn_match.data.registry import available_splits
from gcnn_match.evidence import predictions, runs
from gcnn_match.experiments import registry as experiments
from gcnn_match.experiments.planning import splits_read

NOT_RUN_SCALE = "low-resource"  # the scale the "not run" commands train at


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


def not_run(claim, store, at=None, said=(), **fields):
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
