"""Ranking: the max-margin loss over each question's candidates, and P@1 / MAP / MRR.

Used for answer selection (C-LSTMs' Yahoo MQA, Table 4; WikiQA): a model scores every
(question, candidate) pair and the candidates of one question compete with each other.
"""
import numpy as np
from keras import ops


def max_margin_ranking_loss(scores, group_ids, labels, margin=1.0):
    """Mean over questions of sum over (positive, negative) pairs of max(0, m - s+ + s-).

    The paper's ranking loss (§5, after Bordes et al. 2013): every negative candidate of a
    question should score at least `margin` below its positive one. With several positives
    a question sums over all its positive-negative pairs [U->S, MODEL_SPECS §3.6]. Pairs
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


def ranking_metrics(group_ids, scores, labels):
    """P@1, MAP and MRR over the questions that have at least one correct candidate.

    Questions without any correct candidate are excluded, as in the filtered WikiQA
    evaluation (Yang et al. 2015), which drops them because every ranking of them is
    equally wrong; `num_groups` says how many questions were scored. Candidates are ranked
    by descending score; tied candidates are ranked with the incorrect ones first, so a
    model that scores everything alike gets no credit from the order of the input.

    Args:
        group_ids: (N,) question id of each candidate (any hashable values).
        scores: (N,) float scores.
        labels: (N,) 1 for a correct candidate, 0 otherwise.

    Returns:
        dict with "p@1", "map", "mrr" (floats in [0, 1]) and "num_groups" (int).
    """
    group_ids = np.asarray(group_ids)
    scores = np.asarray(scores, dtype="float64").reshape(-1)
    labels = (np.asarray(labels).reshape(-1) > 0).astype(int)
    if not (len(group_ids) == len(scores) == len(labels)):
        raise ValueError("group_ids, scores and labels must have the same length")
    top1, average_precision, reciprocal_rank = [], [], []
    for group in np.unique(group_ids):
        members = group_ids == group
        group_labels = labels[members]
        if not group_labels.any():
            continue
        order = np.lexsort((group_labels, -scores[members]))  # last key sorts first
        ranked = group_labels[order]
        hits = np.flatnonzero(ranked) + 1  # 1-based ranks of the correct candidates
        top1.append(float(ranked[0]))
        average_precision.append(float(np.mean(np.arange(1, len(hits) + 1) / hits)))
        reciprocal_rank.append(1.0 / hits[0])
    if not top1:
        raise ValueError("no question has a correct candidate")
    return {"p@1": float(np.mean(top1)), "map": float(np.mean(average_precision)),
            "mrr": float(np.mean(reciprocal_rank)), "num_groups": len(top1)}
