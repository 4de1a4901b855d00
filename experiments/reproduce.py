"""Runs the registered rows of a paper table and writes the paper-vs-ours table.

    python experiments/reproduce.py --dataset=quora --scale=low-resource --data_dir=../shared/data
    python experiments/reproduce.py --list

Finished runs are skipped (a run directory with metrics.json), interrupted ones resume. Before
training, a throughput probe prints an upper bound of the duration; after each trained run, the
time left is re-estimated from the measured durations. The table goes into REPRODUCTION.md (a
marked section per table and scale) and results/*.json.
"""

import pathlib
import shlex
import sys
import time

from absl import app, flags

from gcnn_match.data.download import ensure_dataset
from gcnn_match.data.registry import MissingDataError
from gcnn_match.experiments import registry
from gcnn_match.experiments.overrides import default_run_dir
from gcnn_match.progress import RemainingTime, format_duration
from gcnn_match.reporting import tables
from gcnn_match.training.inputs import apply_scale, check_epochs_for_scale
from gcnn_match.training.loop import probe_seconds_per_step, run_experiment
from gcnn_match.training.run_dir import read_json

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
flags.DEFINE_integer("epochs", None, "Override the maximum epochs of every row.")
flags.DEFINE_string("report", "REPRODUCTION.md", "Markdown file that receives the table.")
flags.DEFINE_string("results_dir", "results", "Folder for the JSON records of the tables.")
flags.DEFINE_bool("list", False, "Print every registered row with its paper target and exit.")
flags.DEFINE_bool("report_only", False, "Only render the table from finished runs.")
flags.DEFINE_bool("estimate", True, "Probe throughput and print the expected duration first.")


def _list():
    for config in registry.select():
        targets = ", ".join(f"{k}={v:g}" for k, v in config.targets.items())
        print(
            f"{registry.table_id(config):16s} {config.name:40s} {config.table:8s} "
            f"{config.row!r:28s} {targets}"
        )


def _ensure_data(pending):
    """Finds (or downloads, where a URL exists) every split the pending runs read, before any
    training starts; a missing file stops here with the list of what to place where."""
    needed = {}
    for config in pending:
        scaled = apply_scale(config)
        splits = {scaled.train_split, scaled.test_split, *scaled.extra_eval_splits}
        if scaled.dev_split != "holdout":
            splits.add(scaled.dev_split)
        needed.setdefault(config.dataset, set()).update(splits)
    for dataset, splits in needed.items():
        ensure_dataset(dataset, FLAGS.data_dir, sorted(splits))


def _estimate(pending):
    """Probes the first pending run and extrapolates to all pending runs (an upper bound)."""
    seconds, steps = probe_seconds_per_step(pending[0], FLAGS.data_dir, FLAGS.cache_dir)
    epochs = max(apply_scale(c).epochs for c in pending)
    total = seconds * steps * epochs * len(pending)
    print(
        f"throughput probe ({pending[0].name}): {seconds:.2f} s/step, {steps} steps/epoch; "
        f"at most ~{format_duration(total)} for {len(pending)} runs x {epochs} epochs (early "
        "stopping usually ends sooner; other rows differ in cost)",
        flush=True,
    )


def _planned(registered, seeds):
    """(config, run directory) for each seed of a registered row at the chosen scale; a row
    that reports another row's runs plans those (seeds 1..n for an n-run vote)."""
    if registered.runs_of:
        if registered.ensemble_size:
            seeds = range(1, registered.ensemble_size + 1)
        yield from _planned(registry.get(registered.runs_of), seeds)
        return
    for seed in seeds:
        changes = {"scale": FLAGS.scale, "seed": seed}
        if FLAGS.epochs:
            changes["epochs"] = FLAGS.epochs
        config = registered.replace(**changes)
        yield config, pathlib.Path(default_run_dir(FLAGS.runs_dir, registered, config))


def _run_dirs(registered, seeds):
    return [d for _, d in _planned(registered, seeds)]


def main(argv):
    del argv
    if FLAGS.list:
        _list()
        return
    try:
        check_epochs_for_scale(FLAGS.scale, FLAGS.epochs)
    except ValueError as error:
        raise app.UsageError(str(error)) from None
    configs = registry.select(
        table=FLAGS.table, dataset=FLAGS.dataset, paper=FLAGS.paper, rows=FLAGS.rows
    )
    if not configs:
        raise app.UsageError("no registered rows match; see --list")
    seeds = [int(s) for s in FLAGS.seeds]
    # Keyed by run directory: rows sharing runs (votes, aliases) train them once.
    planned = list(
        {d: (c, d) for registered in configs for c, d in _planned(registered, seeds)}.values()
    )
    pending = [c for c, d in planned if not (d / "metrics.json").exists()]
    if not FLAGS.report_only:
        try:
            _ensure_data(pending)
        except MissingDataError as error:
            raise SystemExit(f"error: {error}") from None
        if FLAGS.estimate and pending:
            _estimate(pending)
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
    # The table lists, besides this command, the command line that trained each of its runs.
    command = "python experiments/reproduce.py " + shlex.join(
        a for a in sys.argv[1:] if a != "--noestimate"
    )
    for table in dict.fromkeys(registry.table_id(c) for c in configs):
        # The whole table is rendered, so rows restricted away by --rows show as "not run"
        # instead of disappearing from the report.
        table_configs = registry.select(table=table)
        run_dirs = {c.name: _run_dirs(c, seeds) for c in table_configs}
        record = pathlib.Path(FLAGS.results_dir) / f"{table}-{FLAGS.scale}.json"
        rows = tables.keep_earlier_results(
            tables.collect(table_configs, run_dirs), read_json(record, [])
        )
        first = table_configs[0]
        title = f"{first.paper} {first.table}: {first.dataset} ({FLAGS.scale})"
        markdown = tables.render_markdown(rows, title=title, command=command)
        markdown += tables.render_time_ratios(rows, registry.time_ratios(table))
        print(markdown)
        tables.update_section(pathlib.Path(FLAGS.report), f"{table}:{FLAGS.scale}", markdown)
        tables.write_json(record, rows)


if __name__ == "__main__":
    app.run(main)
