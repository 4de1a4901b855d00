"""Figures of the runs and of the reproduced tables (`make figures` also runs visualize.py).

    python experiments/figures.py --runs_dir=runs --results_dir=results --figures_dir=figures
    python experiments/figures.py --nocurves   # only the tables' figures, from results/

- every run directory under --runs_dir with finished epochs gets
  `<run_dir>/figures/training_curves.png` (train loss, dev metrics, learning rate per epoch);
  figures newer than the run's epochs.jsonl are kept unless --force, none with --nocurves;
- every paper-vs-ours table in --results_dir/*.json (written by reproduce.py) gets
  `<figures_dir>/<table>-<scale>.png`.
"""

import pathlib

from absl import flags

from gcnn_match import cli
from gcnn_match.reporting.bars import write_table_figures
from gcnn_match.reporting.training_curves import write_run_curves

FLAGS = flags.FLAGS
flags.DEFINE_string("runs_dir", "runs", "Searched recursively for run directories.")
flags.DEFINE_string("results_dir", "results", "Folder of the tables' JSON records.")
flags.DEFINE_string("figures_dir", "figures", "Where the table figures go.")
flags.DEFINE_bool("force", False, "Redraw training curves that are already up to date.")
flags.DEFINE_bool("curves", True, "Draw the runs' training curves (--nocurves: only the tables').")


def main(argv):
    del argv
    runs = []
    if FLAGS.curves:
        runs = sorted(p.parent for p in pathlib.Path(FLAGS.runs_dir).rglob("epochs.jsonl"))
    for run_dir in runs:
        path = write_run_curves(run_dir, force=FLAGS.force)
        if path is not None:
            print(f"{run_dir} -> {path}")
    tables = write_table_figures(FLAGS.results_dir, FLAGS.figures_dir)
    print(f"figures: training curves of {len(runs)} runs, {len(tables)} table figures")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
