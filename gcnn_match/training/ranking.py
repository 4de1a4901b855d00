"""Ranking: the max-margin loss over each question's candidates, and P@1 / MAP / MRR.

Used for answer selection (C-LSTMs' Yahoo MQA, Table 4; WikiQA): a model scores every
(question, candidate) pair and the candidates of one question compete with each other.
`gcnn_match.training.tasks.RankingTask` wires these into the training loop.
"""

import keras
import numpy as np
from keras import ops


def max_margin_ranking_loss(scores, group_ids, labels, margin=1.0):
    """Mean over questions of sum over (positive, negative) pairs of max(0, m - s+ + s-).

    The paper's ranking loss (§5, after Bordes et al. 2013): every negative candidate of a
    question should score at least `margin` below its positive one. With several positives
    a question sums over all its positive-negative pairs [U→S, docs/clstm.md#output-layers]. Pairs
    never cross questions, so a batch must hold whole groups (or at least both sides of the
    pairs that should count); questions with no pair in the batch are left out of the mean.

    Written with `keras.ops` for use inside a training step (differentiable in `scores`).

    Args:
        scores: float (N,) or (N, 1), the model's scores.
        group_ids: int (N,), the question each candidate belongs to.
        labels: (N,), 1 for a correct candidate and 0 otherwise.
        margin: the margin m (1.0, unstated in the paper).

    Returns:
        A float scalar (0 when the batch has no positive-negative pair).
    """
    scores = ops.reshape(ops.cast(scores, "float32"), (-1,))
    group_ids = ops.reshape(group_ids, (-1,))
    positive = ops.cast(ops.reshape(labels, (-1,)) > 0, "float32")
    same_group = ops.cast(ops.equal(group_ids[:, None], group_ids[None, :]), "float32")
    pairs = same_group * positive[:, None] * (1.0 - positive)[None, :]  # [i pos, j neg]
    hinge = ops.relu(margin - scores[:, None] + scores[None, :]) * pairs
    # A question counts once: at its first candidate that takes part in a pair.
    in_pair = ops.cast(ops.sum(pairs + ops.transpose(pairs), axis=1) > 0, "float32")
    group_sizes = ops.sum(same_group * in_pair[None, :], axis=1)
    num_groups = ops.sum(in_pair / ops.maximum(group_sizes, 1.0))
    return ops.sum(hinge) / ops.maximum(num_groups, 1.0)


@keras.saving.register_keras_serializable(package="gcnn_match")
class MaxMarginRankingLoss(keras.losses.Loss):
    """`max_margin_ranking_loss` as a Keras loss for `model.compile`.

    The targets carry the question along with the label, because the loss compares the
    candidates of one question: `y_true` is (B, 2) with columns [label, question id] (see
    `ranking_targets`), `y_pred` the (B, 1) scores. Batches must hold whole questions.

    Args:
        margin: the margin m of the hinge.
    """

    def __init__(self, margin=1.0, name="max_margin_ranking", **kwargs):
        super().__init__(name=name, **kwargs)
        self.margin = margin

    def call(self, y_true, y_pred):
        return max_margin_ranking_loss(y_pred, y_true[:, 1], y_true[:, 0], self.margin)

    def get_config(self):
        return {**super().get_config(), "margin": self.margin}


def group_index(groups):
    """Question keys (strings) -> int ids 0, 1, ... in order of first appearance."""
    ids = {}
    return np.array([ids.setdefault(g, len(ids)) for g in groups], dtype=np.int64)


def ranking_targets(labels, group_ids):
    """(N, 2) int32 targets [label, question id] for `MaxMarginRankingLoss`.

    The loss sees them as float32 (Keras casts targets to the loss dtype), which holds
    question ids exactly below 2**24.
    """
    group_ids = np.asarray(group_ids)
    if len(group_ids) and group_ids.max() >= 2**24:
        raise ValueError(
            f"{group_ids.max() + 1} questions: ids from 2**24 on are not exact in "
            "float32 targets; split the training file"
        )
    return np.stack([np.asarray(labels), group_ids], axis=1).astype(np.int32)


def _sorted_groups(group_ids, scores, labels):
    """Candidates sorted by question, then by descending score, ties incorrect first.

    Returns (ranked labels, 1-based rank of each within its question, start of each question
    in the sorted order, candidates per question).
    """
    _, inverse = np.unique(group_ids, return_inverse=True)
    order = np.lexsort((labels, -scores, inverse))  # the last key sorts first
    ranked, sorted_groups = labels[order], inverse[order]
    starts = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1]])
    sizes = np.diff(np.r_[starts, len(order)])
    ranks = np.arange(len(order)) - np.repeat(starts, sizes) + 1
    return ranked, ranks, starts, sizes


def rankable(group_ids, labels):
    """Per candidate: does its question have both a correct and an incorrect candidate?

    Only such questions can be ranked right or wrong: the others add nothing to the
    max-margin loss and every ranking of them scores the same.
    """
    _, inverse = np.unique(np.asarray(group_ids), return_inverse=True)
    correct = np.asarray(labels).reshape(-1) > 0
    positives = np.bincount(inverse, weights=correct)
    sizes = np.bincount(inverse)
    return ((positives > 0) & (positives < sizes))[inverse]


def question_scores(group_ids, scores, labels):
    """Each question's top-1 hit, average precision and reciprocal rank.

    Candidates are ranked by descending score, tied candidates with the incorrect ones first
    (see `ranking_metrics`). A question without a correct candidate scores 0 everywhere.

    Args:
        group_ids: (N,) question id of each candidate (any sortable values).
        scores: (N,) float scores.
        labels: (N,) 1 for a correct candidate, 0 otherwise.

    Returns:
        dict of arrays over the questions, in sorted question-id order: "question" (the ids),
        "p@1", "ap", "rr", "positives" (correct candidates) and "candidates".
    """
    group_ids = np.asarray(group_ids)
    scores = np.asarray(scores, dtype="float64").reshape(-1)
    labels = (np.asarray(labels).reshape(-1) > 0).astype(int)
    if not (len(group_ids) == len(scores) == len(labels)):
        raise ValueError("group_ids, scores and labels must have the same length")
    ranked, ranks, starts, sizes = _sorted_groups(group_ids, scores, labels)
    positives = np.add.reduceat(ranked, starts) if len(ranked) else np.zeros(0, int)
    # Precision at the rank of each correct candidate: correct ones so far / rank.
    hits_so_far = np.cumsum(ranked) - np.repeat(np.cumsum(ranked)[starts] - ranked[starts], sizes)
    precision = np.where(ranked == 1, hits_so_far / ranks, 0.0)
    first_hit = np.minimum.reduceat(np.where(ranked == 1, ranks, np.iinfo(int).max), starts)
    return {
        "question": np.unique(group_ids),
        "p@1": ranked[starts].astype("float64"),
        "ap": np.add.reduceat(precision, starts) / np.maximum(positives, 1),
        "rr": np.where(positives > 0, 1.0 / first_hit, 0.0),
        "positives": positives,
        "candidates": sizes,
    }


def rankable_questions(per_question):
    """Mask over `question_scores` output: questions with a correct and an incorrect
    candidate, the only ones a ranking can get right or wrong."""
    return (per_question["positives"] > 0) & (
        per_question["positives"] < per_question["candidates"]
    )


def ranking_metrics(group_ids, scores, labels):
    """P@1, MAP and MRR over the questions with a correct and an incorrect candidate.

    This is the filtered WikiQA evaluation: its official qrels (WikiQA-{dev,test}-filtered.ref)
    hold exactly the questions with at least one correct and one incorrect sentence (122 dev
    and 237 test questions), scored with trec_eval. Questions without a correct candidate are
    dropped because every ranking of them is equally wrong, questions whose candidates are all
    correct because every ranking is perfect; both are counted in the result. Candidates are
    ranked by descending score; tied candidates are ranked with the incorrect ones first, so a
    model that scores everything alike gets no credit from the order of the input.

    Args:
        group_ids: (N,) question id of each candidate (any sortable values).
        scores: (N,) float scores.
        labels: (N,) 1 for a correct candidate, 0 otherwise.

    Returns:
        dict with "p@1", "map", "mrr" (floats in [0, 1]), "num_groups" (questions scored),
        "groups_without_correct" and "groups_all_correct" (questions left out).
    """
    per_question = question_scores(group_ids, scores, labels)
    keep = rankable_questions(per_question)
    if not keep.any():
        raise ValueError(
            "no question has both a correct and an incorrect candidate: nothing to rank"
        )
    positives, sizes = per_question["positives"], per_question["candidates"]
    return {
        "p@1": float(np.mean(per_question["p@1"][keep])),
        "map": float(np.mean(per_question["ap"][keep])),
        "mrr": float(np.mean(per_question["rr"][keep])),
        "num_groups": int(keep.sum()),
        "groups_without_correct": int(np.sum(positives == 0)),
        "groups_all_correct": int(np.sum((positives > 0) & (positives == sizes))),
    }
