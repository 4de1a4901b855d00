"""Computes the floor of paper tables: majority class and TF-IDF + logistic regression
(ranking tables: random order, TF-IDF cosine, TF-IDF + LR) on exactly the splits the table's
rows read (gcnn_match/baselines/floor.py, docs/design.md#floors).

    python experiments/floor.py --table=gcnn-quora --data_dir=../shared/data
    python experiments/floor.py --all --scale=low-resource --data_dir=../shared/data

Writes results/floor-<table>-<scale>.json and results/predictions/floor-<table>-<scale>.csv.gz.
The example counts are checked against the table's results/<table>-<scale>.json. reproduce.py
shows the floor under the table's rows once the record exists (--report_only re-renders).
With --all, a table whose files are not under --data_dir, or whose dataset lacks the splits of
--scale (a stand-in without a train split at full), is skipped with the reason.
"""

import pathlib
import shlex
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.baselines import floor
from gcnn_match.data.registry import MissingDataError
from gcnn_match.experiments import registry
from gcnn_match.files import read_json

FLAGS = flags.FLAGS
flags.DEFINE_string("table", None, "Table id, e.g. gcnn-quora (reproduce.py --list).")
flags.DEFINE_bool("all", False, "Every registered table whose files are under --data_dir.")
flags.DEFINE_enum("scale", "low-resource", ["full", "low-resource"], "Protocol.")
flags.DEFINE_string("data_dir", "data", "Dataset folder (a local mirror).")
flags.DEFINE_string("results_dir", "results", "Folder of the records.")


def main(argv):
    del argv
    if bool(FLAGS.table) == FLAGS.all:
        raise app.UsageError("--table: give one table, or --all for every table")
    command = "python experiments/floor.py " + shlex.join(sys.argv[1:])
    computed = {}  # tables that read the same splits share one computation
    for table in registry.tables() if FLAGS.all else [FLAGS.table]:
        try:
            config = floor.table_config(table, FLAGS.scale)
        except ValueError as error:
            if not FLAGS.all:
                raise app.UsageError(f"--table: {error}") from None
            print(f"{table}: skipped, {error}")  # e.g. the full scale of a train-less stand-in
            continue
        signature = floor.split_signature(config)
        try:
            if signature not in computed:
                computed[signature] = floor.compute(config, FLAGS.data_dir)
        except MissingDataError as error:
            if not FLAGS.all:
                raise SystemExit(f"error: {error}") from None
            print(f"{table}: skipped, {str(error).splitlines()[0]}")
            continue
        record, predictions = computed[signature]
        try:
            rows = read_json(pathlib.Path(FLAGS.results_dir) / f"{table}-{FLAGS.scale}.json", [])
            floor.check_examples(record, rows)
        except ValueError as error:
            raise SystemExit(f"error: {table}: {error}") from None
        record = floor.write(FLAGS.results_dir, table, record, predictions, command)
        for found in record["floors"]:
            metrics = ", ".join(f"{k} {100 * v:.2f}" for k, v in found["metrics"].items())
            print(f"{table}: {found['row']}: {metrics}", flush=True)


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
