"""Learning curves: registered rows trained on nested subsets of their low-resource training
part (about 1k, 3k and all ~9k pairs), to see whether a paper's gap opens or closes as data
grows (docs/design.md#learning-curves).

    python experiments/curves.py --curve=gcnn-quora --data_dir=../shared/data
    python experiments/curves.py --data_dir=../shared/data          # every curve (make curves)
    python experiments/curves.py --report_only                      # render the records only

Trains the missing runs with reproduce.py's loop (`experiments/driver.py`: finished runs are
skipped, interrupted ones resume; the whole-part runs are the table's own low-resource runs),
adds the finished ones to results/curves-<name>.json and
results/predictions/curves-<name>.csv.gz, computes the floors of each size on that size's
examples into the same record (also with --report_only; a size whose splits are those of the
record's floors keeps them unfit, and without the data under --data_dir the record keeps the
floors it has), draws figures/curves-<name>.png and renders LEARNING_CURVES.md from every
curve's record. `--epochs=N` and `--override key=value` apply to every run (and name its run
directory) and to the floors' splits.
"""

import os
import pathlib

from absl import app, flags

from gcnn_match import cli
from gcnn_match.claims import learning_curves as curve_records
from gcnn_match.config import overrides
from gcnn_match.data.experiment_data import check_epochs_for_scale
from gcnn_match.data.registry import MissingDataError
from gcnn_match.experiments import curves, driver
from gcnn_match.files import read_json
from gcnn_match.reporting import learning_curves as report
from gcnn_match.reporting.marked_sections import update_section

SHORTHANDS = ("epochs",)  # of overrides.SHORTHANDS; the sizes and seeds are the curve's own

FLAGS = flags.FLAGS
flags.DEFINE_list("curve", [], f"Curves to run (default: all of {', '.join(curves.names())}).")
flags.DEFINE_list("seeds", [], "Seeds of every row and size (default: the curve's).")
flags.DEFINE_string(
    "data_dir", "data", "Dataset and embeddings folder (a local mirror); the floors read it too."
)
flags.DEFINE_string("runs_dir", "runs", "Where run directories are created.")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_string("results_dir", "results", "Folder of the curves' records.")
flags.DEFINE_string("figures_dir", "figures", "Where the curves' figures go.")
flags.DEFINE_string("report", "LEARNING_CURVES.md", "Markdown file that receives the section.")
flags.DEFINE_bool(
    "report_only", False, "Only add finished runs and the floors to the records and render."
)
flags.DEFINE_bool(
    "estimate", True, "Print the expected duration, timed on the first run's first steps."
)
overrides.define_flags(SHORTHANDS)
flags.adopt_module_key_flags(overrides)


def _selected():
    try:
        return [curves.get(name) for name in FLAGS.curve or curves.names()]
    except ValueError as error:
        raise app.UsageError(f"--curve: {error}") from None


def main(argv):
    del argv
    selected = _selected()
    try:
        changes = overrides.overrides_from_flags(SHORTHANDS)
        check_epochs_for_scale("low-resource", dict(changes).get("epochs"))
        plans = {
            curve.name: curves.planned(
                curve, [int(s) for s in FLAGS.seeds] or curve.seeds, FLAGS.runs_dir, changes
            )
            for curve in selected
        }
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    for curve in selected:
        planned = [run for runs in plans[curve.name].values() for run in runs]
        if not FLAGS.report_only:
            driver.train_pending(
                planned, FLAGS.data_dir, FLAGS.cache_dir, FLAGS.estimate, label=curve.name
            )
        record = curve_records.update_record(curve, FLAGS.results_dir, plans[curve.name], changes)
        if record["runs"]:
            record = _with_floors(curve, plans[curve.name], record, changes)
            path = report.write_figure(
                curve, record, report.figure_path(FLAGS.figures_dir, curve.name)
            )
            print(f"{curve.name}: {len(record['runs'])} runs recorded, figure {path}")
        for gap in record["gaps"]:
            print(f"  {gap['a']} − {gap['b']}: {gap['verdict']}")
    _render()


def _with_floors(curve, planned, record, changes):
    """`record` with the floors of `curve` on the splits of its `planned` runs (with their
    overrides `changes`) stored: those of the record where its splits are the same, the others
    computed now from --data_dir; when their files are not there, the record as it is (with
    the floors it had, if any), saying so."""
    try:
        floors = curve_records.compute_floors(
            curve, planned, FLAGS.data_dir, record.get("floors"), changes
        )
    except MissingDataError as error:
        kept = "kept the record's floors" if "floors" in record else "the record has no floors"
        print(f"{curve.name}: floors not computed ({str(error).splitlines()[0]}); {kept}")
        return record
    except ValueError as error:  # rows reading different splits, or example limits
        raise app.UsageError(f"{curve.name}: floors: {error}") from None
    try:
        record = curve_records.write_floors(curve, FLAGS.results_dir, record, floors)
    except ValueError as error:
        raise SystemExit(f"error: {curve.name}: {error}") from None
    for at in floors["sizes"]:
        values = ", ".join(
            f"{found['row']} {100 * found['metrics'][curve.metric]:.2f}" for found in at["floors"]
        )
        print(f"  floors at {at['examples']['train']:,} training pairs: {values}")
    return record


def _render():
    """The curves' section of --report from every curve's record (a curve without: "not run")."""
    output = pathlib.Path(FLAGS.report)
    pairs, figures = [], {}
    for name in curves.names():
        record = read_json(curve_records.record_path(FLAGS.results_dir, name))
        pairs.append((curves.get(name), record))
        figure = pathlib.Path(report.figure_path(FLAGS.figures_dir, name)).resolve()
        figures[name] = pathlib.Path(os.path.relpath(figure, output.resolve().parent)).as_posix()
    markdown = report.render_section(pairs, figures)
    update_section(output, report.SECTION, markdown, heading=report.TITLE)
    print(f"{output}: section {report.SECTION}")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
