"""The registered ATTCONV FEVER and Yelp rows run end to end on small files in the official
formats: contexts built from claims + wiki-pages + retrieved sentences, a one-epoch smoke
training, and the official FEVER scorer's ALL / SUB in the run's metrics."""

import csv

import numpy as np
import pytest
from fever_fixture import write_fever_fixture

from gcnn_match.data import fever
from gcnn_match.data.readers import read_fever_claims
from gcnn_match.evidence import predictions
from gcnn_match.experiments import registry
from gcnn_match.training.fever_score import fever_metrics
from gcnn_match.training.loop import run_experiment
from gcnn_match.training.predict import TrainedModel

# Trains or runs real processes: left out of `make test-fast`.
pytestmark = pytest.mark.slow

pytest.importorskip("fever.scorer", reason="the official scorer: run `make install`")
TINY = dict(scale="full", epochs=1, batch_size=2, embeddings="random", embedding_dim=8)


def _run(name, data_dir, tmp_path, **changes):
    config = registry.get(name)
    config = config.replace(**TINY, **changes, model_kwargs=dict(config.model_kwargs, hidden=8))
    run_dir = tmp_path / "run"
    return (
        config,
        run_dir,
        run_experiment(config, run_dir, data_dir, tmp_path / "cache", log=lambda *_: None),
    )


@pytest.mark.parametrize(
    "name,setting",
    [
        ("attconv/fever/light_context_wise", "retrieved"),
        ("attconv/fever/advan_context_conc_gold_evidence", "gold"),
    ],
)
def test_fever_row_trains_and_is_scored_by_the_official_scorer(tmp_path, name, setting):
    write_fever_fixture(tmp_path)
    fever.prepare_contexts(tmp_path, "paper_dev", setting, log=lambda *_: None)
    split = f"paper_dev.{setting}"
    config, run_dir, metrics = _run(
        name, tmp_path, tmp_path, train_split=split, dev_split=split, test_split=split
    )
    assert config.split_variant == setting
    assert metrics["test_label_accuracy"] == metrics["test_accuracy"]  # ALL
    # SUB from the predictions file, through the scorer again.
    with open(run_dir / "predictions" / "test.tsv", encoding="utf-8") as handle:
        predicted = {row["uid"]: row["predicted"] for row in csv.DictReader(handle, delimiter="\t")}
    claims = list(read_fever_claims(tmp_path / "fever" / "contexts" / setting / "paper_dev.jsonl"))
    assert sorted(predicted) == sorted(str(c.id) for c in claims)
    expected = fever_metrics(claims, [predicted[str(c.id)] for c in claims])
    assert metrics["test_fever_score"] == expected["fever_score"]
    assert 0 <= metrics["test_fever_score"] <= metrics["test_label_accuracy"]
    # The record keeps SUB's per-claim term: its mean is the run's SUB.
    lines = predictions.run_lines(config, run_dir)
    assert lines["fever_correct"].mean() == pytest.approx(metrics["test_fever_score"])
    assert lines["correct"].mean() == pytest.approx(metrics["test_label_accuracy"])
    assert {"dev_fever_score", "test_evidence_recall"} <= set(metrics)
    # A saved run evaluated later (experiments/evaluate.py --split) reports the same scores.
    again = TrainedModel.from_run(run_dir).evaluate_split(split, tmp_path)
    assert again["fever_score"] == metrics["test_fever_score"]
    assert again["label_accuracy"] == metrics["test_label_accuracy"]


def test_fever_row_names_the_contexts_it_needs(tmp_path):
    write_fever_fixture(tmp_path)
    with pytest.raises(FileNotFoundError, match="prepare_fever.py .*--evidence=retrieved"):
        _run(
            "attconv/fever/light_context_conc",
            tmp_path,
            tmp_path,
            train_split="paper_dev.retrieved",
            dev_split="paper_dev.retrieved",
            test_split="paper_dev.retrieved",
        )


def test_yelp_row_trains_on_reviews_in_the_loaders_layout(tmp_path):
    rng = np.random.RandomState(0)
    words = ["great", "awful", "food", "service", "slow", "fine", "the", "was"]
    folder = tmp_path / "yelp"
    folder.mkdir()
    for name, count in (("yelp_train_500k", 20), ("yelp_valid_2000", 6), ("yelp_test_2000", 6)):
        lines = [
            f"{rng.randint(1, 6)} " + " ".join(rng.choice(words, rng.randint(1, 9)))
            for _ in range(count)
        ]
        (folder / name).write_text("\n".join(lines) + "\n", "utf-8")
    config, run_dir, metrics = _run("attconv/yelp/advanced", tmp_path, tmp_path)
    assert config.model_kwargs["intra_context"] and config.table == "Table 3"
    assert metrics["examples"] == {"train": 20, "dev": 6, "test": 6}
    assert 0 <= metrics["test_accuracy"] <= 1
    header = (run_dir / "predictions" / "test.tsv").read_text("utf-8").splitlines()[0]
    assert header.split("\t")[3:] == [f"p_{stars}" for stars in "12345"]
