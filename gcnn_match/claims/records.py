"""The per-example prediction records a claim reads, and Δ = A − B of two rows on them.

A row may have runs under several configs (e.g. an epoch cap). A claim sets like against like:
it uses a config both rows ran, the one with the most seeds in both (then the highest epoch
cap); only where the rows share none, or where each row's own config with the most seeds
(then the highest epoch cap) gives the row with the fewest seeds more, does it take those, and
says the configs differ. Units (examples or questions) are those both rows were scored on in
every seed. F1 is measured from the records' labels as a ratio of sums over units
(`unit_scores`); the FEVER score is the mean of the official scorer's per-claim term, which the
records keep (`fever_correct`). `difference` is that measurement for any two rows of a table:
`readings.py` (and experiments/compare.py) reads it both ways for rows that are no claim of the
paper.
"""

import dataclasses
import pathlib

import numpy as np
import pandas as pd

from gcnn_match.claims.outcome import SEEDS, NotRecorded
from gcnn_match.data.registry import get_dataset
from gcnn_match.evidence import predictions, statistics
from gcnn_match.evidence.runs import run_of_registered
from gcnn_match.experiments import registry as experiments


class RecordedPredictions:
    """The per-example prediction records (`evidence/predictions.py`) under `results_dir`, read
    once per (table, scale)."""

    def __init__(self, results_dir):
        self.results_dir = pathlib.Path(results_dir)
        self._frames = {}

    def lines(self, table, scale, row, split):
        key = (table, scale)
        if key not in self._frames:
            path = predictions.record_path(self.results_dir, table, scale)
            self._frames[key] = predictions.read_record(path)
        frame = self._frames[key]
        return frame[(frame["row"] == row) & (frame["split"] == split)]


def one_config(lines):
    """The lines of the config with the most seeds, then the highest epoch cap."""
    configs = lines.groupby("config").agg(seeds=("seed", "nunique"), cap=("max_epochs", "max"))
    best = configs.sort_values(["seeds", "cap"], ascending=False, kind="stable").index[0]
    return lines[lines["config"] == best]


def _shared_config(*lines):
    """The lines of each row under the config all ran with the most seeds in all (then the
    highest epoch cap), or None when they share no config."""
    # A majority vote is of its members' config ("<config>-vote").
    configs = [rows["config"].str.removesuffix("-vote") for rows in lines]
    seeds = [rows.groupby(config)["seed"].nunique() for rows, config in zip(lines, configs)]
    shared = sorted(set.intersection(*(set(s.index) for s in seeds)))
    if not shared:
        return None
    caps = pd.concat(lines).groupby(pd.concat(configs))["max_epochs"].max()
    best = max(shared, key=lambda c: (min(s[c] for s in seeds), caps[c]))
    return [rows[config == best] for rows, config in zip(lines, configs)]


def compared_configs(*lines):
    """The lines of each row that a claim compares: the config all ran with the most seeds in
    all (`_shared_config`), unless each row's own config with the most seeds (`one_config`)
    gives the row with the fewest seeds more (a run set part-way to five seeds at the
    registered schedule does not displace a complete capped one)."""
    own = [one_config(rows) for rows in lines]
    shared = _shared_config(*lines)
    if shared is None or _fewest_seeds(own) > _fewest_seeds(shared):
        return own
    return shared


def _fewest_seeds(lines):
    """The fewest seeds of any row's `lines`; a majority vote ("<config>-vote", seed 0) counts
    as the complete set it was voted from."""
    return min(
        len(SEEDS) if rows["config"].str.endswith("-vote").all() else rows["seed"].nunique()
        for rows in lines
    )


def _cap(lines, name):
    """The epoch cap of one config's `lines` of row `name`, or None where it is the registered
    schedule."""
    cap = int(lines["max_epochs"].iloc[0])
    return None if cap == experiments.get(name).epochs else cap


def epochs_run(lines, name):
    """ "12–20 / 20" (epochs run by its seeds / registered), with the cap where it differs."""
    run = lines.groupby("seed")["epochs"].first()
    return run_of_registered(run.tolist(), experiments.get(name).epochs, _cap(lines, name))


def _seed_count(lines):
    seeds = lines["seed"].unique()
    return "vote" if list(seeds) == [0] else str(len(seeds))


@dataclasses.dataclass(frozen=True)
class Difference:
    """Δ = A − B of two rows' metric, measured on the per-example records at one scale.

    Attributes:
        comparison: the `statistics.Comparison` of Δ: estimate, 95% interval, seeds, units
            (its verdict reads the interval for "A above B").
        scale: the scale of the records.
        means: each row's metric as its runs report it: the mean over seeds of the mean over
            units (a fraction).
        seeds: each row's seeds in words ("5", or "vote" for a majority-vote row).
        epochs: each row's epochs run / registered in words ("8–12 / 20 (cap 6)").
        configs: each row's config, the run directories' name without the seed.
        per_seed: each row's metric per seed (one value for a majority vote).
    """

    comparison: object
    scale: str
    means: tuple
    seeds: tuple
    epochs: tuple
    configs: tuple
    per_seed: tuple = ()

    @property
    def sample(self):
        """ "5 vs 5 seeds, 9824 units"."""
        return f"{self.seeds[0]} vs {self.seeds[1]} seeds, {self.comparison.units} units"

    @property
    def notes(self):
        """What the reader should know about the numbers: a row of one seed, differing
        configs."""
        notes = [self.comparison.note] if self.comparison.note else []
        return notes + self.config_notes

    @property
    def config_notes(self):
        """["configs differ: A …, B …"] where the rows' configs differ, else []."""
        # A vote is of its members' config.
        if len({c.removesuffix("-vote") for c in self.configs}) > 1:
            return [f"configs differ: A {self.configs[0]}, B {self.configs[1]}"]
        return []


def difference(store, table, a, b, metric, scales):
    """Δ = A − B of rows `a` and `b` (registered names) of `table` on `metric` (a mean over
    test units), at the first of `scales` where the records hold both rows.

    The config both rows ran with the most seeds in both (then the highest epoch cap), else
    per row the config with the most seeds (then the highest epoch cap), where the rows share
    no config or that gives the row with the fewest seeds more (`compared_configs`); the
    units are those
    both rows were scored on in every seed; the interval is that of `statistics.compare_rows`.

    Args:
        store: the `RecordedPredictions` to read.
        table: the results table, e.g. "c-lstms-snli".
        a, b: registered row names of `table`.
        metric: e.g. "test_accuracy", "test_p@1", "dev_mismatched_accuracy".
        scales: scales in order of preference.

    Returns:
        A `Difference`, or None when no scale's records hold both rows.
    """
    split, column = predictions.split_and_column(metric)
    for scale in scales:
        lines = [store.lines(table, scale, row, split) for row in (a, b)]
        if any(rows.empty for rows in lines):
            continue
        lines = compared_configs(*lines)
        terms = [unit_scores(rows, column, row) for rows, row in zip(lines, (a, b))]
        units = complete_units([scores for scores, _ in terms])
        vote = _is_vote_of(lines, a, b)
        trained = (lines[1], lines[1]) if vote else lines  # a vote ran its seeds' epochs
        if vote:
            comparison = vote_comparison(lines[1], units, column, _positive(b, column))
        else:
            comparison = statistics.compare_rows(
                *(scores[units].to_numpy() for scores, _ in terms),
                denominators=at_units([below for _, below in terms], units),
            )
        return Difference(
            comparison,
            scale,
            means=tuple(row_metric(*pair) for pair in terms),
            per_seed=tuple(seed_metrics(*pair).to_numpy() for pair in terms),
            seeds=tuple(_seed_count(rows) for rows in lines),
            epochs=tuple(epochs_run(rows, name) for rows, name in zip(trained, (a, b))),
            configs=tuple(rows["config"].iloc[0] for rows in lines),
        )
    return None


def _is_vote_of(lines, a, b):
    """Whether row `a` is the majority vote of row `b`'s seeds under the same config."""
    vote, members = (rows["config"].iloc[0] for rows in lines)
    return (
        experiments.get(a).runs_of == b
        and experiments.get(a).ensemble_size > 0
        and vote == f"{members}-vote"
    )


def unit_scores(lines, column, row):
    """(scores, denominators) of a row's lines, each a seed × uid frame (NaN where a seed has
    no prediction): the values of `column` and None, for a mean over units; for F1
    (`predictions.F1`), `statistics.unit_terms` of the predicted and gold labels against
    the positive label of `row`'s dataset."""
    if column != predictions.F1:
        if lines[column].isna().any():
            split = lines["split"].iloc[0]
            raise NotRecorded(
                f"{row}: its {split} records hold no {column}, which its runs did not write "
                f"(predictions/{split}_official.tsv); runs trained again record it"
            )
        return lines.pivot(index="seed", columns="uid", values=column), None
    predicted = lines.pivot(index="seed", columns="uid", values="predicted")
    gold = lines.groupby("uid")["gold"].first()[predicted.columns].to_numpy()
    positive = _positive(row, column)
    terms = statistics.unit_terms(predicted.to_numpy() == positive, gold == positive, True)
    return tuple(
        pd.DataFrame(values, predicted.index, predicted.columns).where(predicted.notna())
        for values in terms
    )


def _positive(row, column):
    """The label whose F1 `column` measures for registered row `row`; None for a mean."""
    if column != predictions.F1:
        return None
    dataset = get_dataset(experiments.get(row).dataset)
    return dataset.labels[dataset.positive_label]


def complete_units(scores):
    """The uids that every seed of every row's score frame was scored on."""
    units = scores[0].columns
    for frame in scores[1:]:
        units = units.intersection(frame.columns)
    complete = np.logical_and.reduce([frame[units].notna().all().to_numpy() for frame in scores])
    return units[complete]


def at_units(denominators, units):
    """The denominators' arrays at `units`, or None for means."""
    if denominators[0] is None:
        return None
    return [below[units].to_numpy() for below in denominators]


def row_metric(scores, denominators):
    """A row's metric as its runs report it: the mean over seeds of each seed's metric."""
    return seed_metrics(scores, denominators).mean()


def seed_metrics(scores, denominators):
    """Each seed's metric of a row's `unit_scores` frames, a Series over seeds."""
    below = scores.notna().sum(axis=1) if denominators is None else denominators.sum(axis=1)
    # An F1 with no positive label or prediction is 0, as `statistics.unit_terms` counts it.
    return (scores.sum(axis=1) / below).where(below > 0, 0.0)


def vote_comparison(members, units, column, positive=None):
    """vote − members of a majority vote and its member seeds' lines, the vote recomputed from
    the seeds drawn in each bootstrap replicate (`statistics.compare_vote`), on accuracy or on
    the F1 of label `positive` (`column`: "correct" or `predictions.F1`)."""
    if column not in predictions.LABEL_COLUMNS:
        # The vote is rebuilt from labels alone: it would measure accuracy under another name.
        raise ValueError(f"a vote is compared with its seeds on accuracy or F1, not {column}")
    predicted = members.pivot(index="seed", columns="uid", values="predicted")[units]
    gold = members.drop_duplicates("uid").set_index("uid")["gold"][units]
    labels = sorted(set(gold) | set(predicted.to_numpy().ravel()))
    code = {label: i for i, label in enumerate(labels)}
    return statistics.compare_vote(
        predicted.apply(lambda column: column.map(code)).to_numpy(),
        gold.map(code).to_numpy(),
        positive=None if positive is None else code[positive],
    )
