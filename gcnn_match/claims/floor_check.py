"""Rows A and B of a claim against their table's floors (docs/design.md#floors).

A verdict says whether A beats B, not whether either learnt anything: two rows can differ
significantly while both are below the majority class. So beside each verdict the report
says where each row's metric (its mean over seeds) lies against each floor of the committed
record results/floor-<table>-<scale>.json, on the claim's metric: the majority class and
TF-IDF + LR for a classification table; random order, TF-IDF cosine and TF-IDF + LR for a
ranking one.
"""

import dataclasses
from typing import Optional

from gcnn_match.baselines import floor
from gcnn_match.data.registry import get_dataset
from gcnn_match.evidence.predictions import F1, split_and_column
from gcnn_match.evidence.statistics import side
from gcnn_match.files import read_json


@dataclasses.dataclass(frozen=True)
class FloorCheck:
    """Where rows A and B lie against the floors of their table.

    Args:
        means: (A, B), each row's metric as a fraction: the mean over its seeds.
        floors: ((name, value), ...) of each floor in the record that has the claim's metric,
            in the record's order ("majority class", "TF-IDF + LR"...); empty when the table has
            no floor record at the scale (or none with the metric).
        judged: where the claim's metric is not its table's main metric (F1 beside
            accuracy), the check on the main metric, which "below floor" reads: on F1 a
            balanced test set's majority class is the always-positive predictor, a floor that
            says nothing of what a row learnt.
    """

    means: tuple
    floors: tuple
    judged: Optional["FloorCheck"] = None

    def describe(self):
        """E.g. "A 54.44, B 47.70: both below majority class (60.40) and TF-IDF + LR (72.11)";
        "no floor" without one."""
        if not self.floors:
            return "no floor"
        groups = {}
        for name, value in self.floors:
            groups.setdefault(self._sides(value), []).append(f"{name} ({100 * value:.2f})")
        where = "; ".join(f"{sides} {' and '.join(names)}" for sides, names in groups.items())
        a, b = (f"{100 * mean:.2f}" for mean in self.means)
        return f"A {a}, B {b}: {where}"

    def _sides(self, value):
        a, b = (_side(mean, value) for mean in self.means)
        return f"both {a}" if a == b else f"A {a}, B {b}"


def _side(mean, value):
    # A row that always predicts the majority class scores exactly its floor.
    return {0: "at", 1: "above", -1: "below"}[side(mean, value)]


def check(results_dir, table, scale, metric, means):
    """The `FloorCheck` of rows with metric `means` (A, B) against the floors of `table` at
    `scale` on `metric` (e.g. "test_accuracy"); on an F1, the majority class stands as the
    always-positive predictor (`_always_positive`)."""
    record = read_json(floor.record_path(results_dir, table, scale), {"floors": []})
    floors = tuple(
        _always_positive(record, entry, metric)
        or (entry["row"].removeprefix("reference: "), entry["metrics"][metric])
        for entry in record["floors"]
        if metric in entry["metrics"]
    )
    return FloorCheck(tuple(means), floors)


def _always_positive(record, entry, metric):
    """On the F1 of a two-class table, ("always positive", its F1) in place of the majority
    class: F1 = 2p / (1 + p) at a positive share p of the split, from the majority class's
    accuracy on it. The majority class's own F1 is that (when it is the positive class) or 0,
    a floor that nothing fails to clear. None for any other floor or metric."""
    split, column = split_and_column(metric) or (None, None)
    if entry.get("name") != "majority" or column != F1:
        return None
    dataset = get_dataset(record["dataset"])
    if len(dataset.labels) != 2:
        return None
    accuracy = entry["metrics"][f"{split}_accuracy"]
    positive = dataset.labels[dataset.positive_label]
    share = accuracy if entry["label"] == positive else 1.0 - accuracy
    return "always positive", 2 * share / (1 + share)
