"""Each table on one GPU: every registered row's training step timed and its memory measured on
this device, and the hours of the registered schedule on the paper's full training split.

    KERAS_BACKEND=jax python experiments/gpu_plan.py                # every table (make gpu-plan)
    python experiments/gpu_plan.py --tiny --json=/tmp/plan.json     # CPU check: two rows, tiny
    python experiments/gpu_plan.py --report_only --json=results/gpu-plan-<device>.json

Writes the record to --json (default `results/gpu-plan-<device>.json`, the device named by the
run itself) and, from a full run on a GPU only, the "Each table on one GPU" section of
--output; --report_only re-renders that section from a record. A --tiny run (two rows, two
steps, tiny sizes) checks the machinery: it writes only to an explicit --json and never to
--output.
"""

import json
import pathlib
import shlex
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.benchmarks.gpu_plan import run_plan
from gcnn_match.experiments import registry
from gcnn_match.files import read_json, write_json
from gcnn_match.reporting.gpu_plan_report import render
from gcnn_match.reporting.marked_sections import update_section

FLAGS = flags.FLAGS
# What --tiny measures: a classification row and a ranking row, both quick to build.
TINY_ROWS = ["gcnn/quora/cnn", "clstm/wikiqa/single_lstm"]
flags.DEFINE_list("tables", [], "Plan these tables (default: every registered table).")
flags.DEFINE_list("rows", [], "Restrict to these rows (names or slugs).")
flags.DEFINE_bool("tiny", False, "Two rows, two steps, tiny sizes: a CPU check.")
flags.DEFINE_integer("steps", 5, "Timed steady-state steps per row.")
flags.DEFINE_integer("warmup", 1, "Untimed steps after the compiling one.")
flags.DEFINE_float("max_seconds", 10, "Stop a row's timing early (after >= 2 steps) past this.")
flags.DEFINE_integer("workers", 8, "Rows measured at a time (their steps never overlap).")
flags.DEFINE_float("deadline_seconds", 420, "Rows not done by then are listed as not measured.")
flags.DEFINE_string("json", None, "Record (default results/gpu-plan-<device>.json).")
flags.DEFINE_string("output", "BENCHMARKS.md", "Markdown report (a full GPU run only).")
flags.DEFINE_bool("report_only", False, "Re-render --output from --json; measure nothing.")
SECTION = "gpu-plan"


def selected_configs():
    if FLAGS.tiny:
        return [registry.get(name) for name in TINY_ROWS]
    unknown = sorted(set(FLAGS.tables) - set(registry.tables()))
    if unknown:
        raise app.UsageError(f"--tables: unknown {unknown}; registered: {registry.tables()}")
    configs = []
    for table in FLAGS.tables or registry.tables():
        configs += registry.select(table=table, rows=FLAGS.rows)
    if not configs:
        raise app.UsageError("--tables/--rows: no registered row matches")
    return configs


def measure():
    steps = 2 if FLAGS.tiny else FLAGS.steps
    record = run_plan(
        selected_configs(),
        tiny=FLAGS.tiny,
        workers=FLAGS.workers,
        deadline_seconds=FLAGS.deadline_seconds,
        steps=steps,
        warmup=FLAGS.warmup,
        max_seconds=FLAGS.max_seconds,
    )
    record["command"] = "python experiments/gpu_plan.py " + shlex.join(sys.argv[1:])
    if not any("hours_per_seed" in row for row in record["rows"]):
        errors = "; ".join(f"{r['name']}: {r['error']}" for r in record["rows"] if "error" in r)
        raise SystemExit(f"no row was measured, so no record is written: {errors}")
    return record


def main(argv):
    del argv
    if FLAGS.report_only:
        record = read_json(FLAGS.json) if FLAGS.json else None
        if record is None:
            raise app.UsageError(f"--json: no record at {FLAGS.json!r}; run without --report_only")
    else:
        record = measure()
        path = FLAGS.json or (
            None if FLAGS.tiny else f"results/gpu-plan-{record['device_slug']}.json"
        )
        if path:
            write_json(pathlib.Path(path), record)
        else:
            print(json.dumps(record, indent=2))
    markdown = render(record)
    print(markdown)
    if record["on_gpu"] and not record["tiny"]:
        update_section(pathlib.Path(FLAGS.output), SECTION, markdown, heading="# Benchmarks")
    else:
        print(f"{FLAGS.output} left as it is: the record is not a full run on a GPU")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
