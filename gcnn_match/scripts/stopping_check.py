r"""Records the dev curves of rows trained to their whole schedule with early stopping off, and
where the registered patience, and a few other stopping rules, would have ended them
(gcnn_match/evidence/stopping.py). Test metrics are never read.

    python experiments/train.py --experiment=attconv/snli/bi_cnn --scale=low-resource \
        --seed=1 --data_dir=../shared/data --runs_dir=runs/fullschedule \
        --override=early_stopping_patience=100
    python experiments/stopping_check.py --runs_dir=runs/fullschedule --scale=low-resource

    python experiments/stopping_check.py --report_only        # re-render the docs' sections

Writes results/stopping-check-<table>-<scale>.json for each table with a row that needs the
check (`stopping.needs_check`) or a whole-schedule run: per checked row, the seed's dev curve,
its best epoch over the schedule, the registered patience's stop, each candidate rule's stop,
and the epochs the table's record selected and ran (curves of an earlier record stay unless
--runs_dir holds a newer one); the rows that need the check; those not yet checked, with their
hours. Then renders the section "Early stopping on the whole schedule" of each paper's
docs/<paper>.md (`reporting/stopping_report.py`).
"""

import functools
import pathlib
import shlex
import sys

import numpy as np
from absl import flags

from gcnn_match import cli
from gcnn_match.config import overrides
from gcnn_match.evidence import runs, stopping
from gcnn_match.experiments import registry
from gcnn_match.files import read_json, write_json
from gcnn_match.reporting import stopping_report
from gcnn_match.reporting.marked_sections import update_section
from gcnn_match.training.run_dir import RunDirectory

FLAGS = flags.FLAGS
flags.DEFINE_string("runs_dir", "runs", "Where the whole-schedule runs were trained.")
flags.DEFINE_enum("scale", "low-resource", ["full", "low-resource"], "Protocol of the runs.")
flags.DEFINE_integer("seed", 1, "Seed of the runs.")
flags.DEFINE_string("results_dir", "results", "Folder of the tables' records and of the output.")
flags.DEFINE_bool(
    "report_only", False, "Re-render the docs' sections from the records; train and write nothing."
)


def whole_schedule_run(config):
    """The run directory of `config` trained with patience equal to its schedule (so that it
    cannot stop), at --scale and --seed."""
    changes = [
        ("scale", FLAGS.scale),
        ("seed", FLAGS.seed),
        ("early_stopping_patience", config.epochs),
    ]
    trained = overrides.apply_overrides(config, changes)
    return RunDirectory(overrides.default_run_dir(FLAGS.runs_dir, config, trained))


def recorded(config):
    """The table record's shown run set of `config`: its selected and run epochs, and the cap a
    command set below the schedule (None: the registered schedule)."""
    return _recorded(registry.table_id(config), config.name, config.epochs)


@functools.cache
def _recorded(table, name, epochs):
    """`recorded`, read once per row (the callers only read the mapping)."""
    found = runs.run_sets_of(FLAGS.results_dir, table, FLAGS.scale, name)
    if not found or "epochs_run" not in found[0]:
        return {}
    return {
        "recorded_best_epoch": found[0]["best_epoch"],
        "recorded_epochs_run": found[0]["epochs_run"],
        "recorded_epoch_cap": runs.epoch_cap(found[0], epochs),
        "recorded_seconds_per_epoch": found[0]["seconds_per_epoch"][0],
    }


def needs_check(config):
    """Whether the record of `config` is one `stopping.needs_check` asks a whole run of."""
    seen = recorded(config)
    return bool(seen) and stopping.needs_check(
        config.epochs,
        config.early_stopping_patience,
        seen["recorded_best_epoch"],
        seen["recorded_epochs_run"],
    )


def row_check(config):
    """The check of one row at --seed, or None where its whole-schedule run has not
    finished."""
    epochs = whole_schedule_run(config).epochs()
    if len(epochs) < config.epochs:
        return None
    values = [record[f"dev_{config.select_metric}"] for record in epochs]
    return {
        "name": config.name,
        "row": config.row,
        "seed": FLAGS.seed,
        "select_metric": f"dev_{config.select_metric}",
        "registered_epochs": config.epochs,
        "registered_patience": config.early_stopping_patience,
        "seconds_per_epoch": float(np.median([record["train_seconds"] for record in epochs])),
        **stopping.check(values, config.early_stopping_patience),
    }


def pending(config):
    """A row that needs the check and has none: its name and the hours of one seed over its
    whole schedule at the record's speed."""
    hours = recorded(config)["recorded_seconds_per_epoch"] * config.epochs / 3600
    return {"name": config.name, "row": config.row, "hours": round(hours, 3)}


def table_record(table, command):
    """The record of one table: the curves checked, one per row and seed (those of this
    --runs_dir replace the earlier record's of the same row and seed; each keeps the command
    that checked it), the rows that need the check, those still pending."""
    configs = registry.select(table=table)
    earlier = read_json(record_path(table, FLAGS.scale), {"rows": []})
    curves = {}
    for row in earlier["rows"]:
        curves[row["name"], row["seed"]] = {"command": earlier.get("command"), **row}
    for config in configs:
        found = row_check(config)
        if found is not None:
            curves[config.name, FLAGS.seed] = {"command": command, **found}
    # A carried-over curve keeps its dev values; its record fields are read again.
    rows = [
        {**curves[key], **recorded(config)}
        for config in configs
        for key in sorted(k for k in curves if k[0] == config.name)
    ]
    checked = {row["name"] for row in rows}
    needed = [c for c in configs if needs_check(c)]
    return {
        "scale": FLAGS.scale,
        "needs_check": [c.name for c in needed],
        "rows": rows,
        "pending": sorted(
            (pending(c) for c in needed if c.name not in checked), key=lambda p: p["hours"]
        ),
    }


def record_path(table, scale):
    return stopping_report.record_path(FLAGS.results_dir, table, scale)


def main(argv):
    del argv
    command = "python experiments/stopping_check.py " + shlex.join(sys.argv[1:])
    if not FLAGS.report_only:
        for table in registry.tables():
            record, path = table_record(table, command), record_path(table, FLAGS.scale)
            if record["rows"] or record["needs_check"]:
                write_json(path, record)
                print(
                    f"wrote {path}: {len(record['rows'])} checked, {len(record['pending'])} pending"
                )
            elif pathlib.Path(path).exists():
                pathlib.Path(path).unlink()  # nothing to check or show any more
                print(f"removed {path}")
    for doc, markdown in stopping_report.doc_sections(FLAGS.results_dir).items():
        update_section(pathlib.Path(doc), stopping_report.SECTION, markdown)
        print(f"rendered {doc}")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
