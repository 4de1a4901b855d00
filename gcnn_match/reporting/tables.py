"""Paper-vs-ours tables from run directories, as markdown and JSON.

Each row shows the paper's number, ours (mean ± std over the finished seeds), the delta, the
scale and data actually used, the vectors, seconds per epoch and the hardware; a row that was
not run says so.
"""

import datetime
import json
import pathlib
import re
import shlex

import numpy as np

from gcnn_match.experiments.registry import table_id
from gcnn_match.files import write_atomic
from gcnn_match.training.ensemble import ensemble_metrics
from gcnn_match.training.metrics import is_headline_metric
from gcnn_match.training.run_dir import read_json

SCALE_NOTES = {
    "full": "full: official train split, selection on dev",
    "low-resource": "low-resource: trained on official dev minus a 10% held-out part "
    "(grouped by shared sentences, used for selection), tested on official test",
    "smoke": "smoke: a few hundred examples, one epoch (pipeline check, not a result)",
}


def _mean_std(values):
    if not values:
        return None, None
    arr = np.asarray(values, dtype=float)
    return float(arr.mean()), float(arr.std(ddof=1)) if len(arr) > 1 else 0.0


def collect(configs, run_dirs):
    """Rows for `configs`; `run_dirs[name]` lists the run directories of that row's seeds."""
    rows = []
    for config in configs:
        runs = [read_json(d / "metrics.json") for d in run_dirs.get(config.name, [])]
        runs = [m for m in runs if m is not None]
        if config.ensemble_size:
            runs = [_vote(run_dirs[config.name], runs)] if len(runs) == config.ensemble_size else []
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
        }
        metric_keys = sorted(
            {
                k
                for m in runs
                for k in m
                if is_headline_metric(k) or k in ("seconds_per_epoch", "train_examples_per_second")
            }
        )
        for key in metric_keys:
            values = [m[key] for m in runs if m.get(key) is not None]
            row[key] = _mean_std(values)
        if runs:
            first = runs[0]
            row.update(
                scale=first["scale"],
                embeddings=first["embeddings"],
                examples=first["examples"],
                trainable_params=first["trainable_params"],
                trainable_params_without_embeddings=first["trainable_params_without_embeddings"],
                epochs_run=[m["epochs_run"] for m in runs],
                best_epoch=[m["best_epoch"] for m in runs],
            )
            env = read_json(run_dirs[config.name][0] / "environment.json", {})
            row["hardware"] = f"{env.get('cpu', '?')} ({env.get('cpu_count', '?')} cores)"
            row["commands"] = list(
                dict.fromkeys(
                    _command(read_json(d / "environment.json", {}).get("argv"))
                    for d in run_dirs[config.name]
                    if (d / "metrics.json").exists()
                )
            )
        rows.append(row)
    return rows


def keep_earlier_results(rows, earlier):
    """`rows` where each row without finished runs is replaced by the same row of `earlier`
    (the table's previous JSON record) if that one has runs: a command that trains some rows
    of a table (another seed set, another epoch cap) re-renders the whole table without
    erasing the results of the others. Each kept row still lists the commands that trained it.
    """
    by_name = {row["name"]: row for row in earlier or [] if row.get("runs")}
    return [by_name.get(row["name"], row) if not row.get("runs") else row for row in rows]


def _command(argv):
    """The command line that trained a run, as typed from the repository root."""
    if not argv:
        return "unknown (run without environment.json)"
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


def render_markdown(rows, title=None, command=None, paper_column=True):
    """A markdown table: for each (paper key, our key) pair of the rows' `compare` field, the
    paper's value, ours (mean ± std over seeds) and the delta; then time per epoch, epochs,
    parameters, data sizes and vectors. `paper_column=False` (the rows run on data of your
    own): ours only, without the papers' values, deltas, timings and protocol notes."""
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
        "| best / run epochs | params (non-emb.) | data (train/dev/test) | vectors |"
    )
    columns = 8 + 3 * len(compare) if paper_column else 7 + len(compare)
    lines += [head, "|" + "---|" * columns]
    scales, hardware = set(), set()
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
            f"| {f'{params:,}' if params else '–'} | {data} | {_vectors(row.get('embeddings'))} |"
        )
        if row.get("scale"):
            scales.add(row["scale"])
        if row.get("hardware"):
            hardware.add(row["hardware"])
    lines.append("")
    for scale in sorted(scales) if paper_column else ():
        lines.append(f"- Scale: {SCALE_NOTES[scale]}.")
    for hw in sorted(hardware):
        paper_timings = "; paper timings are from its own GPU" if paper_column else ""
        lines.append(
            f"- Our hardware: {hw}{paper_timings}. Ours is the "
            "median epoch of each run, rows run one after another; other jobs may "
            "have shared the CPU, so compare speed with the side-by-side "
            "measurements of BENCHMARKS.md (`make bench`)."
        )
    for note in sorted({row["target_notes"] for row in rows if row["target_notes"]}):
        lines.append(f"- Paper numbers: {note.rstrip('.')}.")
    trained_by = list(dict.fromkeys(c for row in rows for c in row.get("commands", [])))
    if trained_by:
        lines += ["", "Runs trained by:", ""] + [f"- `{c}`" for c in trained_by]
    return "\n".join(lines) + "\n"


def render_time_ratios(rows, pairs):
    """Time-per-epoch ratios of row pairs, ours (same machine, same run) beside the paper's."""
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
            os_, of = (by_row[r].get("seconds_per_epoch") for r in (slow, fast))
            if os_ and of and os_[0] and of[0]:
                ours = f"{os_[0] / of[0]:.2f}"
            else:
                ours = "not run"
        lines.append(f"| {slow} / {fast} | {paper} | {ours} |")
    return "\n".join(lines) + "\n"


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
