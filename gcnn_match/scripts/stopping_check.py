r"""Records the dev curves of rows trained to their whole schedule with early stopping off, and
where the registered patience, and a few other stopping rules, would have ended them
(gcnn_match/evidence/stopping.py). Test metrics are never read.

    python experiments/train.py --experiment=attconv/snli/bi_cnn --scale=low-resource \
        --seed=1 --data_dir=../shared/data --runs_dir=runs/fullschedule \
        --override=early_stopping_patience=100
    python experiments/stopping_check.py --runs_dir=runs/fullschedule --scale=low-resource

Writes results/stopping-check-<table>-<scale>.json for each table with at least one such run:
per row, the seed's dev curve, its best epoch over the schedule, the registered patience's
stop, each candidate rule's stop, and the epochs the table's record selected and ran.
"""

import shlex
import sys

import numpy as np
from absl import flags

from gcnn_match import cli
from gcnn_match.config import overrides
from gcnn_match.evidence import runs, stopping
from gcnn_match.experiments import registry
from gcnn_match.files import write_json
from gcnn_match.training.run_dir import RunDirectory

FLAGS = flags.FLAGS
flags.DEFINE_string("runs_dir", "runs", "Where the whole-schedule runs were trained.")
flags.DEFINE_enum("scale", "low-resource", ["full", "low-resource"], "Protocol of the runs.")
flags.DEFINE_integer("seed", 1, "Seed of the runs.")
flags.DEFINE_string("results_dir", "results", "Folder of the tables' records and of the output.")


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
    """The table record's shown run set of `config`: its selected and run epochs."""
    found = runs.run_sets_of(FLAGS.results_dir, registry.table_id(config), FLAGS.scale, config.name)
    if not found:
        return {}
    return {
        "recorded_best_epoch": found[0]["best_epoch"],
        "recorded_epochs_run": found[0]["epochs_run"],
    }


def row_check(config):
    """The check of one row, or None where its whole-schedule run has not finished."""
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
        **recorded(config),
        **stopping.check(values, config.early_stopping_patience),
    }


def main(argv):
    del argv
    command = "python experiments/stopping_check.py " + shlex.join(sys.argv[1:])
    for table in registry.tables():
        checked = [row_check(c) for c in registry.select(table=table)]
        checked = [c for c in checked if c is not None]
        if not checked:
            continue
        path = f"{FLAGS.results_dir}/stopping-check-{table}-{FLAGS.scale}.json"
        write_json(path, {"command": command, "scale": FLAGS.scale, "rows": checked})
        for c in checked:
            print(
                f"{c['name']}: best {c['best_epoch']}/{c['registered_epochs']} "
                f"({c['best_value']:.4f}); patience {c['registered_patience']} stops at "
                f"{c['patience_stop_epoch']}, selects {c['patience_selected_epoch']} "
                f"({c['patience_selected_value']:.4f})"
            )
        print(f"wrote {path}")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
