"""End to end on real Quora: train a small GCNN through the driver, resume, report."""

import json

import pytest

from gcnn_match.experiments import registry
from gcnn_match.training.loop import run_experiment

SMALL = {"hidden": 48, "context_layers": 2, "aggregation_layers": 1, "mlp_hidden": 48}


@pytest.fixture(scope="module")
def trained_run(shared_data, tmp_path_factory):
    config = registry.get("gcnn/quora/gcnn").replace(
        scale="low-resource",
        epochs=3,
        batch_size=32,
        max_train_examples=3000,
        max_eval_examples=1000,
        model_kwargs={"variant": "gcnn", **SMALL},
        optimizer={"learning_rate": 2e-3},
    )
    run_dir = tmp_path_factory.mktemp("run")
    metrics = run_experiment(
        config,
        run_dir,
        shared_data,
        cache_dir=tmp_path_factory.mktemp("cache"),
        log=lambda *_: None,
    )
    return config, run_dir, metrics


@pytest.mark.slow
def test_small_gcnn_beats_chance_on_real_quora(trained_run):
    _, _, metrics = trained_run
    # Quora test is balanced: chance is 0.5, and 3 standard errors on 1000 pairs is 0.047.
    assert metrics["test_accuracy"] > 0.56, metrics
    assert metrics["examples"] == {"train": 3000, "dev": 1000, "test": 1000}


@pytest.mark.slow
def test_run_directory_holds_every_record(trained_run):
    config, run_dir, metrics = trained_run
    saved = json.loads((run_dir / "config.json").read_text())
    assert saved["name"] == config.name and saved["scale"] == "low-resource"
    epochs = [json.loads(line) for line in (run_dir / "epochs.jsonl").read_text().splitlines()]
    assert [e["epoch"] for e in epochs] == [1, 2, 3]
    assert all(e["train_seconds"] > 0 and "dev_accuracy" in e for e in epochs)
    assert metrics["best_epoch"] == 1 + max(range(3), key=lambda i: epochs[i]["dev_accuracy"])
    for name in (
        "environment.json",
        "metrics.json",
        "model_summary.txt",
        "checkpoints/best.weights.h5",
        "preprocessing/vocab.txt",
        "predictions/test.tsv",
    ):
        assert (run_dir / name).exists(), name
    assert len((run_dir / "predictions/test.tsv").read_text().splitlines()) == 1001
    assert any((run_dir / "logs").rglob("*"))


@pytest.mark.slow
def test_finished_run_is_not_trained_again(trained_run, shared_data):
    config, run_dir, metrics = trained_run
    calls = []
    again = run_experiment(config, run_dir, shared_data, log=calls.append)
    assert again == json.loads(json.dumps(metrics))
    assert any("already complete" in line for line in calls)


def test_unlabelled_split_gets_a_kaggle_submission(tmp_path):
    import numpy as np

    from gcnn_match.data.pipeline import EncodedSplit
    from gcnn_match.training.tasks import write_submission

    split = EncodedSplit("test", {}, np.array([-1, -1]), ["p1", "p2"], [None, None])
    write_submission(
        tmp_path / "s.csv",
        split,
        np.array([[0.1, 0.7, 0.2], [0.8, 0.1, 0.1]]),
        ("entailment", "neutral", "contradiction"),
    )
    assert (tmp_path / "s.csv").read_text() == "pairID,gold_label\np1,neutral\np2,entailment\n"


def test_missing_paper_vectors_fall_back_to_the_stand_in_and_say_so(shared_data, tmp_path):
    from gcnn_match.data.pipeline import PairEncoder
    from gcnn_match.data.tokenizers import TextPolicy
    from gcnn_match.data.vocab import Vocabulary
    from gcnn_match.training.loop import model_inputs

    config = registry.get("gcnn/quora/gcnn")
    assert config.embeddings.startswith("glove.840B.300d|")
    encoder = PairEncoder(TextPolicy(), Vocabulary(["what", "is"]), 40, 40)
    lines = []
    inputs, summary = model_inputs(config, encoder, tmp_path, tmp_path / "cache", lines.append)
    assert inputs.word_dim == 300 and "stand-in: glove.840B.300d not found" in summary
    assert summary.startswith("glove-6b-50d-packaged: 50d padded to 300d (OOV init), ")
