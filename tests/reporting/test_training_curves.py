"""Training curves: the PNG is written next to the run and its lines hold epochs.jsonl's values."""

import json
import math
import subprocess
import sys

import pytest

from gcnn_match.files import write_json
from gcnn_match.reporting.training_curves import FIGURE_NAME, training_curves, write_run_curves
from gcnn_match.training.run_dir import RunDirectory

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
PNG = b"\x89PNG\r\n\x1a\n"
RECORDS = [
    {
        "epoch": 1,
        "train_loss": 0.69,
        "train_accuracy": 0.55,
        "dev_accuracy": 0.61,
        "dev_f1": 0.58,
        "learning_rate": 4e-4,
        "best": True,
    },
    {
        "epoch": 2,
        "train_loss": 0.52,
        "train_accuracy": 0.74,
        "dev_accuracy": 0.66,
        "dev_f1": 0.63,
        "learning_rate": 4e-4,
        "best": True,
    },
    {
        "epoch": 3,
        "train_loss": 0.41,
        "train_accuracy": 0.83,
        "dev_accuracy": 0.64,
        "dev_f1": 0.65,
        "learning_rate": 2e-4,
        "best": False,
    },
]


def _run(tmp_path, records=RECORDS):
    run = RunDirectory(tmp_path / "run").create()
    run.write_epochs(records)
    write_json(
        run / "config.json",
        {"name": "gcnn/quora/gcnn", "scale": "smoke", "seed": 3, "select_metric": "accuracy"},
    )
    return run


def _lines(axes):
    return {
        line.get_label(): (list(line.get_xdata()), list(line.get_ydata()))
        for line in axes.get_lines()
        if not line.get_label().startswith("_")
    }


def test_plotted_values_are_the_records():
    figure = training_curves(RECORDS, select_metric="accuracy")
    loss, metrics, rate = figure.axes
    epochs = [1, 2, 3]
    assert _lines(loss)["train loss"] == (epochs, [0.69, 0.52, 0.41])
    plotted = _lines(metrics)
    assert plotted["dev accuracy"] == (epochs, [0.61, 0.66, 0.64])
    assert plotted["dev f1"] == (epochs, [0.58, 0.63, 0.65])
    assert plotted["train accuracy"] == (epochs, [0.55, 0.74, 0.83])
    assert rate.get_lines()[0].get_ydata().tolist() == [4e-4, 4e-4, 2e-4]
    # The selected epoch (last flagged best) is marked on every panel.
    for axes in figure.axes:
        marks = [line for line in axes.get_lines() if list(line.get_xdata()) == [2, 2]]
        assert len(marks) == 1


def test_missing_values_are_gaps_not_zeros():
    records = [dict(RECORDS[0], train_loss=None), RECORDS[1]]
    loss = training_curves(records).axes[0]
    values = loss.get_lines()[0].get_ydata()
    assert math.isnan(values[0]) and values[1] == 0.52


def test_run_figure_is_written_and_kept_while_up_to_date(tmp_path):
    run = _run(tmp_path)
    path = write_run_curves(run.path)
    assert path == run / "figures" / FIGURE_NAME and path.read_bytes()[:8] == PNG
    stamp = path.stat().st_mtime_ns
    assert write_run_curves(run.path).stat().st_mtime_ns == stamp
    assert write_run_curves(run.path, force=True).stat().st_mtime_ns >= stamp


def test_no_epochs_yet_writes_nothing(tmp_path):
    run = RunDirectory(tmp_path / "fresh").create()
    assert write_run_curves(run.path) is None
    with pytest.raises(ValueError, match="no epoch records"):
        training_curves([])


def test_cli_draws_every_run_and_every_table(tmp_path):
    run = _run(tmp_path / "runs")
    table = [
        {
            "row": "GCNN",
            "targets": {"test_accuracy": 0.887},
            "scale": "smoke",
            "compare": [["test_accuracy", "test_accuracy"]],
            "runs": 1,
            "seeds": [1],
            "test_accuracy": [0.70, 0.0],
        }
    ]
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "gcnn-quora-smoke.json").write_text(json.dumps(table))
    (tmp_path / "results" / "bench.json").write_text(json.dumps({"results": []}))
    out = subprocess.run(
        [
            sys.executable,
            str(REPO / "experiments" / "figures.py"),
            f"--runs_dir={tmp_path / 'runs'}",
            f"--results_dir={tmp_path / 'results'}",
            f"--figures_dir={tmp_path / 'figures'}",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    assert "training curves of 1 runs, 1 table figures" in out.stdout
    assert (run / "figures" / FIGURE_NAME).read_bytes()[:8] == PNG
    assert (tmp_path / "figures" / "gcnn-quora-smoke.png").read_bytes()[:8] == PNG
    assert not (tmp_path / "figures" / "bench.png").exists()
