"""The JSON record of a results table: each row's runs collected from their run directories,
merged with the table's earlier record, and read back in the current format.

A row of the record (`collect`) holds the registry's fields of the row (`_ROW_FIELDS`) and
one run set: the finished seeds of one configuration, their headline metrics and speed
(mean and sample standard deviation), epochs, sizes and vectors, and each run's seed, machine
and command (`provenance`). A row shows its most complete run set (`_completeness`); the
others stay in its "other_configurations" (`keep_earlier_results`).

A run set names its format in "record_format" (RECORD_FORMAT in those `collect` writes); one
without the field is of format 2 when it has "provenance", else of format 1, which named one
machine ("hardware") and the row's commands ("commands") for all its seeds. Readers take run
sets through `upgrade`, which gives any format the current one's fields.
"""

import json
import pathlib
import re
import shlex

import numpy as np
import pandas as pd

from gcnn_match.experiments.registry import table_id
from gcnn_match.files import read_json
from gcnn_match.training.ensemble import ensemble_metrics
from gcnn_match.training.metrics import is_headline_metric

RECORD_FORMAT = 2
NOT_RECORDED = "unknown (run without environment.json)"
UNKNOWN_CAP = "unknown"


def _mean_std(values):
    """Mean and sample standard deviation (ddof=1; 0 for one value) of a Series; (None, None)
    when it is empty."""
    if values.empty:
        return None, None
    return float(values.mean()), float(values.std(ddof=1)) if len(values) > 1 else 0.0


# Run metrics averaged over seeds besides the headline metrics.
_SPEED = ("seconds_per_epoch", "train_examples_per_second")


# Fields of a row that come from the registry; the others describe one run set of the row.
_ROW_FIELDS = (
    "name",
    "row",
    "table",
    "table_id",
    "targets",
    "target_notes",
    "compare",
    "ensemble_size",
    "registered_epochs",
)


def collect(configs, run_dirs):
    """Rows for `configs`; `run_dirs[name]` lists the run directories of that row's seeds."""
    rows = []
    for config in configs:
        dirs, runs = [], []
        for run_dir in run_dirs.get(config.name, []):
            metrics = read_json(run_dir / "metrics.json")
            if metrics is not None:
                dirs.append(run_dir)
                runs.append(metrics)
        provenance = [run_provenance(d, m["seed"]) for d, m in zip(dirs, runs)]
        trained = runs  # a vote's epochs are those of the seeds it votes over
        if config.ensemble_size:
            runs = [_vote(dirs, runs)] if len(runs) == config.ensemble_size else []
        row = {
            "name": config.name,
            "row": config.row,
            "table": config.table,
            "table_id": table_id(config),
            "targets": config.targets,
            "target_notes": config.target_notes,
            "seeds": [m["seed"] for m in runs],
            "compare": [list(pair) for pair in config.compare],
            "runs": len(runs),
            "ensemble_size": config.ensemble_size,
            "registered_epochs": config.epochs,
        }
        row.update(_averages(runs))
        if runs:
            first = runs[0]
            epochs = read_json(dirs[0] / "config.json", {}).get("epochs")
            row.update(
                record_format=RECORD_FORMAT,
                scale=first["scale"],
                embeddings=first["embeddings"],
                examples=first["examples"],
                trainable_params=first["trainable_params"],
                trainable_params_without_embeddings=first["trainable_params_without_embeddings"],
                epochs_run=[m["epochs_run"] for m in trained],
                best_epoch=[m["best_epoch"] for m in trained],
                configuration=configuration(dirs[0]),
                provenance=provenance,
            )
            if not config.ensemble_size:
                row["per_seed"] = [_seed_result(m) for m in runs]
            if epochs is not None:  # else unknown: the run set records no cap
                row["epoch_cap"] = None if epochs == config.epochs else epochs
        rows.append(row)
    return rows


def _averages(runs):
    """Mean and standard deviation over `runs` (metrics.json contents, or `_seed_result`s) of
    the headline metrics and the speed."""
    frame = pd.DataFrame(runs)
    keys = sorted(k for k in frame if is_headline_metric(k) or k in _SPEED)
    return {key: _mean_std(frame[key].dropna()) for key in keys}


def _seed_result(metrics):
    """What a run set keeps of one seed's run, so that seeds of one configuration trained by
    different commands (or machines, once their run directories are gone) make one run set."""
    kept = ("seed", "epochs_run", "best_epoch")
    return {k: v for k, v in metrics.items() if k in kept or is_headline_metric(k) or k in _SPEED}


def configuration(run_dir):
    """What the runs of one configuration share: their directory name up to the seed
    (`overrides.default_run_dir` names a run `<scale>-seed<seed>[-<overrides>]`)."""
    return re.sub(r"seed\d+", "seed*", run_dir.name)


def run_provenance(run_dir, seed):
    """The seed, machine and command of one run (None where environment.json lacks them)."""
    env = read_json(run_dir / "environment.json", {})
    machine = None
    if env.get("cpu"):
        gpus = len(env.get("gpus") or ())
        machine = f"{env['cpu']} ({env.get('cpu_count', '?')} cores"
        machine += f", {gpus} GPU{'s' if gpus > 1 else ''})" if gpus else ")"
    argv = env.get("argv")
    return {"seed": seed, "machine": machine, "command": _command(argv) if argv else None}


def _command(argv):
    """The command line that trained a run, as typed from the repository root."""
    script = pathlib.Path(argv[0])
    script = f"{script.parent.name}/{script.name}" if script.parent.name else script.name
    return "python " + shlex.join([script] + [a for a in argv[1:] if a != "--noestimate"])


def _vote(member_dirs, members):
    """One record for a majority-vote row: the members' record with the vote's dev and test
    metrics, and the parameters of all members."""
    record = dict(members[0])
    for split in ("dev", "test"):
        vote = ensemble_metrics(member_dirs, split)
        record.update({k: v for k, v in vote.items() if k.startswith(split)})
    record["seconds_per_epoch"] = float(np.mean([m["seconds_per_epoch"] for m in members]))
    for key in ("trainable_params", "trainable_params_without_embeddings"):
        record[key] = sum(m[key] for m in members)
    return record


def _format(run_set):
    if "record_format" in run_set:
        return run_set["record_format"]
    return 2 if "provenance" in run_set else 1


def upgrade(run_set):
    """`run_set` (a row with its other configurations, or one run set) in the current format.

    Format 1 named one machine and the row's commands for all its seeds: each seed gets that
    machine and, where the row had one command, that command (None where it had several, as
    which seed each trained is unknown). The commands stay listed in "commands", since the
    table names them."""
    others = run_set.get("other_configurations")
    if others:
        run_set = {**run_set, "other_configurations": [upgrade(s) for s in others]}
    if _format(run_set) >= RECORD_FORMAT:
        return run_set
    listed = run_set.get("commands", [])
    command = listed[0] if len(listed) == 1 else None
    machine = run_set.get("hardware")
    provenance = [
        {"seed": seed, "machine": machine, "command": command} for seed in run_set.get("seeds", [])
    ]
    kept = {k: v for k, v in run_set.items() if k != "hardware"}
    return {**kept, "commands": listed, "provenance": provenance, "record_format": RECORD_FORMAT}


def machines(run_set):
    """The machines of an upgraded run set's runs, each once ("not recorded" where unknown)."""
    return list(dict.fromkeys(p["machine"] or "not recorded" for p in run_set["provenance"]))


def commands(run_set):
    """The commands that trained an upgraded run set, each once: those a format-1 record
    listed, else each run's (NOT_RECORDED where its run directory had no environment.json)."""
    if "commands" in run_set:
        return run_set["commands"]
    return list(dict.fromkeys(p["command"] or NOT_RECORDED for p in run_set["provenance"]))


def epoch_cap(run_set, registered):
    """The epochs a command capped an upgraded run set at: None for the registered schedule,
    UNKNOWN_CAP where it cannot be told. A run set that does not record "epoch_cap" tells it by
    its commands, when all of them set one number of epochs."""
    if "epoch_cap" in run_set:
        return run_set["epoch_cap"]
    listed = commands(run_set)
    if not listed or NOT_RECORDED in listed:
        return UNKNOWN_CAP
    caps = {_commanded_epochs(command) for command in listed}
    if len(caps) > 1:
        return UNKNOWN_CAP
    cap = caps.pop()
    return None if cap in (None, registered) else cap


def _commanded_epochs(command):
    """The epochs a command line set (`--override=epochs=N` wins over `--epochs=N`), or None."""
    for pattern in (r"--override[= ]epochs=(\d+)", r"--epochs[= ](\d+)"):
        found = re.findall(pattern, command)
        if found:
            return int(found[-1])
    return None


def run_of_registered(epochs_run, registered, cap=None):
    """ "12–20 / 20": the epochs a row's seeds ran / its registered schedule, with the cap a
    command set below the schedule ("6 / 20 (cap 6)"; "(cap unknown)" for UNKNOWN_CAP)."""
    low, high = min(epochs_run), max(epochs_run)
    text = f"{low}" if low == high else f"{low}–{high}"
    return f"{text} / {registered}" + ("" if cap is None else f" (cap {cap})")


def _run_set(row):
    return {k: v for k, v in row.items() if k not in _ROW_FIELDS + ("other_configurations",)}


def _same_runs(a, b):
    """Whether two run sets hold the same results (the same runs read twice, maybe from a
    format-1 record, without configuration and provenance)."""
    described = (
        "configuration",
        "epoch_cap",
        "provenance",
        "hardware",
        "commands",
        "per_seed",
        "record_format",
    )
    a, b = ({k: v for k, v in s.items() if k not in described} for s in (a, b))
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _completeness(run_set):
    """Sort key, most complete first: most seeds, then the registered schedule over an epoch
    cap (a run set that does not record `epoch_cap` counts as capped), then the most epochs
    run."""
    registered = "epoch_cap" in run_set and run_set["epoch_cap"] is None
    return (-run_set["runs"], not registered, -max(run_set.get("epochs_run") or [0]))


def keep_earlier_results(rows, earlier):
    """`rows` (this command's runs) merged with the same rows of `earlier` (the table's previous
    JSON record), so that a command that trains some rows, other seeds or another epoch cap
    neither erases nor hides a more complete result.

    Per row, the run sets are this command's and those of the record. This command's seeds join
    a recorded run set of their configuration (a seed in both takes this command's result), so
    the seeds of one configuration may be trained by several commands, on several machines.
    A recorded run set without per-seed results ("per_seed") cannot be joined: this command's
    replaces it unless that one has more seeds; then, where their seeds differ, this command's
    is kept beside it. The row shows the most complete run set (`_completeness`; ties show this
    command's) and lists the others in "other_configurations".
    """
    by_name = {row["name"]: row for row in earlier or []}
    return [_merge(row, by_name.get(row["name"])) for row in rows]


def _merge(row, earlier):
    run_sets = []
    if earlier:
        run_sets = [_run_set(earlier)] + earlier.get("other_configurations", [])
        run_sets = [s for s in run_sets if s.get("runs")]
    current = _run_set(row)
    if current["runs"]:
        same = [
            i
            for i, s in enumerate(run_sets)
            if _same_runs(s, current)
            or (s.get("configuration") and s.get("configuration") == current["configuration"])
        ]
        if not same:
            run_sets.insert(1, current)
        else:
            recorded = run_sets[same[0]]
            current = _with_recorded_seeds(current, recorded)
            if current["runs"] >= recorded["runs"]:
                run_sets[same[0]] = current
            elif not set(current["seeds"]) & set(recorded.get("seeds", [])):
                # Other seeds of a run set recorded without per-seed results: they cannot be
                # joined to it, so they are kept beside it rather than lost.
                run_sets.insert(1, current)
    if not run_sets:
        return row
    # Ties go to this command's runs: a rerun at today's defaults (e.g. the paper's width)
    # with as many seeds shows, the earlier configuration is listed under the table.
    shown, *others = sorted(run_sets, key=lambda s: (_completeness(s), s is not current))
    if shown is current and not others and current["runs"] == row["runs"]:
        return row
    merged = {k: v for k, v in row.items() if k in _ROW_FIELDS}
    merged.update(shown)
    if others:
        merged["other_configurations"] = others
    return merged


def recorded_runs(record):
    """{(row name, configuration, seed)} of the runs whose results a table's JSON record (its
    rows, as `collect` and `keep_earlier_results` write them) keeps per seed."""
    return {
        (row["name"], run_set["configuration"], result["seed"])
        for row in record
        for run_set in [row] + row.get("other_configurations", [])
        for result in run_set.get("per_seed", [])
    }


def _with_recorded_seeds(current, recorded):
    """`current` joined by the seeds of `recorded`, a run set of its configuration, that it
    did not train (this command's seed wins where both have it). Only run sets that keep their
    seeds' results (`per_seed`) can be joined; otherwise `current` as it is."""
    if "per_seed" not in current or "per_seed" not in recorded:
        return current
    added = [r for r in recorded["per_seed"] if r["seed"] not in current["seeds"]]
    if not added:
        return current
    per_seed = sorted(current["per_seed"] + added, key=lambda r: r["seed"])
    seeds = [r["seed"] for r in per_seed]
    origins = {p["seed"]: p for p in recorded.get("provenance", [])}
    origins.update({p["seed"]: p for p in current.get("provenance", [])})
    return {
        **current,
        **_averages(per_seed),
        "seeds": seeds,
        "runs": len(per_seed),
        "epochs_run": [r["epochs_run"] for r in per_seed],
        "best_epoch": [r["best_epoch"] for r in per_seed],
        "provenance": [origins[s] for s in seeds if s in origins],
        "per_seed": per_seed,
    }


def table_record_path(results_dir, table, scale):
    return pathlib.Path(results_dir) / f"{table}-{scale}.json"


def run_sets_of(results_dir, table, scale, row):
    """Every run set of registered row `row` in the JSON record results/<table>-<scale>.json
    (its shown one first, then its other configurations), as `upgrade` reads them."""
    record = read_json(table_record_path(results_dir, table, scale), [])
    return [
        upgrade(run_set)
        for found in record
        if found["name"] == row
        for run_set in [_run_set(found)] + found.get("other_configurations", [])
    ]


def run_set_of(results_dir, table, scale, row, config):
    """The run set of registered row `row` under `config` (a prediction record's config,
    "low-resource-e300-epochs6": the run directories' name without the seed) in the JSON record
    results/<table>-<scale>.json; None when the record holds none (run sets of format 1 do not
    name their configuration)."""
    for run_set in run_sets_of(results_dir, table, scale, row):
        if run_set.get("configuration", "").replace("-seed*", "") == config:
            return run_set
    return None
