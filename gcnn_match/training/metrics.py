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
