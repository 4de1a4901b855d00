"""Whole training epochs timed by `train.py` itself: the record of one row, and the report.

The first epoch also traces or compiles every batch shape, so the epochs after it are the steady
state that the time ratios use (`experiments/epoch_times.py` runs at least two). With three or
more, each later epoch is a repeat: the report gives their mean and spread, and the range of the
ratios taken epoch by epoch.
"""

import json
import pathlib
import statistics

from gcnn_match.files import read_json
from gcnn_match.reporting.bench_report import paper_time_ratio


def row_record(config, run_dir):
    """What a finished run directory says about the speed of `config`'s row."""
    run_dir = pathlib.Path(run_dir)
    lines = (run_dir / "epochs.jsonl").read_text("utf-8").splitlines()
    resolved = read_json(run_dir / "config.json")
    return {
        "row": config.row,
        "name": config.name,
        "jit_compile": resolved.get("jit_compile"),
        "padding": resolved.get("padding"),
        "batch_size": resolved.get("batch_size"),
        "epochs": [
            {k: e[k] for k in ("epoch", "train_seconds", "eval_seconds")}
            for e in map(json.loads, lines)
        ],
        "environment": read_json(run_dir / "environment.json"),
    }


def measured_on(rows):
    """The Keras backend and the device (its GPUs, else its CPU) that the timed rows' runs
    recorded, joined where they differ."""
    envs = [row["environment"] or {} for row in rows]
    backends = [env.get("keras_backend") or "unknown" for env in envs]
    devices = [", ".join(env.get("gpus") or []) or env.get("cpu") or "unknown" for env in envs]
    return {
        "keras_backend": " / ".join(dict.fromkeys(backends)),
        "device": " / ".join(dict.fromkeys(devices)),
    }


def _steady_epochs(row):
    """The epochs after the first (which also compiles)."""
    return row["epochs"][1:]


def _steady_seconds(row):
    """Training seconds of the steady-state epochs."""
    return [e["train_seconds"] for e in _steady_epochs(row)]


def _seconds_cell(row):
    """Mean (± sample standard deviation) of the epochs after the first."""
    seconds, epochs = _steady_seconds(row), [e["epoch"] for e in _steady_epochs(row)]
    mean = statistics.mean(seconds)
    digits = 2 if mean < 10 else 1  # GPU epochs of under a second keep their spread visible
    if len(seconds) == 1:
        return f"{mean:.{digits}f} (epoch {epochs[0]})"
    return (
        f"{mean:.{digits}f} ± {statistics.stdev(seconds):.{digits}f} "
        f"(epochs {epochs[0]}–{epochs[-1]})"
    )


def _ratio_cell(slow, fast):
    """Ratio of the steady-state means and, with repeats, the range of the epoch-by-epoch
    ratios, both over the epochs that the two rows ran (a run may stop early)."""
    a, b = _steady_seconds(slow), _steady_seconds(fast)
    a, b = a[: len(b)], b[: len(a)]
    cell = f"{statistics.mean(a) / statistics.mean(b):.2f}"
    per_epoch = [x / y for x, y in zip(a, b)]
    if len(per_epoch) > 1:
        cell += f" (epoch by epoch {min(per_epoch):.2f}–{max(per_epoch):.2f})"
    return cell


def render(record, configs, time_ratios):
    """Markdown: one line per timed row, then the paper's time ratios beside ours.

    Args:
        record: what `experiments/epoch_times.py` wrote: the rows asked for (`requested`) and
            those whose run finished (`rows`, in the order they ran).
        configs: the table's registered configs (their `seconds_per_epoch` targets).
        time_ratios: (slower row, faster row) pairs, as `registry.time_ratios` gives them.
    """
    cap = record.get("max_train_examples")
    lines = [
        f"## Whole epochs, Keras backend {record['keras_backend']}, {record['device']}",
        "",
        f"Produced by `{record['command']}`.",
        "",
        f"One fresh `train.py` process per row of `{record['table']}`, {record['scale']} scale"
        + (f" (first {cap} training pairs only)" if cap else "")
        + ", seed 1. Epoch 1 includes tracing or compiling every batch shape; the epochs "
        "after it are the steady state the ratios use (mean ± sample standard deviation where "
        "there are several). Evaluation (held-out and test) is timed apart.",
        "",
        "| row | jit_compile | padding | epoch 1 train s | later epochs train s | eval s |",
        "|---|---|---|---|---|---|",
    ]
    timed = {row["row"]: row for row in record["rows"]}
    for row in record["rows"]:
        first, last = row["epochs"][0], row["epochs"][-1]
        lines.append(
            f"| {row['row']} | {row['jit_compile']} | {row['padding']} | "
            f"{first['train_seconds']:.1f} | {_seconds_cell(row)} | {last['eval_seconds']:.1f} |"
        )
    lines += ["", "| time ratio | paper (GTX 1080) | ours |", "|---|---|---|"]
    for slow, fast in time_ratios:
        if not {slow, fast} <= set(record["requested"]):
            continue
        done = slow in timed and fast in timed
        ours = _ratio_cell(timed[slow], timed[fast]) if done else "– (a run did not finish)"
        lines.append(f"| {slow} / {fast} | {paper_time_ratio(configs, slow, fast)} | {ours} |")
    return "\n".join(lines) + "\n"
