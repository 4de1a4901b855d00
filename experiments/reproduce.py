"""Runs the registered rows of a paper table and writes the paper-vs-ours table.

    python experiments/reproduce.py --dataset=quora --scale=low-resource --data_dir=../shared/data
    python experiments/reproduce.py --list

Finished runs are skipped (a run directory with metrics.json), interrupted ones resume. Before
training, a throughput probe prints an upper bound of the duration; after each trained run, the
time left is re-estimated from the measured durations. The table goes into REPRODUCTION.md (a
marked section per table and scale) and results/*.json. `--epochs=N` and `--override key=value`
(as in train.py) apply to every row; the plan itself is gcnn_match/experiments/planning.py.
"""

import functools
import pathlib
import shlex
import sys
import time

from absl import app, flags

from gcnn_match import cli
from gcnn_match.data.experiment_data import check_epochs_for_scale
from gcnn_match.data.registry import MissingDataError
from gcnn_match.experiments import overrides, param_counts, planning, registry
from gcnn_match.progress import RemainingTime
from gcnn_match.reporting import tables
from gcnn_match.training.loop import probe_seconds_per_step, run_experiment
from gcnn_match.training.run_dir import read_json

SHORTHANDS = ("epochs",)  # of overrides.SHORTHANDS; the scale and seeds are the plan's own

FLAGS = flags.FLAGS
flags.DEFINE_string("table", None, "Table id, e.g. gcnn-quora (see --list).")
flags.DEFINE_string("dataset", None, "Run every registered row on this dataset.")
flags.DEFINE_string("paper", None, "Restrict to one paper (GCNN, ATTCONV, CLSTM, COIN).")
flags.DEFINE_list("rows", [], "Restrict to these rows (names as printed, or slugs).")
flags.DEFINE_enum("scale", "low-resource", ["full", "low-resource", "smoke"], "Protocol.")
flags.DEFINE_list("seeds", ["1"], "Seeds to run for every row.")
flags.DEFINE_string("data_dir", "data", "Dataset and embeddings folder (a local mirror).")
flags.DEFINE_string("runs_dir", "runs", "Where run directories are created.")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_string("report", "REPRODUCTION.md", "Markdown file that receives the table.")
flags.DEFINE_string("results_dir", "results", "Folder for the JSON records of the tables.")
flags.DEFINE_bool("list", False, "Print every registered row with its paper target and exit.")
flags.DEFINE_bool("report_only", False, "Only render the table from finished runs.")
flags.DEFINE_bool("estimate", True, "Probe throughput and print the expected duration first.")
overrides.define_flags(SHORTHANDS)  # --epochs and --override, applied to every row
flags.adopt_module_key_flags(overrides)


def _list():
    for config in registry.select():
        targets = ", ".join(f"{k}={v:g}" for k, v in config.targets.items())
        print(
            f"{registry.table_id(config):16s} {config.name:40s} {config.table:8s} "
            f"{config.row!r:28s} {targets}"
        )


def _train(planned, pending):
    """Trains the pending runs of `planned` (finished ones are skipped, interrupted ones
    resume), with the duration estimated up front and after each run."""
    try:
        planning.ensure_data(pending, FLAGS.data_dir)
    except MissingDataError as error:
        raise SystemExit(f"error: {error}") from None
    if FLAGS.estimate and pending:
        probe = functools.partial(
            probe_seconds_per_step, data_dir=FLAGS.data_dir, cache_dir=FLAGS.cache_dir
        )
        print(planning.estimate(pending, FLAGS.scale, probe), flush=True)
    start = time.time()
    remaining = RemainingTime(len(pending))
    for config, run_dir in planned:
        print(f"== {config.name} (seed {config.seed}, {config.scale}) -> {run_dir}", flush=True)
        trained = not (run_dir / "metrics.json").exists()
        run_start = time.time()
        run_experiment(config, run_dir, FLAGS.data_dir, FLAGS.cache_dir)
        if trained:
            print(remaining.finished(time.time() - run_start), flush=True)
    print(f"reproduce: {(time.time() - start) / 60:.1f} min")


def main(argv):
    del argv
    if FLAGS.list:
        _list()
        return
    configs = registry.select(
        table=FLAGS.table, dataset=FLAGS.dataset, paper=FLAGS.paper, rows=FLAGS.rows
    )
    if not configs:
        raise app.UsageError("no registered rows match; see --list")
    seeds = [int(s) for s in FLAGS.seeds]
    try:
        changes = overrides.overrides_from_flags(SHORTHANDS)
        check_epochs_for_scale(FLAGS.scale, dict(changes).get("epochs"))
        planned = planning.plan(configs, seeds, FLAGS.scale, FLAGS.runs_dir, changes)
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    if not FLAGS.report_only:
        _train(planned, planning.pending(planned))
    # The table lists, besides this command, the command line that trained each of its runs.
    command = "python experiments/reproduce.py " + shlex.join(
        a for a in sys.argv[1:] if a != "--noestimate"
    )
    for table in dict.fromkeys(registry.table_id(c) for c in configs):
        # The whole table is rendered, so rows restricted away by --rows show as "not run"
        # instead of disappearing from the report.
        table_configs = registry.select(table=table)
        run_dirs = {
            c.name: planning.run_dirs(c, seeds, FLAGS.scale, FLAGS.runs_dir, changes)
            for c in table_configs
        }
        record = pathlib.Path(FLAGS.results_dir) / f"{table}-{FLAGS.scale}.json"
        rows = tables.keep_earlier_results(
            tables.collect(table_configs, run_dirs), read_json(record, [])
        )
        first = table_configs[0]
        title = f"{first.paper} {first.table}: {first.dataset} ({FLAGS.scale})"
        markdown = tables.render_markdown(rows, title=title, command=command)
        markdown += tables.render_time_ratios(rows, registry.time_ratios(table))
        markdown += param_counts.render_markdown(table)
        print(markdown)
        tables.update_section(pathlib.Path(FLAGS.report), f"{table}:{FLAGS.scale}", markdown)
        tables.write_json(record, rows)


if __name__ == "__main__":
    cli.run(main)
