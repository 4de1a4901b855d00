"""Majority vote over runs' prediction files (COIN ensemble)."""

import json

import numpy as np
import pytest

from gcnn_match.training.ensemble import ensemble_metrics, majority_vote

LABELS = ("different", "same")  # LCQMC: positive class "same" (id 1)
GOLD = ["same", "same", "different", "different", "same"]


def _run(tmp_path, name, predicted, p_same, seed):
    run = tmp_path / name
    (run / "predictions").mkdir(parents=True)
    rows = ["uid\tgold\tpredicted\t" + "\t".join(f"p_{n}" for n in LABELS)]
    for i, (gold, pred, p) in enumerate(zip(GOLD, predicted, p_same)):
        rows.append(f"u{i}\t{gold}\t{pred}\t{1 - p:.6f}\t{p:.6f}")
    (run / "predictions" / "test.tsv").write_text("\n".join(rows) + "\n", "utf-8")
    (run / "config.json").write_text(json.dumps({"dataset": "lcqmc", "seed": seed}), "utf-8")
    return run


def _three_runs(tmp_path):
    s, d = "same", "different"
    return [
        _run(tmp_path, "r1", [s, d, d, s, s], [0.9, 0.4, 0.1, 0.6, 0.8], 1),
        _run(tmp_path, "r2", [s, s, s, d, d], [0.8, 0.7, 0.6, 0.3, 0.4], 2),
        _run(tmp_path, "r3", [d, s, d, d, s], [0.2, 0.9, 0.3, 0.1, 0.7], 3),
    ]


def test_majority_vote(tmp_path):
    runs = _three_runs(tmp_path)
    labels, uids = majority_vote([r / "predictions" / "test.tsv" for r in runs])
    assert uids == ["u0", "u1", "u2", "u3", "u4"]
    assert labels == ["same", "same", "different", "different", "same"]


def test_tie_goes_to_higher_summed_probability(tmp_path):
    s, d = "same", "different"
    # Two runs disagree on every example; the surer run wins.
    runs = [
        _run(tmp_path, "a", [s, d, s, d, s], [0.9, 0.45, 0.55, 0.2, 0.6], 1),
        _run(tmp_path, "b", [d, s, d, s, d], [0.3, 0.8, 0.2, 0.51, 0.4], 2),
    ]
    labels, _ = majority_vote([r / "predictions" / "test.tsv" for r in runs])
    assert labels == [s, s, d, d, d]  # example 4: 1.0 vs 1.0 probability -> first label


def test_ensemble_metrics(tmp_path):
    metrics = ensemble_metrics(_three_runs(tmp_path), "test")
    assert metrics["runs"] == 3 and metrics["seeds"] == [1, 2, 3]
    assert metrics["test_accuracy"] == 1.0
    assert metrics["test_single_run_accuracy_mean"] == pytest.approx(np.mean([0.6, 0.6, 0.8]))
    assert metrics["test_f1"] == 1.0


def test_mismatched_files_are_rejected(tmp_path):
    good = _three_runs(tmp_path)[0] / "predictions" / "test.tsv"
    other = tmp_path / "other.tsv"
    other.write_text(good.read_text("utf-8").replace("u4", "u9"), "utf-8")
    with pytest.raises(ValueError, match="same examples"):
        majority_vote([good, other])
