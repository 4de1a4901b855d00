r"""Times whole training epochs of a table's rows, one fresh `train.py` process per row, and
writes the per-epoch seconds beside the paper's time-per-epoch ratios (BENCHMARKS.md).

    python experiments/epoch_times.py --data_dir=../shared/data                 # CNN, GCNN, ESIM
    KERAS_BACKEND=jax python experiments/epoch_times.py --data_dir=../shared/data --jit_compile \
        --json=results/epoch-times-gpu.json

Unlike `bench.py` (a few timed steps), an epoch here includes the input pipeline, and the
evaluation after it is timed apart. Rows run in the table's order. The record (--json) is written
before the first row and after every row, so a run stopped part-way keeps the rows it finished
(and never leaves an older record in place); --report_only re-renders BENCHMARKS.md from it.
"""

import pathlib
import shlex
import subprocess
import sys
import tempfile

from absl import app, flags

from gcnn_match import cli
from gcnn_match.benchmarks.epoch_times import measured_on, render, row_record
from gcnn_match.experiments import registry
from gcnn_match.files import read_json, write_json
from gcnn_match.reporting.marked_sections import update_section

FLAGS = flags.FLAGS
flags.DEFINE_string("table", "gcnn-quora", "Registered table whose rows are timed.")
flags.DEFINE_list("rows", ["cnn", "gcnn", "esim_our_implement"], "Rows of --table to time.")
flags.DEFINE_string("scale", "low-resource", "Scale of the timed runs.")
flags.DEFINE_integer(
    "epochs", 2, "Epochs per row (>= 2: those after the first are the steady state; 3+ repeat it)."
)
flags.DEFINE_integer("max_train_examples", None, "Train on the first N pairs (a quick check).")
flags.DEFINE_enum(
    "padding", None, ["bucket", "fixed"], "Override the rows' padding (fixed: one batch shape)."
)
flags.DEFINE_bool("jit_compile", None, "Force XLA on or off (default: each row's setting).")
flags.DEFINE_string("data_dir", "data", "Dataset folder.")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_string("runs_dir", None, "Keep the run directories here (default: a temporary one).")
flags.DEFINE_string("json", "results/epoch-times.json", "JSON record.")
flags.DEFINE_string("output", "BENCHMARKS.md", "Markdown report.")
flags.DEFINE_bool("report_only", False, "Re-render --output from --json; train nothing.")


def _python(args, **kwargs):
    return subprocess.run([sys.executable, *args], check=True, text=True, **kwargs)


def _train(config, run_dir):
    args = [
        "-m",
        "gcnn_match.scripts.train",
        f"--experiment={config.name}",
        f"--scale={FLAGS.scale}",
        "--seed=1",
        f"--epochs={FLAGS.epochs}",
        f"--data_dir={FLAGS.data_dir}",
        f"--cache_dir={FLAGS.cache_dir}",
        f"--model_dir={run_dir}",
        "--noresume",
    ]
    if FLAGS.max_train_examples:
        args.append(f"--max_train_examples={FLAGS.max_train_examples}")
    if FLAGS.padding:
        args.append(f"--override=padding={FLAGS.padding}")
    if FLAGS.jit_compile is not None:
        args.append(f"--{'' if FLAGS.jit_compile else 'no'}jit_compile")
    _python(args)


def measure(path):
    configs = registry.select(table=FLAGS.table, rows=FLAGS.rows)
    if len(configs) != len(FLAGS.rows):
        raise app.UsageError(f"--rows: {FLAGS.rows} are not all rows of {FLAGS.table}")
    record = {
        "command": "python experiments/epoch_times.py " + shlex.join(sys.argv[1:]),
        # The runs' own environment records say which backend and device they used.
        "keras_backend": "not known before the first row",
        "device": "not known before the first row",
        "table": FLAGS.table,
        "scale": FLAGS.scale,
        "max_train_examples": FLAGS.max_train_examples,
        "requested": [c.row for c in configs],
        "rows": [],
    }
    write_json(path, record)
    with tempfile.TemporaryDirectory() as tmp:
        runs_dir = pathlib.Path(FLAGS.runs_dir or tmp)
        for config in configs:
            run_dir = runs_dir / config.name.replace("/", "-")
            _train(config, run_dir)
            record["rows"].append(row_record(config, run_dir))
            record.update(measured_on(record["rows"]))
            write_json(path, record)
    return record


def main(argv):
    del argv
    if FLAGS.epochs < 2:
        raise app.UsageError("--epochs: at least 2 (epoch 1 also compiles); pass --epochs=2")
    path = pathlib.Path(FLAGS.json)
    record = read_json(path) if FLAGS.report_only else measure(path)
    if record is None:
        raise app.UsageError(f"--json: no record at {path}; run without --report_only first")
    markdown = render(
        record, registry.select(table=record["table"]), registry.time_ratios(record["table"])
    )
    print(markdown)
    update_section(
        pathlib.Path(FLAGS.output), f"epochs:{path.stem}", markdown, heading="# Benchmarks"
    )


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
