"""`make gpu-plan`: synthetic pairs shaped like each dataset, the projection of a registered
schedule, the per-table report, and the tiny mode end to end on the CPU."""

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.benchmarks.dataset_shapes import dataset_shape
from gcnn_match.benchmarks.gpu_plan import paper_seeds, projection, step_key
from gcnn_match.benchmarks.synthetic_pairs import synthetic_split
from gcnn_match.experiments import registry
from gcnn_match.models.registry import input_features
from gcnn_match.reporting.gpu_plan_report import render
from gcnn_match.reporting.marked_sections import update_section
from gcnn_match.training.run_dir import compute_device
from tests.conftest import REPO, subprocess_env

ALL_ROWS = [c for table in registry.tables() for c in registry.select(table=table)]


def test_every_registered_row_has_the_shape_of_its_full_training_split():
    for config in ALL_ROWS:
        shape = dataset_shape(config.dataset)
        assert shape.train_units > 0 and shape.vocab_size > 2, config.name
        assert (shape.candidates is not None) == (config.task == "ranking"), config.name
    with pytest.raises(KeyError, match="dataset_shapes.py"):
        dataset_shape("no_such_dataset")


@pytest.mark.parametrize(
    "name",
    ["gcnn/multinli/gcnn_char_pos", "attconv/fever/advan_context_wise", "clstm/wikiqa/single_lstm"],
)
def test_synthetic_pairs_carry_every_input_of_the_model_within_the_cut_offs(name):
    config = registry.get(name)
    features = input_features(config.model, **config.model_kwargs)
    shape = dataset_shape(config.dataset)
    split = synthetic_split(config, shape, features, 30, shape.vocab_size)
    expected = {"a_ids", "b_ids"}
    expected |= {"a_chars", "b_chars"} if features.chars else set()
    expected |= {"a_pos", "b_pos"} if features.pos else set()
    expected |= {"a_segments"} if features.segments else set()
    assert set(split.features) == expected
    for side, cut in (("a", config.max_len_a), ("b", config.max_len_b)):
        ids = split.features[f"{side}_ids"]
        assert 1 <= ids.lengths().min() and ids.lengths().max() <= cut
        assert ids.values.max() < shape.vocab_size
    if features.segments:
        sentences = config.max_len_a // 40
        segments = split.features["a_segments"]
        assert (segments.row_splits == split.features["a_ids"].row_splits).all()
        assert 1 <= segments.values.min() <= segments.values.max() <= sentences
    if config.task == "ranking":
        per_question = math.ceil(shape.candidates)
        assert len(split) == 30 * per_question
        assert split.labels.reshape(30, per_question).sum(axis=1).tolist() == [1] * 30
        assert len(set(split.groups)) == 30


def test_the_projection_multiplies_the_median_step_by_the_registered_schedule():
    config = registry.get("gcnn/quora/gcnn")
    measured = {"batch_size": 64, "compile_seconds": 36.0, "step_seconds": [0.02, 0.01, 0.03]}
    result = projection(config, measured)
    steps = math.ceil(384_348 / 64)
    assert result["steps_per_epoch"] == steps
    assert result["hours_per_seed"] == pytest.approx((36.0 + 20 * steps * 0.02) / 3600)
    # MultiNLI's rows train on train less the 10% that selects their checkpoint.
    multinli = projection(registry.get("gcnn/multinli/gcnn"), measured)
    assert multinli["train_units"] == round(dataset_shape("multinli").train_units * 0.9)


def test_the_paper_seeds_are_one_run_except_for_an_ensemble():
    coin = registry.select(table="coin-quora")
    assert paper_seeds(registry.get("coin/quora/coin_ours"), coin) == 5
    assert paper_seeds(registry.get("gcnn/quora/gcnn"), registry.select(table="gcnn-quora")) == 1


def _row(table, row, hours, peak_gib, seeds=1):
    return {
        "name": f"x/{table}/{row}",
        "table": table,
        "row": row,
        "paper_seeds": seeds,
        "hours_per_seed": hours,
        "peak_memory_bytes": int(peak_gib * 2**30),
    }


def test_the_report_sums_each_table_and_says_which_cards_fit():
    record = {
        "device": "NVIDIA H100 80GB HBM3",
        "keras_backend": "jax",
        "tiny": False,
        "command": "python experiments/gpu_plan.py",
        "seconds": 400.0,
        "workers": 4,
        "environment": {"keras": "3", "tensorflow": "2", "jax": "0.10.2"},
        "rows": [
            _row("a-big", "one", 2.0, 20.0),
            _row("a-big", "two", 1.0, 3.0, seeds=5),
            {"name": "x/a-big/vote", "table": "a-big", "row": "vote", "runs_of": "x/a-big/two"},
            _row("b-small", "one", 0.5, 1.0),
            {"name": "x/b-small/two", "table": "b-small", "row": "two", "error": "boom"},
        ],
    }
    lines = render(record).splitlines()
    big = next(line for line in lines if line.startswith("| a-big "))
    small = next(line for line in lines if line.startswith("| b-small "))
    # 2 + 1 hours for one seed; 2 + 5 x 1 for the paper's; 20 GiB fits 24 GB cards and up.
    assert big == "| a-big | 2 of 2 | 3.0 | 7.0 | one (2.00) | 20.00 | no | yes | yes | yes |"
    # A row not measured makes the table's hours a lower bound, and is listed.
    assert small.startswith("| b-small | 1 of 2 | ≥ 0.5 | ≥ 0.5 |")
    assert "- x/b-small/two: boom" in lines
    assert lines[0] == "## Each table on one NVIDIA H100 80GB HBM3, Keras backend jax"


# Two worker processes, each importing TensorFlow and building a model.
@pytest.mark.slow
def test_the_tiny_mode_runs_on_the_cpu_and_never_writes_a_gpu_section(tmp_path):
    record_path, report = tmp_path / "plan.json", tmp_path / "BENCHMARKS.md"
    process = subprocess.run(
        [
            sys.executable,
            "experiments/gpu_plan.py",
            "--tiny",
            f"--json={record_path}",
            f"--output={report}",
        ],
        cwd=REPO,
        env=subprocess_env(KERAS_BACKEND="tensorflow", CUDA_VISIBLE_DEVICES=""),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    record = json.loads(record_path.read_text())
    # The record names the device it ran on: this machine's CPU, not a GPU.
    assert record["tiny"] and not record["on_gpu"]
    assert record["device"] == compute_device([])
    assert not report.exists()
    assert [r["name"] for r in record["rows"]] == ["gcnn/quora/cnn", "clstm/wikiqa/single_lstm"]
    for row in record["rows"]:
        assert "error" not in row, row
        assert len(row["step_seconds"]) == 2 and min(row["step_seconds"]) > 0
        assert row["batch_size"] == 4 and row["max_len_a"] <= 8
        assert row["compile_seconds"] > 0 and row["peak_memory_bytes"] > 0
        assert row["hours_per_seed"] == pytest.approx(
            (
                row["compile_seconds"]
                + row["epochs"] * row["steps_per_epoch"] * np.median(row["step_seconds"])
            )
            / 3600
        )
    update_section(report, "gpu-plan", render(record), heading="# Benchmarks")
    text = report.read_text()
    assert f"## Each table on one {record['device']}" in text and "tiny mode" in text


def test_rows_whose_steps_compute_the_same_are_measured_once():
    yelp, standin = (
        registry.get("attconv/yelp/advanced"),
        registry.get("attconv/yelp_stars_standin/advanced"),
    )
    assert step_key(yelp) == step_key(standin)
    keys = {step_key(c) for c in registry.select(table="gcnn-quora")}
    assert len(keys) == len(registry.select(table="gcnn-quora"))
