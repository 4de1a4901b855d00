"""Checks every registered claim of the papers against our committed measurements; writes
CLAIMS.md and one forest plot per paper (`make claims`).

    python experiments/claims.py
    python experiments/claims.py --paper=GCNN --scales=low-resource
    python experiments/claims.py --data_dir=../shared/data

Its measurements are only what is committed: the per-example prediction records
(results/predictions/<table>-<scale>.csv.gz, written by reproduce.py) and the timing records
(results/epoch-times-*.json, results/bench*.json, results/latency.json), so a fresh clone
renders the same verdicts. A claim whose rows have no record says "not run", with the command
that would run them; with --data_dir (which must be a folder), also which dataset splits those
rows read are absent from that folder: such claims wait for data, not only for compute.
"""

import os
import pathlib
import shlex
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.claims import assess, registry, verdicts
from gcnn_match.config.experiment import SCALES
from gcnn_match.files import write_text_atomic
from gcnn_match.reporting import claims_report
from gcnn_match.reporting.marked_sections import update_section

FLAGS = flags.FLAGS
flags.DEFINE_string("results_dir", "results", "Folder of the committed records.")
flags.DEFINE_string("output", "CLAIMS.md", "The report.")
flags.DEFINE_string("figures_dir", "figures", "Where the forest plots go.")
flags.DEFINE_list(
    "scales",
    ["full", "low-resource"],
    "Scales whose records count, in order of preference: a claim uses the first scale at "
    "which both its rows ran.",
)
flags.DEFINE_string("paper", None, f"Only this paper's claims (one of {registry.PAPERS}).")
flags.DEFINE_string(
    "readme",
    "README.md",
    "The README whose marked section claims-glance gets the counts table (empty: none).",
)
flags.DEFINE_string(
    "design_doc",
    "docs/design.md",
    "The design document whose marked section claims-rule gets the verdict rule (empty: none).",
)
flags.DEFINE_string(
    "data_dir",
    None,
    'Dataset folder: each "not run" claim also names the dataset splits its rows read that '
    "have no file there, and its command reads that folder. Not given: not checked.",
)


def main(argv):
    del argv
    unknown = sorted(set(FLAGS.scales) - set(SCALES))
    if unknown:
        raise app.UsageError(f"--scales: {unknown[0]!r} is not a scale; use some of {SCALES}")
    if FLAGS.paper and FLAGS.paper not in registry.PAPERS:
        raise app.UsageError(f"--paper: {FLAGS.paper!r} is none of {', '.join(registry.PAPERS)}")
    if FLAGS.data_dir is not None and not os.path.isdir(FLAGS.data_dir):
        # Else a mistyped folder would mark every claim's data missing.
        raise app.UsageError(
            f"--data_dir: {FLAGS.data_dir!r} is not a folder; name the data folder"
        )
    outcomes = assess.assess(
        registry.select(FLAGS.paper), FLAGS.results_dir, FLAGS.scales, FLAGS.data_dir
    )
    output = pathlib.Path(FLAGS.output)
    figures = {}
    for paper in dict.fromkeys(o.claim.paper for o in outcomes):
        path = claims_report.figure_path(FLAGS.figures_dir, paper)
        claims_report.plot_forest([o for o in outcomes if o.claim.paper == paper], path, paper)
        figures[paper] = pathlib.Path(os.path.relpath(path, output.resolve().parent)).as_posix()
    command = "python experiments/claims.py " + shlex.join(sys.argv[1:])
    text = claims_report.render_markdown(outcomes, command.strip(), figures, FLAGS.data_dir)
    write_text_atomic(output, text)
    data_checked = FLAGS.data_dir is not None
    if FLAGS.readme and not FLAGS.paper:  # the glance counts every paper's claims
        glance = claims_report.render_counts(outcomes, data_checked, by_paper=False)
        update_section(pathlib.Path(FLAGS.readme), "claims-glance", "\n".join(glance) + "\n")
    if FLAGS.design_doc:
        rule = "\n".join(verdicts.rule_lines()) + "\n"
        update_section(pathlib.Path(FLAGS.design_doc), "claims-rule", rule)
    print("\n".join(claims_report.render_counts(outcomes, data_checked)))
    print(f"{output}, {len(figures)} figures in {FLAGS.figures_dir}")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
