"""Max-margin ranking loss and the questions it ranks, on hand-computed examples."""

import numpy as np
import tensorflow as tf

from gcnn_match.training.metrics import ranking_metrics
from gcnn_match.training.ranking import max_margin_ranking_loss


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
