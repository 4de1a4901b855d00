"""The epoch-time record of a run directory and its report (ratios from the later epochs)."""

import json
import subprocess
import sys

import pytest

from gcnn_match.benchmarks.epoch_times import measured_on, render, row_record
from gcnn_match.experiments import registry


def _run_dir(path, seconds, environment=None):
    path.mkdir()
    epochs = [
        {"epoch": i + 1, "train_seconds": s, "eval_seconds": 1.5, "train_loss": 0.5}
        for i, s in enumerate(seconds)
    ]
    (path / "epochs.jsonl").write_text("".join(json.dumps(e) + "\n" for e in epochs))
    (path / "config.json").write_text(
        json.dumps({"jit_compile": True, "padding": "bucket", "batch_size": 64})
    )
    (path / "environment.json").write_text(json.dumps(environment or {"cpu": "test"}))
    return path


PAPER = {c.row: c.targets["seconds_per_epoch"] for c in registry.select(table="gcnn-quora")}


def _render(record):
    return render(record, registry.select(table="gcnn-quora"), registry.time_ratios("gcnn-quora"))


def _record(tmp_path, timings):
    tmp_path.mkdir(exist_ok=True)
    configs = {c.row: c for c in registry.select(table="gcnn-quora")}
    rows = [
        row_record(configs[row], _run_dir(tmp_path / row.replace(" ", "_"), seconds))
        for row, seconds in timings.items()
    ]
    return {
        "command": "python experiments/epoch_times.py",
        "keras_backend": "jax",
        "device": "test GPU",
        "table": "gcnn-quora",
        "scale": "low-resource",
        "max_train_examples": None,
        "requested": ["CNN", "GCNN", "ESIM (our implement)"],
        "rows": rows,
    }


def test_the_record_keeps_every_epoch_and_the_resolved_settings(tmp_path):
    record = _record(tmp_path, {"GCNN": [40.0, 8.0]})
    [row] = record["rows"]
    assert row["name"] == "gcnn/quora/gcnn"
    assert [e["train_seconds"] for e in row["epochs"]] == [40.0, 8.0]
    assert "train_loss" not in row["epochs"][0]
    assert (row["jit_compile"], row["padding"]) == (True, "bucket")


def test_the_device_is_the_one_the_runs_recorded(tmp_path):
    def row(name, environment):
        config = registry.get(f"gcnn/quora/{name}")
        return row_record(config, _run_dir(tmp_path / name, [4.0, 2.0], environment))

    gpu = {"keras_backend": "jax", "gpus": ["NVIDIA H100 80GB HBM3"], "cpu": "Xeon"}
    cnn = row("cnn", gpu)
    assert measured_on([cnn, row("gcnn", gpu)]) == {
        "keras_backend": "jax",
        "device": "NVIDIA H100 80GB HBM3",
    }
    cpu = {"keras_backend": "tensorflow", "gpus": [], "cpu": "Xeon"}
    esim = row("esim_our_implement", cpu)
    assert measured_on([esim]) == {
        "keras_backend": "tensorflow",
        "device": "Xeon",
    }
    assert measured_on([cnn, esim]) == {
        "keras_backend": "jax / tensorflow",
        "device": "NVIDIA H100 80GB HBM3 / Xeon",
    }


def test_ratios_use_the_epoch_after_the_first_beside_the_papers(tmp_path):
    timings = {"CNN": [30.0, 4.0], "GCNN": [40.0, 6.0], "ESIM (our implement)": [90.0, 15.0]}
    text = _render(_record(tmp_path, timings))
    esim_gcnn = PAPER["ESIM (our implement)"] / PAPER["GCNN"]
    assert f"| ESIM (our implement) / GCNN | {esim_gcnn:.2f} | 2.50 |" in text
    assert f"| GCNN / CNN | {PAPER['GCNN'] / PAPER['CNN']:.2f} | 1.50 |" in text
    assert "| GCNN | True | bucket | 40.0 | 6.00 (epoch 2) | 1.5 |" in text
    assert "GCNN (char) / GCNN" not in text  # GCNN (char) was not asked for


def test_repeated_epochs_give_a_mean_a_spread_and_the_range_of_epoch_ratios(tmp_path):
    # Epoch 1 (compiling) is left out: GCNN 6, 8, 10 s (mean 8, sample sd 2); CNN 2, 4, 4 s
    # (mean 10/3): ratio of the means 2.40, where the mean of the epoch ratios would be 2.50.
    timings = {"CNN": [30.0, 2.0, 4.0, 4.0], "GCNN": [40.0, 6.0, 8.0, 10.0]}
    text = _render(_record(tmp_path, timings))
    assert "| GCNN | True | bucket | 40.0 | 8.00 ± 2.00 (epochs 2–4) | 1.5 |" in text
    assert "| CNN | True | bucket | 30.0 | 3.33 ± 1.15 (epochs 2–4) | 1.5 |" in text
    paper = f"{PAPER['GCNN'] / PAPER['CNN']:.2f}"
    assert f"| GCNN / CNN | {paper} | 2.40 (epoch by epoch 2.00–3.00) |" in text
    long_epochs = _render(_record(tmp_path / "cpu", {"GCNN": [400.0, 120.0, 130.0]}))
    assert "| GCNN | True | bucket | 400.0 | 125.0 ± 7.1 (epochs 2–3) | 1.5 |" in long_epochs


def test_a_ratio_reads_only_the_epochs_both_rows_ran(tmp_path):
    # GCNN stopped after epoch 3: its epochs 2-3 (6, 8 s) against CNN's (2, 4 s), not CNN's 4-5.
    timings = {"CNN": [30.0, 2.0, 4.0, 40.0, 40.0], "GCNN": [40.0, 6.0, 8.0]}
    text = _render(_record(tmp_path, timings))
    paper = f"{PAPER['GCNN'] / PAPER['CNN']:.2f}"
    assert f"| GCNN / CNN | {paper} | 2.33 (epoch by epoch 2.00–3.00) |" in text


def test_a_pair_whose_run_did_not_finish_says_so(tmp_path):
    for timings in ({"CNN": [30.0, 4.0], "GCNN": [40.0, 6.0]}, {}):
        text = _render(_record(tmp_path / str(len(timings)), timings))
        esim_gcnn = PAPER["ESIM (our implement)"] / PAPER["GCNN"]
        assert (
            f"| ESIM (our implement) / GCNN | {esim_gcnn:.2f} | – (a run did not finish) |" in text
        )


@pytest.mark.slow
def test_one_epoch_is_refused_in_one_line():
    result = subprocess.run(
        [sys.executable, "experiments/epoch_times.py", "--epochs=1"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: --epochs: at least 2 (epoch 1 also compiles); pass --epochs=2"
    ]
