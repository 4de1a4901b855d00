"""Ranking mode end to end: whole-question batches, a C-LSTM trained on real WikiQA with the
max-margin loss, and P@1 / MAP / MRR recomputed from the written predictions."""

import collections
import csv
import json

import numpy as np
import pytest

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.data import registry as data_registry
from gcnn_match.data.experiment_data import apply_scale, first_whole_groups
from gcnn_match.data.pipeline import group_training_schedule
from gcnn_match.experiments import registry
from gcnn_match.training.loop import run_experiment

TINY = {"units": 8, "fc_units": 8}


def _groups_and_lengths(seed=0):
    rng = np.random.RandomState(seed)
    sizes = rng.randint(1, 12, size=37)
    groups = np.repeat(np.arange(37), sizes)
    lengths = rng.randint(3, 60, size=len(groups))
    groups[groups == 5] = -1  # a question left out of training
    return groups, lengths


def test_group_batches_hold_whole_questions_each_once_per_epoch():
    groups, lengths = _groups_and_lengths()
    batches = group_training_schedule(groups, lengths, 4, seed=1, epoch=0)
    assert len(batches) == -(-36 // 4)
    seen = np.concatenate(batches)
    assert sorted(seen.tolist()) == np.flatnonzero(groups >= 0).tolist()
    for batch in batches:
        members = np.unique(groups[batch])
        assert len(members) <= 4
        for group in members:  # every candidate of a question in its one batch
            assert sorted(batch[groups[batch] == group]) == np.flatnonzero(groups == group).tolist()


def test_group_batches_depend_only_on_seed_and_epoch_and_bucket_by_length():
    groups, lengths = _groups_and_lengths()
    first = group_training_schedule(groups, lengths, 4, seed=1, epoch=0)
    again = group_training_schedule(groups, lengths, 4, seed=1, epoch=0)
    other = group_training_schedule(groups, lengths, 4, seed=1, epoch=1)
    assert all(np.array_equal(x, y) for x, y in zip(first, again))
    assert any(len(x) != len(y) or (x != y).any() for x, y in zip(first, other))
    longest = {g: lengths[groups == g].max() for g in np.unique(groups[groups >= 0])}
    spread = np.mean([np.ptp([longest[g] for g in np.unique(groups[b])]) for b in first])
    assert spread < 0.5 * np.ptp(list(longest.values()))


def test_ranking_config_is_recorded_and_round_trips():
    config = registry.get("clstm/wikiqa/lc_lstms")
    values = json.loads(config.to_json())
    assert values["task"] == "ranking" and values["ranking_margin"] == 1.0
    assert values["select_metric"] == "map" and values["model_kwargs"]["head"] == "score"
    assert ExperimentConfig.from_dict(values) == config
    with pytest.raises(ValueError, match="selects on one of"):
        config.replace(select_metric="accuracy")
    with pytest.raises(ValueError, match="task must be one of"):
        config.replace(task="regression")


def test_table4_rows_carry_both_yahoo_settings_and_wikiqa_stand_ins_say_so():
    yahoo = registry.select(table="c-lstms-yahoo")
    wikiqa = registry.select(table="c-lstms-wikiqa")
    assert [c.row for c in yahoo] == [c.row for c in wikiqa] and len(yahoo) == 11
    stacked = registry.get("clstm/yahoo/three_stacked_lc_lstms")
    assert stacked.targets == {
        "test_p@1": pytest.approx(0.785),
        "test_10_p@1": pytest.approx(0.662),
    }
    assert stacked.model_kwargs["num_layers"] == 3 and stacked.model_kwargs["pool_size"] == [2, 1]
    assert stacked.optimizer.learning_rate == 0.05 and stacked.extra_eval_splits == ("test_10",)
    assert all(not c.targets and c.target_notes.startswith("STAND-IN") for c in wikiqa)


def test_a_ranking_run_needs_a_score_head(shared_data, tmp_path):
    config = registry.get("clstm/wikiqa/lc_lstms").replace(
        scale="smoke",
        embeddings="random",
        embedding_dim=8,
        model_kwargs={
            **registry.get("clstm/wikiqa/lc_lstms").model_kwargs,
            **TINY,
            "head": "softmax",
        },
    )
    with pytest.raises(ValueError, match="head='score'"):
        run_experiment(config, tmp_path / "run", shared_data, log=lambda *_: None)


@pytest.fixture(scope="module")
def wikiqa_run(shared_data, tmp_path_factory):
    registered = registry.get("clstm/wikiqa/lc_lstms")
    config = registered.replace(
        scale="low-resource",
        epochs=1,
        max_train_examples=400,
        max_eval_examples=300,
        embeddings="random",
        embedding_dim=16,
        model_kwargs={**registered.model_kwargs, **TINY},
    )
    run_dir = tmp_path_factory.mktemp("wikiqa")
    metrics = run_experiment(
        config,
        run_dir,
        shared_data,
        cache_dir=tmp_path_factory.mktemp("cache"),
        log=lambda *_: None,
    )
    return config, run_dir, metrics


def _reference_metrics(rows):
    """P@1, MAP, MRR from predictions rows, one question at a time (ties: incorrect first)."""
    by_question = {}
    for row in rows:
        by_question.setdefault(row["question"], []).append(
            (float(row["score"]), row["gold"] == "correct")
        )
    p1, ap, rr, skipped = [], [], [], 0
    for candidates in by_question.values():
        correct = sum(c for _, c in candidates)
        if correct in (0, len(candidates)):
            skipped += 1
            continue
        ranked = [c for _, c in sorted(candidates, key=lambda sc: (-sc[0], sc[1]))]
        hits = [rank for rank, c in enumerate(ranked, 1) if c]
        p1.append(float(ranked[0]))
        ap.append(np.mean([k / rank for k, rank in enumerate(hits, 1)]))
        rr.append(1.0 / hits[0])
    return {"p@1": np.mean(p1), "map": np.mean(ap), "mrr": np.mean(rr)}, len(p1), skipped


def _predictions(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.mark.slow
def test_wikiqa_metrics_match_a_recomputation_from_the_predictions(wikiqa_run):
    _, run_dir, metrics = wikiqa_run
    for role in ("dev", "test"):
        rows = _predictions(run_dir / "predictions" / f"{role}.tsv")
        assert len(rows) == metrics["examples"][role]
        expected, scored, skipped = _reference_metrics(rows)
        for key, value in expected.items():
            assert metrics[f"{role}_{key}"] == pytest.approx(value, abs=1e-9), (role, key)
        assert metrics[f"{role}_num_groups"] == scored > 0
        assert (
            metrics[f"{role}_groups_without_correct"] + metrics[f"{role}_groups_all_correct"]
        ) == skipped


@pytest.mark.slow
def test_predictions_rank_each_question_by_score(wikiqa_run):
    _, run_dir, _ = wikiqa_run
    rows = _predictions(run_dir / "predictions" / "test.tsv")
    by_question = {}
    for row in rows:
        by_question.setdefault(row["question"], []).append((float(row["score"]), int(row["rank"])))
    for candidates in by_question.values():
        ranks = [rank for _, rank in sorted(candidates, key=lambda sr: -sr[0])]
        assert sorted(ranks) == list(range(1, len(candidates) + 1))
        scores = dict((rank, score) for score, rank in candidates)
        assert all(scores[r] >= scores[r + 1] for r in range(1, len(candidates)))


@pytest.mark.slow
def test_wikiqa_run_records_ranking_config_selection_and_whole_questions(wikiqa_run, shared_data):
    config, run_dir, metrics = wikiqa_run
    saved = json.loads((run_dir / "config.json").read_text())
    assert ExperimentConfig.from_dict(saved) == apply_scale(config)
    epochs = [json.loads(line) for line in (run_dir / "epochs.jsonl").read_text().splitlines()]
    assert len(epochs) == 1 and np.isfinite(epochs[0]["train_loss"]) and "dev_map" in epochs[0]
    assert metrics["best_epoch"] == 1
    # Limits cut at question boundaries and training left out questions with nothing to rank.
    assert any("whole questions" in note for note in metrics["data_notes"])
    assert any("form the training batches" in note for note in metrics["data_notes"])
    questions = {row["question"] for row in _predictions(run_dir / "predictions" / "test.tsv")}
    counts = collections.Counter(
        e.group for e in data_registry.read_split("wikiqa", "test", shared_data)
    )
    assert sum(counts[q] for q in questions) == metrics["examples"]["test"]


def test_yahoo_split_reads_the_builders_layout(tmp_path):
    """question<TAB>answer<TAB>label<TAB>group lines (experiments/build_yahoo.py) become
    candidates grouped by question; a missing file names the build command."""
    folder = tmp_path / "yahoo"
    folder.mkdir()
    (folder / "test.tsv").write_text(
        "how do i x ?\tyou do y .\t1\tq7\nhow do i x ?\tz is nice .\t0\tq7\n", "utf-8"
    )
    examples = list(data_registry.read_split("yahoo", "test", tmp_path))
    assert [(e.a, e.b, e.label, e.group) for e in examples] == [
        ("how do i x ?", "you do y .", 1, "q7"),
        ("how do i x ?", "z is nice .", 0, "q7"),
    ]
    with pytest.raises(data_registry.MissingDataError, match="build_yahoo.py"):
        data_registry.resolve_split("yahoo", "test_10", tmp_path)


@pytest.mark.slow
def test_report_table_shows_map_mrr_and_p_at_1(wikiqa_run):
    from gcnn_match.evidence.runs import collect
    from gcnn_match.reporting import tables

    config, run_dir, metrics = wikiqa_run
    rows = collect([registry.get(config.name)], {config.name: [run_dir]})
    assert rows[0]["test_map"] == (metrics["test_map"], 0.0)
    markdown = tables.render_markdown(rows)
    assert "ours: test map | Δ | paper: test mrr" in markdown
    cells = [c.strip() for c in markdown.splitlines()[2].split("|")]
    for key in ("test_map", "test_mrr", "test_p@1"):
        assert f"{100 * metrics[key]:.2f}" in cells


@pytest.mark.slow
def test_saved_ranking_run_scores_and_evaluates_like_its_records(wikiqa_run, shared_data):
    from gcnn_match.training.predict import TrainedModel

    _, run_dir, metrics = wikiqa_run
    saved = TrainedModel.from_run(run_dir)
    examples = list(data_registry.read_split("wikiqa", "test", shared_data))
    examples = [examples[i] for i in first_whole_groups(examples, 300)]
    rows = _predictions(run_dir / "predictions" / "test.tsv")
    assert [e.uid for e in examples] == [row["uid"] for row in rows]
    np.testing.assert_allclose(
        saved.score_examples(examples), [float(row["score"]) for row in rows], rtol=1e-5, atol=1e-6
    )
    values = saved.evaluate_examples(examples)
    for key in ("p@1", "map", "mrr", "num_groups"):
        assert values[key] == pytest.approx(metrics[f"test_{key}"]), key
    with pytest.raises(ValueError, match="score_examples"):
        saved.predict_examples(examples[:2])


@pytest.mark.slow
def test_yahoo_row_reports_both_candidate_settings(tmp_path):
    """A Yahoo row on tiny candidate sets in build_yahoo.py's layout reports the keys its
    paper targets are compared with: P@1 among 5 (test) and among 10 (test_10)."""
    rng = np.random.RandomState(0)
    words = [f"w{i}" for i in range(30)]
    (tmp_path / "yahoo").mkdir()
    for split, questions, negatives in (
        ("train", 24, 4),
        ("dev", 6, 4),
        ("test", 6, 4),
        ("test_10", 6, 9),
    ):
        lines = []
        for q in range(questions):
            question = " ".join(rng.choice(words, 5))
            for label in [1] + [0] * negatives:
                answer = question if label else " ".join(rng.choice(words, 6))
                lines.append(f"{question}\t{answer}\t{label}\t{split}-{q}")
        (tmp_path / "yahoo" / f"{split}.tsv").write_text("\n".join(lines) + "\n", "utf-8")
    registered = registry.get("clstm/yahoo/nbow")
    config = registered.replace(
        epochs=1,
        embeddings="random",
        embedding_dim=8,
        model_kwargs={**registered.model_kwargs, "units": 8},
    )
    metrics = run_experiment(config, tmp_path / "run", tmp_path, log=lambda *_: None)
    for _, ours in config.compare:
        assert 0.0 <= metrics[ours] <= 1.0, ours
    assert metrics["test_num_groups"] == metrics["test_10_num_groups"] == 6
    assert metrics["examples"] == {"train": 120, "dev": 30, "test": 30, "test_10": 60}
