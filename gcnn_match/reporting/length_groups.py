"""Figure 5 of ATTCONV (Yin & Schütze, TACL 2018, §4.2): accuracy by text-length group.

"We sort the 2,000 test instances by length, then split them into 10 groups, each consisting
of 200 instances", and plot each group's accuracy for ATTCONV and its strongest baseline,
with the difference of the two curves. Here any runs that predicted the same split can be
compared; the accuracies come from their `predictions/<split>.tsv` and the lengths from the
split's texts, tokenized with the first run's own text policy (before any cut-off).

    lengths = text_lengths(run_dirs[0], data_dir, "test", length_of="pair")
    groups = length_groups(lengths)
    curves = {name: group_accuracies(run_correct(run, "test"), groups) for ...}
    plot_length_groups(lengths, groups, curves, "figures/length_groups.png")
"""

import pathlib

import numpy as np

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.data import registry as data_registry
from gcnn_match.data.experiment_data import apply_scale
from gcnn_match.data.pipeline import PairEncoder, tokenize_examples
from gcnn_match.files import read_json
from gcnn_match.reporting.heatmaps import new_figure, save_png
from gcnn_match.training.ensemble import read_predictions

LENGTH_OF = ("pair", "a", "b")


def length_groups(lengths, groups=10):
    """Example indices of `groups` groups of ascending length, sizes differing by at most one.

    Ties keep file order (a stable sort), so the grouping is deterministic.
    """
    lengths = np.asarray(lengths)
    if not 0 < groups <= len(lengths):
        raise ValueError(f"cannot split {len(lengths)} examples into {groups} length groups")
    return np.array_split(np.argsort(lengths, kind="stable"), groups)


def group_accuracies(correct, groups):
    """Accuracy (fraction of `correct`) inside each group of indices."""
    correct = np.asarray(correct, dtype=bool)
    return np.array([correct[index].mean() for index in groups])


def run_correct(run_dir, split="test"):
    """(uids, bool array: prediction == gold) of a run's `predictions/<split>.tsv`."""
    path = pathlib.Path(run_dir) / "predictions" / f"{split}.tsv"
    if not path.exists():
        raise FileNotFoundError(
            f"{path} not found: the run has no predictions on {split} "
            "(a run writes them when it finishes)"
        )
    uids, gold, predicted, _, _ = read_predictions(path)
    if not all(gold):
        raise ValueError(f"{path}: unlabelled examples; accuracy needs gold labels")
    return uids, np.array([g == p for g, p in zip(gold, predicted)])


def text_lengths(run_dir, data_dir, split="test", length_of="pair", uids=None):
    """Token counts of the split's texts under the run's text policy, in predictions order.

    `length_of`: "pair" (a + b), "a" or "b" (use "a" when both sides hold one text, as in
    intra-context Yelp). `uids` defaults to those of the run's predictions file.
    """
    if length_of not in LENGTH_OF:
        raise ValueError(f"length_of must be one of {LENGTH_OF}, got {length_of!r}")
    run_dir = pathlib.Path(run_dir)
    if uids is None:
        uids, _ = run_correct(run_dir, split)
    config = ExperimentConfig.from_dict(read_json(run_dir / "config.json"))
    policy = PairEncoder.load(run_dir / "preprocessing").policy
    by_uid = {
        ex.uid: ex
        for ex in data_registry.read_split(
            config.dataset, _file_split(config, run_dir, split), data_dir
        )
    }
    missing = [uid for uid in uids if uid not in by_uid]
    if missing:
        raise ValueError(
            f"{len(missing)} predicted examples (e.g. {missing[0]!r}) are not in "
            f"{config.dataset} {split} under {data_dir}: wrong --data_dir?"
        )
    pairs = tokenize_examples([by_uid[uid] for uid in uids], policy)
    sizes = {
        "pair": lambda p: len(p.a) + len(p.b),
        "a": lambda p: len(p.a),
        "b": lambda p: len(p.b),
    }[length_of]
    return np.array([sizes(p) for p in pairs])


def _file_split(config, run_dir, role):
    """The dataset split a predictions role was read from ("test" -> e.g. "test_matched")."""
    scaled = apply_scale(config)
    names = {"test": scaled.test_split, "dev": scaled.dev_split}
    name = names.get(role, role)
    if name == "holdout":
        raise ValueError(
            f"{run_dir}: the dev role is a held-out part of {scaled.train_split}; "
            "plot the test split"
        )
    return name


def plot_length_groups(lengths, groups, curves, path, difference=None, title=None):
    """Writes the Figure 5-style plot: one accuracy curve per run over the length groups.

    Args:
        lengths: per-example lengths the groups were formed from (for the tick labels).
        groups: `length_groups` output.
        curves: {run name: group accuracies}, in legend order.
        path: the PNG to write.
        difference: optional (name1, name2): also draw curve1 - curve2 on a second axis
            (the paper's "diff of two curves").
        title: figure title.
    """
    lengths = np.asarray(lengths)
    x = np.arange(1, len(groups) + 1)
    ticks = [f"{lengths[g].min()}-{lengths[g].max()}" for g in groups]
    figure = new_figure(1.8 + 0.65 * len(groups), 4.6 + 0.2 * len(curves))
    axes = figure.add_subplot()
    for name, accuracies in curves.items():
        axes.plot(x, accuracies, marker="o", label=name)
    axes.set_xticks(x, labels=ticks, rotation=45, ha="right", rotation_mode="anchor")
    sizes = sorted({len(g) for g in groups})
    each = f"{sizes[0]}-{sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
    axes.set_xlabel(f"length group (tokens; {each} examples each)")
    axes.set_ylabel("accuracy")
    axes.grid(alpha=0.3)
    handles = axes.get_legend_handles_labels()[0]
    if difference is not None:
        first, second = difference
        twin = axes.twinx()
        handles += twin.plot(
            x,
            np.asarray(curves[first]) - np.asarray(curves[second]),
            color="gray",
            linestyle="--",
            marker="x",
            label=f"difference: {first} - {second}",
        )
        twin.axhline(0.0, color="gray", linewidth=0.5)
        twin.set_ylabel("difference")
    # Below the axes, so that no curve is hidden.
    figure.legend(handles=handles, loc="outside lower center", ncols=2, fontsize="small")
    if title:
        axes.set_title(title)
    return save_png(figure, path)
