"""Per-example prediction records: run directories -> lines, the gzipped CSV round trip, and
merging the runs of separate commands."""

import json
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from gcnn_match.evidence import predictions
from gcnn_match.experiments import planning, registry
from gcnn_match.training.metrics import ranking_metrics

LABELS = ("different", "same")


def _run(folder, seed, predictions, task="classification", epochs=(3, 20), labels=LABELS, **config):
    """A finished run directory in `folder`: config.json (with `config`'s fields),
    dataset.json, metrics.json and predictions/ (`predictions`: {split: tsv text})."""
    return _finished_run(
        folder / f"low-resource-seed{seed}-e300", seed, predictions, task, epochs, labels, config
    )


def _finished_run(
    run, seed, predictions, task="classification", epochs=(3, 20), labels=LABELS, fields=None
):
    (run / "predictions").mkdir(parents=True)
    for split, text in predictions.items():
        (run / "predictions" / f"{split}.tsv").write_text(text, "utf-8")
    config = {"task": task, "epochs": epochs[1], "dataset": "quora", "seed": seed, **(fields or {})}
    (run / "config.json").write_text(json.dumps(config), "utf-8")
    (run / "dataset.json").write_text(json.dumps({"labels": list(labels)}), "utf-8")
    metrics = {
        "seed": seed,
        "scale": "low-resource",
        "epochs_run": epochs[0],
        "best_epoch": epochs[0],
        "embeddings": "random",
        "examples": {"train": 10, "dev": 2, "test": 2},
        "trainable_params": 10,
        "trainable_params_without_embeddings": 5,
        "test_accuracy": 0.5,
    }
    (run / "metrics.json").write_text(json.dumps(metrics), "utf-8")
    return run


def _classification(gold, predicted, uids=None):
    uids = uids or [f"u{i}" for i in range(len(gold))]
    rows = ["uid\tgold\tpredicted\tp_different\tp_same"]
    for uid, g, p in zip(uids, gold, predicted):
        chance = 0.7 if p == "same" else 0.3
        rows.append(f"{uid}\t{g}\t{p}\t{1 - chance:.6f}\t{chance:.6f}")
    return "\n".join(rows) + "\n"


@pytest.mark.parametrize(
    "metric,expected",
    [
        ("test_accuracy", ("test", "correct")),
        ("dev_mismatched_accuracy", ("dev_mismatched", "correct")),
        ("test_label_accuracy", ("test", "correct")),
        ("test_10_p@1", ("test_10", "correct")),
        ("test_map", ("test", "average_precision")),
        ("test_mrr", ("test", "reciprocal_rank")),
        ("test_f1", ("test", predictions.F1)),
        ("test_fever_score", ("test", "fever_correct")),
        ("dev_label_accuracy", ("dev", "correct")),
        ("seconds_per_epoch", None),
    ],
)
def test_which_split_and_column_hold_a_metric(metric, expected):
    assert predictions.split_and_column(metric) == expected


def test_a_classification_run_gives_one_line_per_labelled_test_example(tmp_path):
    test = _classification(["same", "different", ""], ["same", "same", "different"])
    dev = _classification(["same"], ["same"])
    run = _run(tmp_path, 3, {"test": test, "dev": dev})
    lines = predictions.run_lines(registry.get("gcnn/quora/gcnn"), run)
    assert list(lines.columns) == list(predictions.COLUMNS)
    # Only the split the row reports (test), without the unlabelled example.
    assert lines[["split", "uid", "gold", "predicted", "correct"]].values.tolist() == [
        ["test", "u0", "same", "same", 1],
        ["test", "u1", "different", "same", 0],
    ]
    assert set(lines["row"]) == {"gcnn/quora/gcnn"} and set(lines["seed"]) == {3}
    assert set(lines["config"]) == {"low-resource-e300"}
    assert (set(lines["epochs"]), set(lines["max_epochs"])) == ({3}, {20})


def _evidence(run, terms):
    """The run's test_official.tsv: each claim's evidence term ({uid: 0 or 1})."""
    text = "uid\tfever_evidence\n" + "".join(f"{u}\t{t}\n" for u, t in terms.items())
    (run / "predictions" / "test_official.tsv").write_text(text, "utf-8")


def test_the_fever_score_term_is_a_right_label_with_complete_evidence(tmp_path):
    """FEVER: a claim scores when its label is right and its evidence term (the run's
    test_official.tsv, in any order) is 1; a run without the file leaves the column empty."""
    test = _classification(["same", "different", "same", ""], ["same", "same", "same", "same"])
    run = _run(tmp_path, 1, {"test": test})
    _evidence(run, {"u3": 1, "u2": 0, "u1": 1, "u0": 1})
    lines = predictions.run_lines(registry.get("gcnn/quora/gcnn"), run)
    assert lines[["uid", "correct", "fever_correct"]].values.tolist() == [
        ["u0", 1, 1],
        ["u1", 0, 0],  # evidence complete, label wrong
        ["u2", 1, 0],  # label right, evidence incomplete
    ]
    path = predictions.record_path(tmp_path, "t", "low-resource")
    predictions.write_record(path, lines)
    assert predictions.read_record(path)["fever_correct"].tolist() == [1, 0, 0]
    other = predictions.run_lines(
        registry.get("gcnn/quora/gcnn"), _run(tmp_path, 2, {"test": test})
    )
    assert other["fever_correct"].isna().all()


def test_an_example_without_its_evidence_term_is_named(tmp_path):
    run = _run(tmp_path, 1, {"test": _classification(["same", "same"], ["same", "same"])})
    _evidence(run, {"u0": 1})
    with pytest.raises(ValueError, match=r"test_official.tsv: no fever_evidence for example u1"):
        predictions.run_lines(registry.get("gcnn/quora/gcnn"), run)


def test_a_record_without_a_score_column_reads_it_as_empty(tmp_path):
    path = tmp_path / "scores.csv.gz"
    frame = _lines("gcnn/quora/gcnn", 1).drop(columns=["fever_correct"])
    frame.to_csv(path, index=False, compression="gzip")
    read = predictions.read_record(path)
    assert list(read.columns) == list(predictions.COLUMNS)
    assert read["fever_correct"].isna().all() and read["correct"].tolist() == [1, 0]
    frame.drop(columns=["correct"]).to_csv(path, index=False, compression="gzip")
    with pytest.raises(ValueError, match="not a predictions record .no column correct"):
        predictions.read_record(path)


def test_an_unfinished_run_gives_nothing(tmp_path):
    run = _run(tmp_path, 1, {"test": _classification(["same"], ["same"])})
    (run / "metrics.json").unlink()
    assert predictions.run_lines(registry.get("gcnn/quora/gcnn"), run) is None


def test_multinli_rows_record_the_splits_their_scale_scored_never_the_selection_split(tmp_path):
    text = _classification(["same"], ["same"])
    config = registry.get("gcnn/multinli/gcnn")
    scored = {"extra_eval_splits": ["dev_matched", "test_matched", "test_mismatched"]}
    full = _run(tmp_path / "full", 1, {"dev": text, "dev_matched": text, "test": text}, **scored)
    assert sorted(set(predictions.run_lines(config, full)["split"])) == ["dev_matched", "test"]
    # The low-resource scale trains on dev-matched and does not score it.
    low = _run(tmp_path / "low", 1, {"dev": text, "test": text}, extra_eval_splits=[])
    assert sorted(set(predictions.run_lines(config, low)["split"])) == ["test"]


def test_a_ranking_run_gives_each_questions_scores(tmp_path):
    rng = np.random.default_rng(0)
    questions = np.repeat([f"q{i}" for i in range(30)], 5)
    labels = (rng.random(len(questions)) < 0.3).astype(int)
    scores = np.round(rng.normal(size=len(questions)), 2)  # ties included
    rows = ["uid\tquestion\tgold\tscore\trank"]
    rows += [
        f"c{i}\t{q}\t{'1' if y else '0'}\t{s:.9g}\t0"
        for i, (q, y, s) in enumerate(zip(questions, labels, scores))
    ]
    run = _run(tmp_path, 1, {"test": "\n".join(rows) + "\n"}, task="ranking", labels=("0", "1"))
    lines = predictions.run_lines(registry.get("clstm/wikiqa/lc_lstms"), run)
    expected = ranking_metrics(questions, scores, labels)
    assert len(lines) == expected["num_groups"]
    assert lines["correct"].mean() == pytest.approx(expected["p@1"])
    assert lines["average_precision"].mean() == pytest.approx(expected["map"])
    assert lines["reciprocal_rank"].mean() == pytest.approx(expected["mrr"])


def test_a_vote_row_records_the_majority_of_its_five_members_as_seed_0(tmp_path):
    rng = np.random.default_rng(1)
    gold = rng.choice(LABELS, 25)
    predicted = [np.where(rng.random(25) < 0.7, gold, "different") for _ in range(5)]
    members = [
        _run(tmp_path / f"m{seed}", seed, {"test": _classification(gold, p)})
        for seed, p in enumerate(predicted, 1)
    ]
    vote = registry.get("coin/quora/coin_ensemble")
    lines = predictions.table_lines([vote], {vote.name: members})
    majority = np.where((np.array(predicted) == "same").sum(axis=0) >= 3, "same", "different")
    assert lines["predicted"].tolist() == majority.tolist()
    assert lines["fever_correct"].isna().all()
    # With the official scorer's evidence terms, the vote's FEVER score term is its own.
    evidence = rng.integers(0, 2, 25)
    for member in members:
        _evidence(member, {f"u{i}": e for i, e in enumerate(evidence)})
    lines = predictions.table_lines([vote], {vote.name: members})
    assert lines["fever_correct"].tolist() == ((majority == gold) * evidence).tolist()
    assert set(lines["seed"]) == {0} and set(lines["config"]) == {"low-resource-e300-vote"}
    assert predictions.table_lines([vote], {vote.name: members[:4]}) is None


def _lines(row, seed, config="low-resource-e300", correct=(1, 0)):
    return pd.DataFrame(
        {
            "row": row,
            "seed": seed,
            "config": config,
            "epochs": 4,
            "max_epochs": 20,
            "split": "test",
            "uid": [f"u{i}" for i in range(len(correct))],
            "gold": "same",
            "predicted": ["same" if c else "different" for c in correct],
            "correct": list(correct),
            "average_precision": np.nan,
            "reciprocal_rank": np.nan,
            "fever_correct": np.nan,
        }
    )[list(predictions.COLUMNS)]


def test_the_record_reads_back_as_written_and_rewrites_to_the_same_bytes(tmp_path):
    path = predictions.record_path(tmp_path, "gcnn-quora", "low-resource")
    assert path == tmp_path / "predictions" / "gcnn-quora-low-resource.csv.gz"
    frame = pd.concat(
        [_lines("gcnn/quora/gcnn", 1), _lines("gcnn/quora/cnn", 2, correct=(0, 0))],
        ignore_index=True,
    )
    frame.loc[0, "uid"] = "NA"  # an id pandas would read as missing by default
    predictions.write_record(path, frame)
    first = path.read_bytes()
    again = predictions.read_record(path)
    pd.testing.assert_frame_equal(again, frame, check_dtype=False)
    predictions.write_record(path, again)
    assert path.read_bytes() == first
    assert predictions.read_record(tmp_path / "none.csv.gz").empty


def test_a_rerun_replaces_its_lines_and_other_runs_stay(tmp_path):
    earlier = pd.concat(
        [_lines("gcnn/quora/gcnn", 1), _lines("gcnn/quora/gcnn", 2), _lines("gcnn/quora/cnn", 1)],
        ignore_index=True,
    )
    rerun = _lines("gcnn/quora/gcnn", 2, correct=(0, 0))
    capped = _lines("gcnn/quora/gcnn", 2, config="low-resource-e300-epochs6")
    merged = predictions.merge(earlier, pd.concat([rerun, capped], ignore_index=True))
    runs = merged.groupby(predictions.RUN_KEY, sort=False)["correct"].apply(list).to_dict()
    assert runs == {
        ("gcnn/quora/cnn", 1, "low-resource-e300"): [1, 0],
        ("gcnn/quora/gcnn", 1, "low-resource-e300"): [1, 0],
        ("gcnn/quora/gcnn", 2, "low-resource-e300"): [0, 0],
        ("gcnn/quora/gcnn", 2, "low-resource-e300-epochs6"): [1, 0],
    }


def test_rows_trained_by_separate_commands_accumulate_in_the_table_record(tmp_path):
    gcnn, cnn = registry.get("gcnn/quora/gcnn"), registry.get("gcnn/quora/cnn")
    text = _classification(["same", "same"], ["same", "different"])
    first = {gcnn.name: [_run(tmp_path / "gcnn", 1, {"test": text})]}
    second = {cnn.name: [_run(tmp_path / "cnn", 1, {"test": text})], gcnn.name: []}
    path = predictions.update_table_record(tmp_path, "gcnn-quora", "low-resource", [gcnn], first)
    predictions.update_table_record(tmp_path, "gcnn-quora", "low-resource", [gcnn, cnn], second)
    assert sorted(set(predictions.read_record(path)["row"])) == [cnn.name, gcnn.name]
    nothing = {cnn.name: [tmp_path / "never-ran"]}
    assert predictions.update_table_record(tmp_path, "x", "low-resource", [cnn], nothing) is None


def _reproduce(tmp_path, *flags):
    """Runs reproduce.py on `tmp_path`'s runs, results, report and (empty) data folder."""
    command = [
        sys.executable,
        "experiments/reproduce.py",
        "--noestimate",
        f"--runs_dir={tmp_path / 'runs'}",
        f"--results_dir={tmp_path / 'results'}",
        f"--report={tmp_path / 'REPRODUCTION.md'}",
        f"--data_dir={tmp_path / 'no-data'}",
        *flags,
    ]
    return subprocess.run(command, capture_output=True, text=True)


@pytest.mark.slow
def test_reproduce_records_the_finished_runs_of_the_table_it_renders(tmp_path):
    """reproduce.py --report_only on two finished runs writes their lines into the record."""
    runs, results = tmp_path / "runs", tmp_path / "results"
    text = _classification(["same", "different"], ["same", "same"])
    for name in ("gcnn/quora/gcnn", "gcnn/quora/cnn"):
        [run] = planning.run_dirs(registry.get(name), [1], "low-resource", runs)
        _finished_run(run, 1, {"test": text})
    done = _reproduce(tmp_path, "--table=gcnn-quora", "--report_only")
    assert done.returncode == 0, done.stderr
    lines = predictions.read_record(predictions.record_path(results, "gcnn-quora", "low-resource"))
    assert sorted(set(lines["row"])) == ["gcnn/quora/cnn", "gcnn/quora/gcnn"]
    assert lines["correct"].tolist() == [1, 0, 1, 0]


@pytest.mark.slow
def test_a_seed_the_record_keeps_is_skipped_only_when_asked(tmp_path):
    """Seed 1 finished and recorded, then its run directory lost (a fresh machine): reproduce.py
    --seeds=1 --skip_recorded trains nothing, says so, and the table still shows seed 1;
    without the flag the seed trains again."""
    runs, results = tmp_path / "runs", tmp_path / "results"
    [run] = planning.run_dirs(registry.get("gcnn/quora/gcnn"), [1], "low-resource", runs)
    _finished_run(run, 1, {"test": _classification(["same", "different"], ["same", "same"])})
    command = ("--table=gcnn-quora", "--rows=gcnn", "--seeds=1")
    done = _reproduce(tmp_path, *command, "--report_only")
    assert done.returncode == 0, done.stderr
    shutil.rmtree(runs)
    done = _reproduce(tmp_path, *command, "--skip_recorded")
    assert done.returncode == 0, done.stderr
    assert (
        f"kept per seed in {results}, not trained again (--skip_recorded; without it they "
        "train): gcnn/quora/gcnn seed 1"
    ) in done.stdout
    record = json.loads((results / "gcnn-quora-low-resource.json").read_text("utf-8"))
    [gcnn] = [row for row in record if row["name"] == "gcnn/quora/gcnn"]
    assert gcnn["seeds"] == [1] and gcnn["test_accuracy"][0] == 0.5
    # Where it would train again, it stops at the empty data folder: by default, or with the
    # run directory there (an interrupted rerun resumes).
    done = _reproduce(tmp_path, *command)
    assert done.returncode != 0 and "not trained again" not in done.stdout
    run.mkdir(parents=True)
    done = _reproduce(tmp_path, *command, "--skip_recorded")
    assert done.returncode != 0 and "not trained again" not in done.stdout


@pytest.mark.slow
def test_the_runs_of_a_vote_are_never_skipped(tmp_path):
    """A 5-seed vote needs its members' run directories on one machine: with coin_ours' seed 1
    recorded and its directory gone, asking for the vote trains it even with --skip_recorded
    (stops at the data here)."""
    runs = tmp_path / "runs"
    [run] = planning.run_dirs(registry.get("coin/quora/coin_ours"), [1], "low-resource", runs)
    _finished_run(run, 1, {"test": _classification(["same", "different"], ["same", "same"])})
    done = _reproduce(tmp_path, "--table=coin-quora", "--rows=coin_ours", "--report_only")
    assert done.returncode == 0, done.stderr
    shutil.rmtree(runs)
    skip = "--skip_recorded"
    done = _reproduce(tmp_path, "--table=coin-quora", "--rows=coin_ours", skip)
    assert "coin/quora/coin_ours seed 1" in done.stdout  # alone, the recorded seed is skipped
    done = _reproduce(tmp_path, "--table=coin-quora", "--rows=coin_ensemble", skip)
    assert done.returncode != 0 and "not trained again" not in done.stdout
