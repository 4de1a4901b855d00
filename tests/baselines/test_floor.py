"""The floors: majority class, TF-IDF + LR and the ranking floors on synthetic data with a
known answer, and on real Quora and SNLI exactly the examples the table's (or a learning
curve's) rows read."""

import dataclasses
import gzip
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.baselines import floor
from gcnn_match.claims import learning_curves as curve_records
from gcnn_match.data.example import Example
from gcnn_match.data.experiment_data import apply_scale, prepare_data
from gcnn_match.data.registry import DatasetSpec
from gcnn_match.experiments import curves

PAIRS = DatasetSpec(
    name="pairs",
    task="classification",
    labels=("different", "same"),
    splits={},
    positive_label=1,
)
REPO = pathlib.Path(__file__).resolve().parents[2]


def _words(rng, n=5):
    return " ".join(f"w{i}" for i in rng.choice(60, n, replace=False))


def _paraphrases(count, seed):
    """Label 1: b is a's words reordered; label 0: b has other words."""
    rng = np.random.default_rng(seed)
    examples = []
    for i in range(count):
        a, label = _words(rng), int(rng.integers(2))
        b = " ".join(rng.permutation(a.split())) if label else _words(rng)
        examples.append(Example(a=a, b=b, label=label, uid=f"{seed}:{i}"))
    return examples


def test_majority_is_the_training_parts_most_frequent_label():
    def examples(labels):
        return [Example(a="x", b="y", label=label, uid=str(i)) for i, label in enumerate(labels)]

    roles = {
        "train": examples([1, 1, 1, 0]),
        "dev": examples([0, 1]),
        "test": examples([1, 0, 0, 0, 1]),
    }
    floors, columns = floor.floors_of(roles, PAIRS, "classification", "accuracy")
    majority = floors[0]
    assert (majority["row"], majority["label"]) == ("reference: majority class", "same")
    assert majority["metrics"]["test_accuracy"] == pytest.approx(0.4)
    assert majority["metrics"]["test_f1"] == pytest.approx(2 * 0.4 / 1.4)
    assert majority["metrics"]["dev_accuracy"] == pytest.approx(0.5)
    assert columns["majority"]["test"] == ["same"] * 5


def test_tfidf_lr_learns_a_known_signal_and_is_deterministic():
    roles = {
        "train": _paraphrases(200, 1),
        "dev": _paraphrases(50, 2),
        "test": _paraphrases(100, 3),
    }
    floors, columns = floor.floors_of(roles, PAIRS, "classification", "accuracy")
    lr = floors[1]
    assert lr["row"] == "reference: TF-IDF + LR"
    assert lr["metrics"]["test_accuracy"] > 0.9  # chance: about 0.5
    assert lr["C"] in floor.C_GRID and len(lr["held_out_accuracy_by_C"]) == len(floor.C_GRID)
    assert floor.floors_of(roles, PAIRS, "classification", "accuracy") == (floors, columns)


def test_ranking_floors_rank_by_overlap_and_at_random():
    """Each question has one candidate that repeats its words among four that do not."""
    rng = np.random.default_rng(0)

    def questions(count, prefix):
        out = []
        for q in range(count):
            question = _words(rng)
            right = int(rng.integers(5))
            for c in range(5):
                candidate = question if c == right else _words(rng)
                out.append(
                    Example(question, candidate, int(c == right), f"{prefix}{q}.{c}", group=f"q{q}")
                )
        return out

    roles = {"train": questions(40, "t"), "dev": questions(10, "d"), "test": questions(30, "e")}
    ranking = dataclasses.replace(PAIRS, task="ranking")
    floors, columns = floor.floors_of(roles, ranking, "ranking", "map")
    by_name = {f["name"]: f["metrics"] for f in floors}
    assert [f["row"] for f in floors] == [
        "reference: random order",
        "reference: TF-IDF cosine",
        "reference: TF-IDF + LR",
    ]
    assert by_name["tfidf_cosine"]["test_map"] == 1.0
    assert by_name["tfidf_lr"]["test_p@1"] > 0.9
    # One right answer among five: a random order finds it first a fifth of the time.
    assert by_name["random"]["test_p@1"] == pytest.approx(0.2, abs=0.05)
    assert len(columns["tfidf_cosine"]["test"]) == 150


def test_a_table_whose_rows_read_other_splits_has_no_floor(monkeypatch):
    config = floor.table_config("gcnn-quora", "low-resource")
    other = config.replace(name="other", holdout_fraction=0.2)
    monkeypatch.setattr(floor.experiments, "select", lambda table: [config, other])
    with pytest.raises(ValueError, match="other reads other splits"):
        floor.table_config("gcnn-quora", "low-resource")
    with pytest.raises(ValueError, match="whole splits"):
        floor.split_examples(config.replace(scale="smoke"), "data")


def test_the_yelp_stand_in_has_a_low_resource_floor_only(shared_data):
    # Single-text rows: both sides of each pair are the review.
    config = floor.table_config("attconv-yelp_stars_standin", "low-resource")
    roles = floor.split_examples(config, shared_data)
    assert {role: len(examples) for role, examples in roles.items()} == {
        "train": 4500,
        "dev": 500,
        "test": 5000,
    }
    with pytest.raises(ValueError, match="no train split"):
        floor.table_config("attconv-yelp_stars_standin", "full")


def test_floor_reads_exactly_the_rows_examples_on_real_quora(shared_data):
    """The same examples per role as the rows' data pipeline, in the same order; their counts
    are those of the committed table."""
    config = floor.table_config("gcnn-quora", "low-resource")
    roles = floor.split_examples(config, shared_data)
    prepared = prepare_data(config, shared_data)
    assert {r: [e.uid for e in exs] for r, exs in roles.items()} == {
        r: list(split.uids) for r, split in prepared.splits.items()
    }
    rows = json.loads((REPO / "results" / "gcnn-quora-low-resource.json").read_text("utf-8"))
    counts = {role: len(examples) for role, examples in roles.items()}
    assert counts == {"train": 9000, "dev": 1000, "test": 10000}
    assert all(row["examples"] == counts for row in rows)
    floor.check_examples({"examples": counts}, rows)
    with pytest.raises(ValueError, match="not the same splits"):
        floor.check_examples({"examples": {**counts, "dev": 999}}, rows)


def test_a_curves_floor_trains_on_exactly_its_runs_subset_on_real_snli(shared_data):
    """At train_pairs=1000 the floor's training examples are those the rows' pipeline trains
    on (the nested subset, in the same order), its held-out part and test those of the whole
    part; the curve's planned runs at that size read the same splits."""
    curve = curves.get("attconv-snli")
    plan = curves.planned(curve, curve.seeds, "runs")
    config = curve_records.floor_config(curve, 1000, plan)
    roles = floor.split_examples(config, shared_data)
    prepared = prepare_data(config, shared_data)
    assert {r: [e.uid for e in exs] for r, exs in roles.items()} == {
        r: list(split.uids) for r, split in prepared.splits.items()
    }
    whole = floor.split_examples(curve_records.floor_config(curve, None, plan), shared_data)
    uids = {r: [e.uid for e in exs] for r, exs in whole.items()}
    assert len(roles["train"]) == 1000 and {e.uid for e in roles["train"]} < set(uids["train"])
    assert [e.uid for e in roles["dev"]] == uids["dev"]
    assert [e.uid for e in roles["test"]] == uids["test"]
    for row in curve.rows:
        for planned, _ in plan[(row, 1000)]:
            assert floor.split_signature(apply_scale(planned)) == floor.split_signature(config)
    record = floor.compute(config, shared_data)[0]
    assert "its nested subset of 1000 pairs (train_pairs=1000" in record["splits"]["train"]
    with pytest.raises(ValueError, match="whole splits"):
        floor.split_examples(config.replace(max_eval_examples=10), shared_data)


def test_predictions_file_has_one_line_per_evaluated_example(tmp_path):
    roles = {"train": _paraphrases(40, 1), "dev": _paraphrases(10, 2), "test": _paraphrases(20, 3)}
    floors, columns = floor.floors_of(roles, PAIRS, "classification", "accuracy")
    record = {"scale": "low-resource", "floors": floors, "examples": {}}
    data = floor.predictions_csv(roles, PAIRS, columns, ranking=False)
    assert data == floor.predictions_csv(roles, PAIRS, columns, ranking=False)
    written = floor.write(tmp_path, "pairs-table", record, data, "python experiments/floor.py")
    lines = gzip.decompress(data).decode("utf-8").splitlines()
    assert lines[0] == "split,uid,gold,majority,tfidf_lr"
    assert len(lines) == 1 + 10 + 20 and lines[1].startswith("dev,2:0,")
    assert written["predictions"] == str(
        tmp_path / "predictions/floor-pairs-table-low-resource.csv.gz"
    )
    on_disk = json.loads(floor.record_path(tmp_path, "pairs-table", "low-resource").read_text())
    assert on_disk == written


@pytest.mark.slow
def test_tables_of_your_own_data_show_the_floor_of_your_splits(tmp_path):
    """reproduce.py computes the floor of your files and puts it under each table's rows."""
    files = [
        "--train_file=examples/entailment/train.tsv",
        "--test_file=examples/entailment/test.tsv",
    ]
    describe = ["experiments/train.py", *files, f"--write_dataset_file={tmp_path}/mine.json"]
    render = ["experiments/reproduce.py", f"--dataset_file={tmp_path}/mine.json"]
    render += ["--table=gcnn-quora", "--rows=CNN", "--report_only", f"--runs_dir={tmp_path}"]
    for args in (describe, render):
        result = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    record = json.loads((tmp_path / "entailment" / "floor-entailment-full.json").read_text())
    assert sum(record["examples"].values()) == 800 and record["examples"]["test"] == 200
    assert record["floors"][0]["label"] == "NEUTRAL"  # 328 of the 600 training pairs
    report = (tmp_path / "entailment" / "REPORT.md").read_text("utf-8")
    assert "| *reference: majority class* |" in report
    assert "| *reference: TF-IDF + LR* |" in report


def test_a_papers_table_that_never_ran_gets_no_record_and_no_section(tmp_path):
    report = tmp_path / "REPORT.md"
    report.write_text("# report\n", "utf-8")
    args = ["experiments/reproduce.py", "--table=attconv-yelp", "--report_only"]
    args += [f"--runs_dir={tmp_path}/runs", f"--results_dir={tmp_path}", f"--report={report}"]
    result = subprocess.run([sys.executable, *args], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert report.read_text("utf-8") == "# report\n"
    assert not list(tmp_path.glob("*.json"))
