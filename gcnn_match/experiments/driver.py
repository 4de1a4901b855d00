"""Trains the planned runs that have not finished: the loop of `experiments/reproduce.py`, which
`experiments/curves.py` shares.

Finished runs (a run directory with metrics.json) are skipped and interrupted ones resume
(`training/loop.py`); before training, a throughput probe prints an upper bound of the
duration, and after each trained run the time left is re-estimated from the measured ones.
"""

import functools
import time

from gcnn_match.experiments import planning
from gcnn_match.progress import RemainingTime
from gcnn_match.training.loop import probe_seconds_per_step, run_experiment


def train_pending(planned, data_dir, cache_dir, estimate=True, label="reproduce"):
    """Trains the runs of `planned` ((config, run directory) pairs, `planning.plan`) that have
    not finished.

    Args:
        planned: the runs, in training order.
        data_dir, cache_dir: the data folder and the tokenization and embedding cache.
        estimate: probe throughput and print the expected duration first.
        label: the script's name in the closing line.

    Raises:
        MissingDataError, ReaderError: a file the pending runs read is missing, cut or malformed
            (`planning.ensure_data`; found before any data is prepared), or a line of a split
            is malformed; the message names the file and the fix, and the scripts' `cli.run`
            ends in it.
    """
    pending = planning.pending(planned)
    planning.ensure_data(pending, data_dir)
    if estimate and pending:
        probe = functools.partial(probe_seconds_per_step, data_dir=data_dir, cache_dir=cache_dir)
        print(planning.estimate(pending, probe), flush=True)
    start = time.time()
    remaining = RemainingTime(len(pending))
    for config, run_dir in planned:
        print(f"== {config.name} (seed {config.seed}, {config.scale}) -> {run_dir}", flush=True)
        trained = not (run_dir / "metrics.json").exists()
        run_start = time.time()
        run_experiment(config, run_dir, data_dir, cache_dir)
        if trained:
            print(remaining.finished(time.time() - run_start), flush=True)
    print(f"{label}: {(time.time() - start) / 60:.1f} min")
