"""Training curves of one run, drawn from its `epochs.jsonl`.

    write_run_curves("runs/gcnn/quora/gcnn/low-resource-seed1")
    # -> runs/.../figures/training_curves.png

Three panels over epochs: the training loss; the dev (selection) metrics beside the training
accuracy, with the selected epoch marked; the learning rate (ESIM's halvings, COIN's decay).
"""

import math

from matplotlib.figure import Figure

from gcnn_match.files import read_json
from gcnn_match.reporting.heatmaps import save_png
from gcnn_match.training.run_dir import RunDirectory

FIGURE_NAME = "training_curves.png"


def _series(records, key):
    """The values of `key` per epoch; a missing value is NaN (a gap in the line)."""
    values = []
    for record in records:
        value = record.get(key)
        values.append(math.nan if value is None else float(value))
    return values


def training_curves(records, title=None, select_metric=None):
    """The figure for `records` (epoch records as `RunMonitor` writes them).

    The lines hold exactly the recorded values: axes[0] `train_loss`; axes[1] every `dev_*`
    metric, then `train_accuracy`; axes[2] `learning_rate`. The epoch selected on
    `dev_<select_metric>` (the last record flagged `best`) is marked on every panel.
    """
    if not records:
        raise ValueError("no epoch records to plot")
    epochs = [record["epoch"] for record in records]
    figure = Figure(figsize=(12, 3.6))
    loss_axes, metric_axes, rate_axes = figure.subplots(1, 3)

    loss_axes.plot(epochs, _series(records, "train_loss"), marker="o", label="train loss")
    loss_axes.set_title("training loss")

    dev_keys = sorted({key for record in records for key in record if key.startswith("dev_")})
    for key in dev_keys:
        width = 2.2 if select_metric and key == f"dev_{select_metric}" else 1.2
        metric_axes.plot(
            epochs, _series(records, key), marker="o", linewidth=width, label=key.replace("_", " ")
        )
    if any(record.get("train_accuracy") is not None for record in records):
        metric_axes.plot(
            epochs,
            _series(records, "train_accuracy"),
            linestyle="--",
            color="gray",
            label="train accuracy",
        )
    metric_axes.set_title(
        "dev metrics" + (f" (selection: {select_metric})" if select_metric else "")
    )
    metric_axes.legend(fontsize="small")

    rates = _series(records, "learning_rate")
    rate_axes.plot(epochs, rates, marker="o")
    if all(rate > 0 for rate in rates) and max(rates) > 3 * min(rates):
        rate_axes.set_yscale("log")  # halvings and decays read as steps
    rate_axes.set_title("learning rate")

    best = [record["epoch"] for record in records if record.get("best")]
    for axes in (loss_axes, metric_axes, rate_axes):
        axes.set_xlabel("epoch")
        axes.set_xticks(epochs if len(epochs) <= 20 else epochs[:: max(1, len(epochs) // 10)])
        if best:
            axes.axvline(best[-1], color="green", alpha=0.3, linewidth=4)
    if best:
        loss_axes.text(
            0.98,
            0.95,
            f"selected: epoch {best[-1]}",
            transform=loss_axes.transAxes,
            ha="right",
            va="top",
            fontsize="small",
            color="green",
        )
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    return figure


def write_run_curves(run_dir, force=False):
    """Writes `<run_dir>/figures/training_curves.png`; returns its path, or None when the run
    has no finished epoch yet. Skips an existing figure newer than `epochs.jsonl` unless
    `force`."""
    run = RunDirectory(run_dir)
    records = run.epochs()
    if not records:
        return None
    path = run / "figures" / FIGURE_NAME
    epochs_file = run / "epochs.jsonl"
    if not force and path.exists() and path.stat().st_mtime_ns >= epochs_file.stat().st_mtime_ns:
        return path
    config = read_json(run / "config.json", {})
    title = (
        f"{config.get('name', run.path.name)} ({config.get('scale', '?')}, "
        f"seed {config.get('seed', '?')})"
    )
    figure = training_curves(records, title=title, select_metric=config.get("select_metric"))
    return save_png(figure, path)
