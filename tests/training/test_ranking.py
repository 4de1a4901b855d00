"""Max-margin ranking loss and P@1 / MAP / MRR on hand-computed examples."""
import numpy as np
import pytest
import tensorflow as tf

from gcnn_match.training.ranking import max_margin_ranking_loss, ranking_metrics


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
        (1.5 + 0.0 + 2.5) / 2, rtol=1e-6)


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
    assert got == {"p@1": 0.5, "map": 0.75, "mrr": 0.75, "num_groups": 2}


def test_ties_count_against_the_positive():
    got = ranking_metrics([0, 0, 0], [1.0, 1.0, 1.0], [1, 0, 0])
    assert got["p@1"] == 0.0 and got["mrr"] == pytest.approx(1 / 3)


def test_no_positive_anywhere_is_an_error():
    with pytest.raises(ValueError):
        ranking_metrics([0, 0], [0.1, 0.2], [0, 0])
