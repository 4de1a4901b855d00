"""P@1 / MAP / MRR and each question's scores on hand-computed examples."""

import numpy as np
import pytest

from gcnn_match.training.metrics import question_scores, rankable_questions, ranking_metrics


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
