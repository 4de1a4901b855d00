"""Which runs a reproduction needs: the run directories of registered rows at one scale and
seeds, what is left to train, the data that needs, and an upper bound of how long it takes.

With `dataset` (a DatasetSpec of your own), every row is a template run on it
(`own_data.on_dataset`), the rows whose runs it reports included."""

import dataclasses

from gcnn_match.config.overrides import OverrideError, apply_overrides, default_run_dir
from gcnn_match.data.download import ensure_dataset
from gcnn_match.data.experiment_data import apply_scale, check_files, split_names
from gcnn_match.experiments import own_data, registry
from gcnn_match.progress import format_duration

# Fields the plan sets per run, and the reproduce.py flags that choose them.
PLANNED_FIELDS = {"scale": "--scale", "seed": "--seeds"}


def planned_runs(registered, seeds, scale, runs_dir, changes=(), dataset=None):
    """(config, run directory) for each seed of a registered row at `scale`, with `changes`
    ((dotted key, value) overrides) applied to each; ValueError for a scale the row's dataset
    cannot run (the full scale of a dataset without a train split). A row that reports another
    row's runs plans those (seeds 1..n for an n-run vote)."""
    if registered.runs_of:
        if registered.ensemble_size:
            seeds = range(1, registered.ensemble_size + 1)
        reported = registry.get(registered.runs_of)
        return planned_runs(reported, seeds, scale, runs_dir, changes, dataset)
    registered = _as_run(trained_by(registered, dataset), dataset)
    for key, _ in changes:
        if key in PLANNED_FIELDS:
            raise OverrideError(f"--override: choose the {key} with {PLANNED_FIELDS[key]}")
    planned = []
    for seed in seeds:
        config = apply_overrides(registered.replace(scale=scale, seed=seed), changes)
        if dataset is None:  # (the scales of yours are own_data.check_scale's)
            apply_scale(config)  # refuses, before anything runs, a scale without its splits
        planned.append((config, default_run_dir(runs_dir, registered, config)))
    return planned


def _as_run(registered, dataset):
    """Registered row `registered` as it runs: as registered, or on your `dataset`."""
    return registered if dataset is None else own_data.on_dataset(registered, dataset)


def trained_by(registered, dataset=None):
    """The row whose runs `registered` reports: the first registered row that trains exactly
    what it would (on `dataset` when given), itself when no earlier row does. Two tables that
    print one configuration (GCNN's Table 1 rows on MultiNLI and on SNLI, both run on a dataset
    of yours) so share its runs."""
    mine = _as_run(registered, dataset)
    for other in registry.select():
        if other.name == registered.name:
            break
        if other.runs_of:
            continue
        try:
            theirs = _as_run(other, dataset)
        except ValueError:  # a row that cannot run on `dataset`
            continue
        if theirs.trains_like(mine):
            return other
    return registered


def run_dirs(registered, seeds, scale, runs_dir, changes=(), dataset=None):
    """The run directories whose results a row reports."""
    return [d for _, d in planned_runs(registered, seeds, scale, runs_dir, changes, dataset)]


def plan(configs, seeds, scale, runs_dir, changes=(), dataset=None):
    """The runs of all `configs`, each once: rows sharing runs (votes, aliases, rows of two
    tables that train alike: `trained_by`) train them once."""
    by_dir = {
        d: (c, d)
        for registered in configs
        for c, d in planned_runs(registered, seeds, scale, runs_dir, changes, dataset)
    }
    return list(by_dir.values())


def reported_together(configs, seeds, scale, runs_dir, changes=(), dataset=None):
    """The run directories that a vote or another row of `configs` reports (`runs_of`): the
    runs that must be on one machine together."""
    return {
        d
        for c in configs
        if c.runs_of
        for d in run_dirs(c, seeds, scale, runs_dir, changes, dataset)
    }


def table_runs(table, seeds, scale, runs_dir, changes=(), dataset=None):
    """(the registered rows of the whole table `table`, the same as its report shows them,
    {shown row's name: the run directories it reports}); on your `dataset`, the rows that can
    run on it, shown as templates. The whole table, so that rows a --rows selection left out
    show as not run."""
    registered = registry.select(table=table)
    shown = registered
    if dataset is not None:
        registered = own_data.usable_rows(registered, dataset, log=lambda _: None)
        shown = [own_data.on_dataset(c, dataset) for c in registered]
    dirs = {
        row.name: run_dirs(c, seeds, scale, runs_dir, changes, dataset)
        for c, row in zip(registered, shown)
    }
    return registered, shown, dirs


def pending(planned):
    """The configs of planned runs that have not finished (no metrics.json)."""
    return [c for c, d in planned if not (d / "metrics.json").exists()]


def splits_read(configs):
    """{dataset: sorted split names} that `configs` (each with its scale) read once scaled:
    train, dev, test and the extra evaluation splits; a held-out dev part has no file."""
    needed = {}
    for config in configs:
        needed.setdefault(config.dataset, set()).update(split_names(apply_scale(config)))
    return {dataset: sorted(splits) for dataset, splits in needed.items()}


def ensure_data(pending_configs, data_dir):
    """Finds (or downloads, where a URL exists) every split the pending runs read and opens
    every file they read (`check_files`), before any training starts; a missing, cut or
    malformed file stops here (MissingDataError, ReaderError)."""
    for dataset, splits in splits_read(pending_configs).items():
        ensure_dataset(dataset, data_dir, splits)
    for config in pending_configs:
        check_files(apply_scale(config), data_dir)


@dataclasses.dataclass(frozen=True)
class DurationEstimate:
    """Throughput of one pending run's first steps, extrapolated to all pending runs."""

    timed: str
    seconds_per_step: float
    steps_per_epoch: int
    epochs: int
    runs: int

    @property
    def total_seconds(self):
        return self.seconds_per_step * self.steps_per_epoch * self.epochs * self.runs

    def __str__(self):
        return (
            f"throughput ({self.timed}, its first steps): {self.seconds_per_step:.2f} s/step, "
            f"{self.steps_per_epoch} steps/epoch; at most ~{format_duration(self.total_seconds)} "
            f"for {self.runs} runs x {self.epochs} epochs (early stopping usually ends sooner; "
            "other rows differ in cost)"
        )


def estimate(pending_configs, timed, seconds_per_step, steps_per_epoch):
    """An upper bound of the duration of the pending (planned, so scaled) runs, from the
    throughput of the run named `timed` (`gcnn_match.training.step_timer.StepTimer`)."""
    epochs = max(apply_scale(c).epochs for c in pending_configs)
    return DurationEstimate(timed, seconds_per_step, steps_per_epoch, epochs, len(pending_configs))
