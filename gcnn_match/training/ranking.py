"""Ranking: the max-margin loss over each question's candidates, and its training targets.

Used for answer selection (C-LSTMs' Yahoo MQA, Table 4; WikiQA): a model scores every
(question, candidate) pair and the candidates of one question compete with each other.
`gcnn_match.training.tasks.RankingTask` wires these into the training loop; the ranking
metrics (P@1 / MAP / MRR) are in `metrics.py`.
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
