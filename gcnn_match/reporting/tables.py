"""Paper-vs-ours tables from run directories, as markdown and JSON.

Each row shows the paper's number, ours (mean ± sample standard deviation over the finished
seeds), the delta, the scale and data actually used, the vectors, seconds per epoch, the epochs
its seeds ran against the row's registered schedule (with the cap a command set) and the
hardware; a row that was not run says so.

A row shows one configuration of its runs, the most complete one (`_completeness`); the others
stay in the table's JSON record and are listed under the table. Each run keeps its seed, machine
and command, so the table names every machine and command behind what it shows, and a time
ratio compares only runs that one command trained on one machine.
"""

import datetime
import json
import pathlib
import re
import shlex

import numpy as np
import pandas as pd

from gcnn_match.experiments.registry import table_id
from gcnn_match.files import write_atomic
from gcnn_match.training.ensemble import ensemble_metrics
from gcnn_match.training.metrics import is_headline_metric
from gcnn_match.training.run_dir import read_json

SCALE_NOTES = {
    "full": "full: official train split, selection on dev",
    "low-resource": "low-resource: trained on official dev minus a 10% held-out part "
    "(grouped by shared sentences, used for selection), tested on official test",
    "smoke": "smoke: a small part of the data (sizes in each row) for a couple of epochs, a "
    "pipeline check, not a result: most rows leave chance, rows that start slowly may not",
}


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
_NOT_RECORDED = "unknown (run without environment.json)"


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
                scale=first["scale"],
                embeddings=first["embeddings"],
                examples=first["examples"],
                trainable_params=first["trainable_params"],
                trainable_params_without_embeddings=first["trainable_params_without_embeddings"],
                epochs_run=[m["epochs_run"] for m in runs],
                best_epoch=[m["best_epoch"] for m in runs],
                configuration=configuration(dirs[0]),
                provenance=provenance,
            )
            if not config.ensemble_size:
                row["per_seed"] = [_seed_result(m) for m in runs]
            if epochs is not None:  # else unknown, as in records that predate `epoch_cap`
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
    different commands (or sittings, once their run directories are gone) make one run set."""
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


def _origins(run_set):
    """(seed, machine, command) of each run of a run set. Records written before runs kept
    their provenance name one machine and the set of commands of the row, so there a seed's
    command is known only when the row has one."""
    if "provenance" in run_set:
        return [(p["seed"], p["machine"], p["command"]) for p in run_set["provenance"]]
    commands = run_set.get("commands") or [None]
    command = commands[0] if len(commands) == 1 else None
    return [(seed, run_set.get("hardware"), command) for seed in run_set.get("seeds", [])]


def _machines(run_set):
    return list(dict.fromkeys(machine or "not recorded" for _, machine, _ in _origins(run_set)))


def _commands(run_set):
    if "provenance" not in run_set:
        return run_set.get("commands", [])
    return list(dict.fromkeys(command or _NOT_RECORDED for _, _, command in _origins(run_set)))


def _run_set(row):
    return {k: v for k, v in row.items() if k not in _ROW_FIELDS + ("other_configurations",)}


def _same_runs(a, b):
    """Whether two run sets hold the same results (the same runs read twice, maybe from a
    record written before runs kept their configuration and provenance)."""
    described = ("configuration", "epoch_cap", "provenance", "hardware", "commands", "per_seed")
    a, b = ({k: v for k, v in s.items() if k not in described} for s in (a, b))
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _completeness(run_set):
    """Sort key, most complete first: most seeds, then the registered schedule over an epoch
    cap (a record that predates `epoch_cap` counts as capped), then the most epochs run."""
    registered = "epoch_cap" in run_set and run_set["epoch_cap"] is None
    return (-run_set["runs"], not registered, -max(run_set.get("epochs_run") or [0]))


def keep_earlier_results(rows, earlier):
    """`rows` (this command's runs) merged with the same rows of `earlier` (the table's previous
    JSON record), so that a command that trains some rows, other seeds or another epoch cap
    neither erases nor hides a more complete result.

    Per row, the run sets are this command's and those of the record. This command's seeds join
    a recorded run set of their configuration (a seed in both takes this command's result), so
    the seeds of one configuration may be trained by several commands, in several sittings.
    A recorded run set that predates per-seed results cannot be joined: this command's replaces
    it unless that one has more seeds; then, where their seeds differ, this command's is kept
    beside it. The row shows the most complete run set (`_completeness`; ties show this
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


def _pct(value):
    return "–" if value is None else f"{100 * value:.2f}"


def _fmt(mean_std, scale=100.0, digits=2):
    mean, std = mean_std if mean_std else (None, None)
    if mean is None:
        return "not run"
    text = f"{scale * mean:.{digits}f}"
    return text + (f" ± {scale * std:.{digits}f}" if std else "")


def _epochs(row):
    if not row.get("best_epoch"):
        return "–"
    return ", ".join(f"{b}/{r}" for b, r in zip(row["best_epoch"], row["epochs_run"]))


_UNKNOWN_CAP = "unknown"


def run_of_registered(epochs_run, registered, cap=None):
    """ "12–20 / 20": the epochs a row's seeds ran / its registered schedule, with the cap a
    command set below the schedule ("6 / 20 (cap 6)"; "(cap unknown)" for _UNKNOWN_CAP)."""
    low, high = min(epochs_run), max(epochs_run)
    text = f"{low}" if low == high else f"{low}–{high}"
    return f"{text} / {registered}" + ("" if cap is None else f" (cap {cap})")


def _run_epochs(row):
    if not row.get("epochs_run"):
        return "–"
    registered = row["registered_epochs"]
    return run_of_registered(row["epochs_run"], registered, _epoch_cap(row, registered))


def _epoch_cap(run_set, registered):
    """The epochs a command capped a run set at: None for the registered schedule, _UNKNOWN_CAP
    where it cannot be told. A record that predates `epoch_cap` tells it by its commands, when
    all of them set one number of epochs."""
    if "epoch_cap" in run_set:
        return run_set["epoch_cap"]
    commands = _commands(run_set)
    if not commands or _NOT_RECORDED in commands:
        return _UNKNOWN_CAP
    caps = {_commanded_epochs(command) for command in commands}
    if len(caps) > 1:
        return _UNKNOWN_CAP
    cap = caps.pop()
    return None if cap in (None, registered) else cap


def _commanded_epochs(command):
    """The epochs a command line set (`--override=epochs=N` wins over `--epochs=N`), or None."""
    for pattern in (r"--override[= ]epochs=(\d+)", r"--epochs[= ](\d+)"):
        found = re.findall(pattern, command)
        if found:
            return int(found[-1])
    return None


def _seeds(row):
    size = row.get("ensemble_size")
    return f"vote of {size}" if size and row["runs"] else row["runs"] or 0


def _vectors(summary):
    """Short form of an embeddings summary: source, dimension and token coverage."""
    if not summary or summary == "–":
        return "–"
    match = re.match(r"([^:]+): (\d+d[^,;]*)?.*?([\d.]+% of tokens)?(?:;|$)", summary)
    stand_in = re.search(r"\[stand-in: (.*?)\]", summary)
    parts = [p for p in (match.group(2), match.group(3)) if p] if match else []
    text = f"{match.group(1) if match else summary} ({', '.join(parts)})" if parts else summary
    return text + (f"; stand-in, {stand_in.group(1)}" if stand_in else "")


def _label(key):
    return key.replace("_", " ")


def render_markdown(rows, title=None, command=None, paper_column=True, notes=True):
    """A markdown table: for each (paper key, our key) pair of the rows' `compare` field, the
    paper's value, ours (mean ± std over seeds) and the delta; then time per epoch, epochs,
    parameters, data sizes and vectors. `paper_column=False` (the rows run on data of your
    own): ours only, without the papers' values, deltas, timings and protocol notes.
    `notes=False` (REPRODUCTION.md, which states its caveats once at the top): the machines on
    one line, the commands of seeds trained one by one on one line, and neither the notes on
    the scale, the columns and the paper's numbers nor the other configurations (its appendix
    lists those of every table, `render_other_configurations`)."""
    compare = rows[0]["compare"] if rows else []
    lines = []
    if title:
        lines += [f"### {title}", ""]
    if command:
        lines += [f"Rendered by `{command}` on {datetime.date.today().isoformat()}.", ""]
    if paper_column:
        metric_head = "".join(f"| paper: {_label(p)} | ours: {_label(o)} | Δ " for p, o in compare)
        time_head = "| time/epoch paper (s) | time/epoch ours (s) "
    else:
        metric_head = "".join(f"| {_label(o)} " for _, o in compare)
        time_head = "| time/epoch (s) "
    head = (
        f"| row {metric_head}| seeds {time_head}"
        "| best / run epochs | run / registered epochs | params (non-emb.) "
        "| data (train/dev/test) | vectors |"
    )
    columns = 9 + 3 * len(compare) if paper_column else 8 + len(compare)
    lines += [head, "|" + "---|" * columns]
    scales = set()
    for row in rows:
        cells = []
        for paper_key, our_key in compare:
            paper, ours = row["targets"].get(paper_key), row.get(our_key)
            if not paper_column:
                cells.append(f"| {_fmt(ours)} ")
                continue
            delta = "–"
            if paper is not None and ours and ours[0] is not None:
                delta = f"{100 * (ours[0] - paper):+.2f}"
            cells.append(f"| {_pct(paper)} | {_fmt(ours)} | {delta} ")
        examples = row.get("examples")
        data = (
            "/".join(str(examples.get(k, "–")) for k in ("train", "dev", "test"))
            if examples
            else "–"
        )
        seconds = row.get("seconds_per_epoch")
        params = row.get("trainable_params_without_embeddings")
        paper_time = f"| {row['targets'].get('seconds_per_epoch', '–')} " if paper_column else ""
        lines.append(
            f"| {row['row']} {''.join(cells)}| {_seeds(row)} {paper_time}"
            f"| {_fmt(seconds, 1.0, 1) if seconds else 'not run'} | {_epochs(row)} "
            f"| {_run_epochs(row)} | {f'{params:,}' if params else '–'} | {data} "
            f"| {_vectors(row.get('embeddings'))} |"
        )
        if row.get("scale"):
            scales.add(row["scale"])
    lines.append("")
    if not notes:
        lines += _machines_line(rows)
        trained_by = _commands_by_seeds(rows)
        if trained_by:
            lines += ["", "Runs trained by:", ""] + [f"- {c}" for c in trained_by]
        return "\n".join(lines) + "\n"
    for scale in sorted(scales) if paper_column else ():
        lines.append(f"- Scale: {SCALE_NOTES[scale]}.")
    lines += _column_notes(rows) + _hardware(rows, paper_column) + _paper_notes(rows)
    trained_by = list(dict.fromkeys(c for row in rows if row["runs"] for c in _commands(row)))
    if trained_by:
        lines += ["", "Runs trained by:", ""] + [f"- `{c}`" for c in trained_by]
    return "\n".join(lines + _other_configurations(rows)) + "\n"


_SEEDS_FLAG = re.compile(r"--seeds[= ]\S+")


def _commands_by_seeds(rows):
    """The commands that trained the shown runs, as markdown; commands that differ only in
    `--seeds` share one line ("`cmd --seeds=1`, and the same with `--seeds=2`, ...")."""
    commands = list(dict.fromkeys(c for row in rows if row["runs"] for c in _commands(row)))
    groups = {}
    for command in commands:
        groups.setdefault(_SEEDS_FLAG.sub("--seeds", command), []).append(command)
    lines = []
    for group in groups.values():
        first, *others = group
        seeds = ", ".join(f"`{_SEEDS_FLAG.search(c).group()}`" for c in others)
        lines.append(f"`{first}`" + (f", and the same with {seeds}" if others else ""))
    return lines


def _column_notes(rows):
    """What the epochs columns and ± say, once per table whose rows have run."""
    if not any(row["runs"] for row in rows):
        return []
    lines = [
        "- Epochs: *best / run*, per seed, the epoch selected on the held-out part and the last "
        "one trained; *run / registered*, the epochs the seeds trained against the row's "
        "registered schedule, with the cap a command set below it (`--epochs`; unknown where "
        "the record does not say). Fewer epochs than both: early stopping."
    ]
    run_sets = rows + [s for row in rows for s in row.get("other_configurations", [])]
    if any(s["runs"] > 1 for s in run_sets):
        lines.append(
            "- ±: the sample standard deviation (n − 1 in the denominator) over the row's seeds."
        )
    return lines


def _machine_list(rows):
    """Each machine behind the shown rows once (with its rows when several)."""
    rows_of = {}
    for row in rows:
        for machine in _machines(row):
            rows_of.setdefault(machine, []).append(row["row"])
    machines = list(rows_of)
    if len(machines) > 1:
        machines = [f"{m} for {', '.join(rows_of[m])}" for m in machines]
    return machines


def _machines_line(rows):
    machines = _machine_list(rows)
    return [f"- Machine: {'; '.join(machines)}."] if machines else []


def _hardware(rows, paper_column=True):
    """One line naming each machine behind the shown rows once (with its rows when several)."""
    machines = _machine_list(rows)
    if not machines:
        return []
    paper_timings = "; paper timings are from its own GPU" if paper_column else ""
    return [
        f"- Our hardware: {'; '.join(machines)}{paper_timings}. Ours is "
        "the median epoch of each run, rows run one after another; other jobs may have shared "
        "the CPU, so compare speed with the side-by-side measurements of BENCHMARKS.md "
        "(`make bench`)."
    ]


def _paper_notes(rows):
    """The rows' notes on the paper's numbers, each sentence once: those every row shares,
    then those of some rows, named."""
    rows_of = {}
    for row in rows:
        for sentence in re.split(r"(?<=\.)\s+(?=[^a-z0-9\s])", row["target_notes"]):
            if sentence:
                rows_of.setdefault(sentence.rstrip("."), []).append(row["row"])
    sentences_of = {}
    for sentence, having in rows_of.items():
        sentences_of.setdefault(tuple(having), []).append(sentence)
    every_row = tuple(row["row"] for row in rows)
    lines = []
    for having, sentences in sentences_of.items():
        which = "" if having == every_row else f" ({', '.join(having)})"
        lines.append(f"- Paper numbers{which}: {'. '.join(sentences)}.")
    return lines


def _other_configurations(rows):
    """The run sets each row keeps in its record but does not show."""
    others = [(row, s) for row in rows for s in row.get("other_configurations", [])]
    if not others:
        return []
    lines = [f"- {row['row']}: {_describe(run_set, row)}" for row, run_set in others]
    record = f"results/{others[0][0]['table_id']}-{others[0][1]['scale']}.json"
    return [
        "",
        f"Other configurations of these rows, kept in `{record}`, not shown above:",
        "",
    ] + lines


def _describe(run_set, row):
    """Seeds, epochs, results, machines and commands of a run set, in one line."""
    seeds = run_set["seeds"]
    if row.get("ensemble_size"):
        text = f"vote of {row['ensemble_size']}"
    else:
        text = f"seed{'s' if len(seeds) > 1 else ''} {', '.join(map(str, seeds))}"
    if "epoch_cap" in run_set:
        cap = run_set["epoch_cap"]
        text += ", registered schedule" if cap is None else f", at most {cap} epochs"
    results = [f"{_label(our)} {_fmt(run_set.get(our))}" for _, our in row["compare"]]
    if run_set.get("seconds_per_epoch"):
        results.append(f"{_fmt(run_set['seconds_per_epoch'], 1.0, 1)} s/epoch")
    commands = "; ".join(f"`{c}`" for c in _commands(run_set)) or "not recorded"
    return (
        f"{text} (best / run epochs {_epochs(run_set)}): {', '.join(results)}; "
        f"on {', '.join(_machines(run_set))}; trained by {commands}"
    )


def render_other_configurations(records):
    """One table of the run sets that records keep but their tables do not show, with why
    each is not the shown one ("" when there is none). `records` maps (table id, scale) to a
    table's rows."""
    lines = []
    for (table, scale), rows in records.items():
        for row in rows:
            for run_set in row.get("other_configurations", []):
                results = [f"{_label(our)} {_fmt(run_set.get(our))}" for _, our in row["compare"]]
                lines.append(
                    f"| `{table}-{scale}` | {row['row']} | {_configuration(run_set, row)} "
                    f"| {', '.join(map(str, run_set['seeds']))} | {', '.join(results)} "
                    f"| {_why_not_shown(run_set, row)} |"
                )
    if not lines:
        return ""
    head = [
        "| table | row | configuration | seeds | result | why not the one shown |",
        "|---|---|---|---|---|---|",
    ]
    return "\n".join(head + lines) + "\n"


def _configuration(run_set, row):
    """The run set's vectors and the epochs it ran against the registered ones."""
    epochs = run_set.get("epochs_run") or [0]
    cap = _epoch_cap(run_set, row["registered_epochs"])
    epochs = run_of_registered(epochs, row["registered_epochs"], cap)
    return f"{_width(run_set)} vectors, {epochs} epochs"


def _width(run_set):
    """The width the run set's vectors were read at ("50d", "50d padded to 300d")."""
    found = re.search(r"\d+d(?: padded to \d+d)?", run_set.get("embeddings") or "")
    return found.group() if found else "unrecorded"


def _why_not_shown(run_set, shown):
    """Why `_completeness` ranks `run_set` after the run set its row shows."""
    if run_set["runs"] < shown["runs"]:
        return f"{run_set['runs']} seed{'s' * (run_set['runs'] > 1)} against {shown['runs']}"
    capped = _epoch_cap(run_set, shown["registered_epochs"]) is not None
    if capped and _epoch_cap(shown, shown["registered_epochs"]) is None:
        return "capped below the registered schedule, which the shown runs trained"
    if max(run_set.get("epochs_run") or [0]) < max(shown.get("epochs_run") or [0]):
        return "fewer epochs than the shown runs"
    if _width(run_set) != _width(shown):
        return f"as complete; the shown runs read the vectors at the row's width ({_width(shown)})"
    return "as complete; the shown runs are the record's last"


def render_time_ratios(rows, pairs):
    """Time-per-epoch ratios of row pairs, ours beside the paper's. Ours compares only runs
    that one command trained on one machine, seed by seed; otherwise it says why not."""
    if not pairs:
        return ""
    by_row = {row["row"]: row for row in rows}
    lines = ["", "| time ratio | paper | ours |", "|---|---|---|"]
    for slow, fast in pairs:
        paper = ours = "–"
        if slow in by_row and fast in by_row:
            ps, pf = (by_row[r]["targets"].get("seconds_per_epoch") for r in (slow, fast))
            if ps and pf:
                paper = f"{ps / pf:.2f}"
            ours = _time_ratio(by_row[slow], by_row[fast])
        lines.append(f"| {slow} / {fast} | {paper} | {ours} |")
    return "\n".join(lines) + "\n"


def _time_ratio(slow, fast):
    times = [row.get("seconds_per_epoch") for row in (slow, fast)]
    if not all(t and t[0] for t in times):
        return "not run"
    origins = [_origins(row) for row in (slow, fast)]
    if any(None in origin for runs in origins for origin in runs):
        return "– (which command trained each run is not recorded)"
    if len({machine for runs in origins for _, machine, _ in runs}) > 1:
        return "– (runs from different machines)"
    by_seed = [{seed: command for seed, _, command in runs} for runs in origins]
    if by_seed[0].keys() != by_seed[1].keys():
        return "– (runs of different seeds)"
    if by_seed[0] != by_seed[1]:
        return "– (runs from different commands)"
    return f"{times[0][0] / times[1][0]:.2f}"


def update_section(path, key, markdown, heading="# Reproduction results"):
    """Replaces the block between `<!-- begin KEY -->` and `<!-- end KEY -->` (or appends)."""
    begin, end = f"<!-- begin {key} -->", f"<!-- end {key} -->"
    text = path.read_text("utf-8") if path.exists() else heading + "\n"
    block = f"{begin}\n{markdown}{end}"
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    text = (
        pattern.sub(lambda _: block, text)
        if pattern.search(text)
        else text.rstrip("\n") + "\n\n" + block + "\n"
    )
    write_atomic(path, text.encode("utf-8"))


def write_json(path, rows):
    write_atomic(path, (json.dumps(rows, indent=2, sort_keys=True) + "\n").encode("utf-8"))
