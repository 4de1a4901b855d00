"""Task metrics computed from predictions in NumPy (identical for dev, test and saved runs)."""

import numpy as np

# The metrics a report compares with the papers: classification, ranking (P@1/MAP/MRR), and
# the official FEVER score (ATTCONV Table 9's SUB; ALL is "label_accuracy").
HEADLINE_METRICS = ("accuracy", "f1", "p@1", "map", "mrr", "fever_score")


def is_headline_metric(key):
    """Whether `key` is a split's headline metric: "test_accuracy", "dev_map", "test_10_p@1"."""
    return key.endswith(tuple("_" + name for name in HEADLINE_METRICS))


def accuracy(labels, predictions):
    labels, predictions = np.asarray(labels), np.asarray(predictions)
    if labels.size == 0:
        raise ValueError("accuracy of an empty split")
    return float(np.mean(labels == predictions))


def f1(labels, predictions, positive=1):
    """F1 of the `positive` class (LCQMC reports the duplicate class)."""
    labels, predictions = np.asarray(labels), np.asarray(predictions)
    tp = np.sum((predictions == positive) & (labels == positive))
    fp = np.sum((predictions == positive) & (labels != positive))
    fn = np.sum((predictions != positive) & (labels == positive))
    if tp == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return float(2 * precision * recall / (precision + recall))


def classification_metrics(labels, probabilities, positive=None):
    """accuracy (and F1 of `positive` when given) for labelled examples only."""
    labels = np.asarray(labels)
    keep = labels >= 0
    if not keep.any():  # an unlabelled split (e.g. MultiNLI test): predictions only
        return {}
    predictions = np.argmax(probabilities, axis=-1)
    out = {"accuracy": accuracy(labels[keep], predictions[keep])}
    if positive is not None:
        out["f1"] = f1(labels[keep], predictions[keep], positive)
    return out


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
