"""Max-margin ranking loss and P@1 / MAP / MRR on hand-computed examples."""

import numpy as np
import pytest
import tensorflow as tf

from gcnn_match.training.ranking import (
    max_margin_ranking_loss,
    question_scores,
    rankable_questions,
    ranking_metrics,
)


def test_max_margin_loss_by_hand():
    # Question 0: positive 2.0, negatives 1.5 and -1.0 -> max(0, 1 - 2 + 1.5) + 0 = 0.5.
    # Question 1: positive 0.0, negative 0.5 -> 1.5.  Question 2: no positive -> left out.
    scores = np.array([2.0, 1.5, -1.0, 0.0, 0.5, 3.0, 1.0], "float32")
    groups = np.array([0, 0, 0, 1, 1, 2, 2])
    labels = np.array([1, 0, 0, 1, 0, 0, 0])
    loss = max_margin_ranking_loss(scores, groups, labels)
    np.testing.assert_allclose(float(loss), (0.5 + 1.5) / 2, rtol=1e-6)
    np.testing.assert_allclose(
        float(max_margin_ranking_loss(scores[:, None], groups, labels, margin=2.0)),
        (1.5 + 0.0 + 2.5) / 2,
        rtol=1e-6,
    )


def test_max_margin_loss_two_positives_and_gradient():
    scores = tf.Variable([1.0, 0.0, 0.5])
    with tf.GradientTape() as tape:
        loss = max_margin_ranking_loss(scores, [7, 7, 7], [1, 1, 0])
    # pairs (1.0 vs 0.5) -> 0.5 and (0.0 vs 0.5) -> 1.5, one question
    np.testing.assert_allclose(float(loss), 2.0, rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, scores).numpy(), [-1.0, -1.0, 2.0])


def test_max_margin_loss_without_pairs_is_zero():
    assert float(max_margin_ranking_loss([1.0, 2.0], [0, 1], [1, 0])) == 0.0


def test_ranking_metrics_by_hand():
    groups = ["q1"] * 4 + ["q2"] * 3 + ["q3"] * 2
    scores = [0.9, 0.8, 0.3, 0.1, 0.2, 0.7, 0.5, 0.4, 0.6]
    labels = [0, 1, 0, 1, 0, 1, 0, 0, 0]  # q3 has no correct answer: excluded
    got = ranking_metrics(groups, scores, labels)
    # q1: ranks of the positives 2 and 4 -> AP (1/2 + 2/4) / 2 = 0.5, RR 1/2, P@1 0.
    # q2: positive ranked 1st -> AP 1, RR 1, P@1 1.
    assert got == {
        "p@1": 0.5,
        "map": 0.75,
        "mrr": 0.75,
        "num_groups": 2,
        "groups_without_correct": 1,
        "groups_all_correct": 0,
    }


def test_each_questions_scores_by_hand():
    groups = ["q1"] * 4 + ["q2"] * 3 + ["q3"] * 2
    scores = [0.9, 0.8, 0.3, 0.1, 0.2, 0.7, 0.5, 0.4, 0.6]
    labels = [0, 1, 0, 1, 0, 1, 0, 0, 0]
    got = question_scores(groups, scores, labels)
    assert list(got["question"]) == ["q1", "q2", "q3"]
    np.testing.assert_allclose(got["p@1"], [0, 1, 0])
    np.testing.assert_allclose(got["ap"], [0.5, 1, 0])
    np.testing.assert_allclose(got["rr"], [0.5, 1, 0])
    assert list(rankable_questions(got)) == [True, True, False]


def test_questions_with_only_correct_candidates_are_left_out_and_counted():
    # q2's candidates are all correct: any ranking is perfect, so it would only inflate MAP.
    got = ranking_metrics(["q1", "q1", "q2", "q2"], [0.1, 0.9, 0.5, 0.4], [1, 0, 1, 1])
    assert got == {
        "p@1": 0.0,
        "map": 0.5,
        "mrr": 0.5,
        "num_groups": 1,
        "groups_without_correct": 0,
        "groups_all_correct": 1,
    }


def test_ties_count_against_the_positive():
    got = ranking_metrics([0, 0, 0], [1.0, 1.0, 1.0], [1, 0, 0])
    assert got["p@1"] == 0.0 and got["mrr"] == pytest.approx(1 / 3)


def test_no_positive_anywhere_is_an_error():
    with pytest.raises(ValueError):
        ranking_metrics([0, 0], [0.1, 0.2], [0, 0])


def test_metrics_match_a_per_question_loop_on_random_data():
    rng = np.random.RandomState(3)
    groups = rng.randint(0, 40, 400)
    scores = np.round(rng.randn(400), 1)  # rounded: many ties
    labels = (rng.rand(400) < 0.2).astype(int)
    expected = {"p@1": [], "map": [], "mrr": []}
    for group in np.unique(groups):
        member = groups == group
        s, y = scores[member], labels[member]
        if 0 < y.sum() < len(y):
            ranked = y[sorted(range(len(y)), key=lambda i: (-s[i], y[i]))]
            hits = np.flatnonzero(ranked) + 1
            expected["p@1"].append(ranked[0])
            expected["map"].append(np.mean([(k + 1) / r for k, r in enumerate(hits)]))
            expected["mrr"].append(1 / hits[0])
    got = ranking_metrics(groups, scores, labels)
    for key, values in expected.items():
        assert got[key] == pytest.approx(np.mean(values), abs=1e-12), key
    assert got["num_groups"] == len(expected["map"])


def test_keras_loss_reads_label_and_question_from_the_targets():
    from gcnn_match.training.ranking import MaxMarginRankingLoss, ranking_targets

    scores = np.array([[2.0], [1.5], [-1.0], [0.0], [0.5]], "float32")
    targets = ranking_targets([1, 0, 0, 1, 0], [0, 0, 0, 1, 1])
    loss = MaxMarginRankingLoss(margin=1.0)
    np.testing.assert_allclose(float(loss(targets, scores)), (0.5 + 1.5) / 2, rtol=1e-6)
    again = MaxMarginRankingLoss.from_config(MaxMarginRankingLoss(margin=0.3).get_config())
    assert again.margin == 0.3


def test_rankable_questions_have_a_correct_and_an_incorrect_candidate():
    from gcnn_match.training.ranking import group_index, rankable

    groups = group_index(["b", "b", "a", "a", "c"])
    np.testing.assert_array_equal(groups, [0, 0, 1, 1, 2])
    np.testing.assert_array_equal(
        rankable(groups, [1, 0, 1, 1, 0]), [True, True, False, False, False]
    )


def test_filtered_questions_are_the_official_wikiqa_qrels(shared_data):
    """The questions scored on real WikiQA dev/test are exactly those of the official
    WikiQA-{dev,test}-filtered.ref files (122 and 237), whose qid is the question's position."""
    import gzip

    from gcnn_match.data import registry
    from gcnn_match.training.ranking import group_index, rankable

    for split, expected in (("dev", 122), ("test", 237)):
        examples = list(registry.read_split("wikiqa", split, shared_data))
        groups = group_index([e.group for e in examples])
        kept = rankable(groups, [e.label for e in examples])
        ours = sorted({int(g) + 1 for g in groups[kept]})
        path, _ = registry.resolve_split("wikiqa", f"{split}_ref", shared_data, kind="resource")
        with (gzip.open if path.suffix == ".gz" else open)(path, "rt") as handle:
            official = sorted({int(line.split()[0]) for line in handle})
        assert ours == official and len(ours) == expected
        metrics = ranking_metrics(groups, np.zeros(len(groups)), [e.label for e in examples])
        assert metrics["num_groups"] == expected
