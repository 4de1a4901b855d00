"""Runs the registered rows of a paper table and writes the paper-vs-ours table; or runs them on
a dataset of your own and writes the same table, ours only.

    python experiments/reproduce.py --dataset=quora --scale=low-resource --data_dir=../shared/data
    python experiments/reproduce.py --list
    python experiments/reproduce.py --dataset_file=mine.json --paper=GCNN   # runs/mine/REPORT.md

Finished runs are skipped (a run directory with metrics.json; with --skip_recorded, also a seed
the table's JSON record keeps whose run directory is gone, so the seeds of a row can be trained
on several machines), interrupted ones resume. Once the
first run that trains has timed its first steps, an upper bound of the duration is printed
(gcnn_match/experiments/driver.py); after each trained run, the time left is re-estimated from
the measured durations. The table goes into REPRODUCTION.md (a
marked section per table and scale) and results/*.json, the finished runs' per-example
predictions into results/predictions/<table>-<scale>.csv.gz (what `make claims` reads).
`--epochs=N` and `--override key=value` (as in train.py) apply to every row; the plan itself is
gcnn_match/experiments/planning.py, the tables' rendering gcnn_match/reporting/reproduction.py.

With `--dataset_file` (written by `train.py --write_dataset_file`), every selected row is a
template trained on your data (`gcnn_match/experiments/own_data.py`; rows of another task, or
that read FEVER's evidence contexts, are skipped with the reason) at the full scale: your
training file, selection on your dev file (or a held-out part of the training file), your test
file. The tables go to `<runs_dir>/<dataset>/REPORT.md` and their JSON records beside it.
"""

import pathlib
import shlex
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.baselines import floor
from gcnn_match.config import overrides
from gcnn_match.data.experiment_data import apply_scale, check_epochs_for_scale
from gcnn_match.data.registry import MissingDataError
from gcnn_match.experiments import driver, own_data, planning, registry
from gcnn_match.reporting import reproduction

SHORTHANDS = ("epochs",)  # of overrides.SHORTHANDS; the scale and seeds are the plan's own

FLAGS = flags.FLAGS
flags.DEFINE_string("table", None, "Table id, e.g. gcnn-quora (see --list).")
flags.DEFINE_string("dataset", None, "Run every registered row on this dataset.")
flags.DEFINE_string("paper", None, "Restrict to one paper (GCNN, ATTCONV, C-LSTMs, COIN).")
flags.DEFINE_list("rows", [], "Restrict to these rows (names as printed, or slugs).")
flags.DEFINE_string(
    "dataset_file",
    None,
    "Run the selected rows on your dataset, described by this file (train.py "
    "--write_dataset_file), instead of the papers'.",
)
flags.DEFINE_enum(
    "scale",
    None,
    ["full", "low-resource", "smoke"],
    "Protocol (default: low-resource; full with --dataset_file).",
)
flags.DEFINE_list("seeds", ["1"], "Seeds to run for every row.")
flags.DEFINE_string("data_dir", "data", "Dataset and embeddings folder (a local mirror).")
flags.DEFINE_string("runs_dir", "runs", "Where run directories are created.")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_string(
    "report",
    None,
    "Markdown file that receives the table (default: REPRODUCTION.md; with --dataset_file, "
    "<runs_dir>/<dataset>/REPORT.md).",
)
flags.DEFINE_string(
    "results_dir",
    None,
    "Folder for the JSON records of the tables (default: results; with --dataset_file, the "
    "report's folder).",
)
flags.DEFINE_bool("list", False, "Print every registered row with its paper target and exit.")
flags.DEFINE_bool("report_only", False, "Only render the table from finished runs.")
flags.DEFINE_bool(
    "estimate", True, "Print the expected duration, timed on the first run's first steps."
)
flags.DEFINE_bool(
    "skip_recorded",
    False,
    "Skip the runs without a run directory whose results the table's JSON record already "
    "keeps per seed, to finish a table whose other seeds ran on another machine; by default "
    "every run without a finished run directory trains.",
)
overrides.define_flags(SHORTHANDS)  # --epochs and --override, applied to every row
flags.adopt_module_key_flags(overrides)


def _list():
    for config in registry.select():
        targets = ", ".join(f"{k}={v:g}" for k, v in config.targets.items())
        print(
            f"{registry.table_id(config):16s} {config.name:40s} {config.table:8s} "
            f"{config.row!r:28s} {targets}"
        )


def _own_dataset():
    """Your dataset (--dataset_file), or None for the papers' own."""
    if not FLAGS.dataset_file:
        return None
    try:
        return own_data.load_dataset_file(FLAGS.dataset_file)
    except ValueError as error:
        raise app.UsageError(str(error)) from None


def _outputs(dataset):
    """Where the tables go: the scale, the report file, the folder of the JSON records, and the
    command line the tables name (besides it, they list the command that trained each run)."""
    command = "python experiments/reproduce.py " + shlex.join(
        a for a in sys.argv[1:] if a not in ("--estimate", "--noestimate")
    )
    if dataset is None:
        report = FLAGS.report or "REPRODUCTION.md"
        scale = FLAGS.scale or "low-resource"
        return reproduction.Outputs(scale, report, FLAGS.results_dir or "results", command)
    scale = FLAGS.scale or "full"
    try:
        own_data.check_scale(scale, dataset)
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    default = pathlib.Path(FLAGS.runs_dir) / dataset.name / "REPORT.md"
    report = pathlib.Path(FLAGS.report or default)
    if report.name == "REPRODUCTION.md":
        raise app.UsageError(
            "--report: REPRODUCTION.md holds the papers' reproduction; leave --report out "
            f"({default}) or name another file"
        )
    return reproduction.Outputs(scale, report, FLAGS.results_dir or report.parent, command)


def _own_floor(config, outputs):
    """The floor of your dataset's splits (`config`: a planned run on them), computed now and
    written beside the report; None, with the reason printed, when it cannot be."""
    try:
        record, predictions = floor.compute(apply_scale(config), FLAGS.data_dir)
    except (MissingDataError, ValueError) as error:
        print(f"floor not computed: {error}")
        return None
    return floor.write(outputs.results_dir, config.dataset, record, predictions, outputs.command)


def _selected_rows(dataset):
    """The registered rows the selection flags name (on your `dataset`: those that can run)."""
    unknown = [row for row in FLAGS.rows if not registry.select(rows=[row])]
    if unknown:
        raise app.UsageError(f"--rows: no registered row is named {unknown[0]!r}; see --list")
    configs = registry.select(
        table=FLAGS.table, dataset=FLAGS.dataset, paper=FLAGS.paper, rows=FLAGS.rows
    )
    if not configs:
        raise app.UsageError(_no_rows())
    if dataset is not None:
        configs = own_data.usable_rows(configs, dataset)
        if not configs:
            raise app.UsageError(f"none of the selected rows can run on {dataset.name}")
    return configs


def _train(configs, planned, plan_args, outputs):
    """Trains the planned runs that have neither finished nor (with --skip_recorded) a result
    their table's record keeps."""
    to_train, skipped = planned, ""
    if FLAGS.skip_recorded:
        together = planning.reported_together(configs, *plan_args)
        to_train, skipped = reproduction.not_recorded(planned, outputs, together)
    if skipped:
        print(skipped, flush=True)
    driver.train_pending(to_train, FLAGS.data_dir, FLAGS.cache_dir, FLAGS.estimate)
    if skipped:
        print(skipped, flush=True)  # again after the training output, where it is read


def main(argv):
    del argv
    if FLAGS.list:
        _list()
        return
    dataset = _own_dataset()
    outputs = _outputs(dataset)
    configs = _selected_rows(dataset)
    seeds = [int(s) for s in FLAGS.seeds]
    try:
        changes = overrides.overrides_from_flags(SHORTHANDS)
        check_epochs_for_scale(outputs.scale, dict(changes).get("epochs"))
        plan_args = (seeds, outputs.scale, FLAGS.runs_dir, changes, dataset)
        planned = planning.plan(configs, *plan_args)
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    if not FLAGS.report_only:
        _train(configs, planned, plan_args, outputs)
    own_floor = None if dataset is None else _own_floor(planned[0][0], outputs)
    for table in dict.fromkeys(registry.table_id(c) for c in configs):
        registered, shown, run_dirs = planning.table_runs(table, *plan_args)
        markdown = reproduction.write_table(
            table, registered[0], shown, run_dirs, outputs, dataset, own_floor
        )
        if markdown is not None:
            print(markdown)
    if dataset is None:
        reproduction.write_other_configurations(outputs)


def _no_rows():
    """Which selection flag matched nothing, and what it could be."""
    known = {
        "--table": registry.tables(),
        "--dataset": sorted({c.dataset for c in registry.select()}),
        "--paper": sorted({c.paper for c in registry.select()}),
    }
    for flag, value in (
        ("--table", FLAGS.table),
        ("--dataset", FLAGS.dataset),
        ("--paper", FLAGS.paper),
    ):
        if value and not registry.select(**{flag[2:]: value}):
            return f"{flag}: no registered rows match {value!r} (known: {', '.join(known[flag])})"
    return "no registered row matches --table, --dataset, --paper and --rows together; see --list"


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
