"""Trains the planned runs that have not finished: the loop of `experiments/reproduce.py`, which
`experiments/curves.py` shares.

Finished runs (a run directory with metrics.json) are skipped and interrupted ones resume
(`training/loop.py`). The expected duration (an upper bound) is printed once the first run
that trains has timed its first steps (`training/step_timer.py`: 3 warm-up steps, then 6
timed), extrapolated to every pending run; after each trained run the time left is
re-estimated from the measured durations.

The throughput comes from the run's own steps, so the data is prepared and the model built
once per run and a resumed run times the steps it trains anyway. It is measured here, on this
machine and with this code: the epoch times that results/ records were measured on other
machines, and exist only for rows already trained, so they are not used for the estimate.
"""

import time

from gcnn_match.experiments import planning
from gcnn_match.progress import RemainingTime
from gcnn_match.training.loop import run_experiment


def train_pending(planned, data_dir, cache_dir, estimate=True, label="reproduce"):
    """Trains the runs of `planned` ((config, run directory) pairs, `planning.plan`) that have
    not finished.

    Args:
        planned: the runs, in training order.
        data_dir, cache_dir: the data folder and the tokenization and embedding cache.
        estimate: print the expected duration, from the first training run's first steps.
        label: the script's name in the closing line.

    Raises:
        MissingDataError, ReaderError: a file the pending runs read is missing, cut or malformed
            (`planning.ensure_data`; found before any data is prepared), or a line of a split
            is malformed; the message names the file and the fix, and the scripts' `cli.run`
            ends in it.
    """
    pending = planning.pending(planned)
    planning.ensure_data(pending, data_dir)
    printer = _EstimatePrinter(pending) if estimate and pending else None
    start = time.time()
    remaining = RemainingTime(len(pending))
    for config, run_dir in planned:
        print(f"== {config.name} (seed {config.seed}, {config.scale}) -> {run_dir}", flush=True)
        trained = not (run_dir / "metrics.json").exists()
        run_start = time.time()
        timed = None if printer is None else printer.for_run(config.name)
        run_experiment(config, run_dir, data_dir, cache_dir, on_throughput=timed)
        if trained:
            print(remaining.finished(time.time() - run_start), flush=True)
    print(f"{label}: {(time.time() - start) / 60:.1f} min")


class _EstimatePrinter:
    """Prints the expected duration of the `pending` runs once, from the first run that
    reports its throughput (`run_experiment`'s `on_throughput`)."""

    def __init__(self, pending):
        self.pending = pending
        self.printed = False

    def for_run(self, name):
        """The `on_throughput` of run `name`: None once the estimate is printed."""
        if self.printed:
            return None
        return lambda seconds, steps: self._print(name, seconds, steps)

    def _print(self, name, seconds_per_step, steps_per_epoch):
        self.printed = True
        estimate = planning.estimate(self.pending, name, seconds_per_step, steps_per_epoch)
        print(estimate, flush=True)
