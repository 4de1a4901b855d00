"""Majority-vote ensembles of finished runs (COIN's "COIN (ensemble)" rows, docs/coin.md#ensemble).

COIN's ensemble is "the majority vote of the results given by 5 runs of the same model under
different random parameter initialization" (Hu et al. 2021, §3.2): each run votes with its
predicted label, probabilities are not averaged. Train the single-model row with 5 seeds, then

    ensemble_metrics([runs/coin/quora/coin_ours/full-seed1, ..., full-seed5], "test")

Ties (possible with an even number of runs or more than two classes) go to the tied label
with the highest summed probability over the runs, then to the label listed first in the
files' header (the lowest class id).
"""

import csv
import pathlib

import numpy as np

from gcnn_match.data import registry as data_registry
from gcnn_match.files import read_json
from gcnn_match.training.metrics import accuracy, f1


def read_predictions(path):
    """(uids, gold names, predicted names, label names, probabilities) of one predictions file."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    header, rows = rows[0], rows[1:]
    if header[:3] != ["uid", "gold", "predicted"]:
        raise ValueError(f"{path}: not a predictions file (header {header[:3]})")
    labels = [name[len("p_") :] for name in header[3:]]
    probabilities = np.array([[float(p) for p in row[3:]] for row in rows]).reshape(
        len(rows), len(labels)
    )
    return ([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], labels, probabilities)


def _vote(predicted, probabilities, labels):
    """Label names by majority over runs; predicted (runs, N) names, probabilities (runs, N, C)."""
    index = {name: i for i, name in enumerate(labels)}
    votes = np.zeros(probabilities.shape[1:])
    for run in predicted:
        votes[np.arange(len(run)), [index[name] for name in run]] += 1
    # Tie-break by summed probability: a score below one vote never overturns a majority.
    mass = probabilities.sum(axis=0)
    score = votes + 0.5 * mass / (mass.sum(axis=-1, keepdims=True) + 1e-12)
    return [labels[i] for i in np.argmax(score, axis=-1)]  # argmax: first label on exact ties


def majority_vote(prediction_files):
    """(voted label names, uids) over the `predictions/<split>.tsv` files of several runs.

    Every file must list the same examples (uids) in the same order with the same labels.
    """
    files = [read_predictions(path) for path in prediction_files]
    if not files:
        raise ValueError("majority_vote needs at least one predictions file")
    uids, _, _, labels, _ = files[0]
    for path, (other_uids, _, _, other_labels, _) in zip(prediction_files[1:], files[1:]):
        if other_uids != uids or other_labels != labels:
            raise ValueError(
                f"{path} does not list the same examples and labels as {prediction_files[0]}"
            )
    voted = _vote([f[2] for f in files], np.stack([f[4] for f in files]), labels)
    return voted, uids


def ensemble_metrics(run_dirs, split="test"):
    """Accuracy (and F1 of the dataset's positive class when it has one) of the vote on
    `split`, beside the single runs' mean accuracy."""
    run_dirs = [pathlib.Path(d) for d in run_dirs]
    paths = [d / "predictions" / f"{split}.tsv" for d in run_dirs]
    voted, _ = majority_vote(paths)
    _, gold, _, labels, _ = read_predictions(paths[0])
    if not all(gold):
        raise ValueError(f"{split} has unlabelled examples: nothing to score")
    index = {name: i for i, name in enumerate(labels)}
    gold_ids = np.array([index[name] for name in gold])
    voted_ids = np.array([index[name] for name in voted])
    singles = [accuracy(gold_ids, [index[name] for name in read_predictions(p)[2]]) for p in paths]
    metrics = {
        "runs": len(run_dirs),
        f"{split}_accuracy": accuracy(gold_ids, voted_ids),
        f"{split}_single_run_accuracy_mean": float(np.mean(singles)),
    }
    config = read_json(run_dirs[0] / "config.json", {})
    dataset = data_registry.get_dataset(config["dataset"]) if "dataset" in config else None
    if dataset is not None and dataset.positive_label is not None and len(labels) == 2:
        metrics[f"{split}_f1"] = f1(gold_ids, voted_ids, dataset.positive_label)
    metrics["seeds"] = [read_json(d / "config.json", {}).get("seed") for d in run_dirs]
    return metrics
