"""Per-paper figures of saved runs, written into `<run_dir>/figures/` (experiments/visualize.py).

- ATTCONV Figure 6(a), attention and attentive-conv features of a pair: "attconv" runs,
  light or advanced ("w/o convolution": attention only).
- ATTCONV Figure 5, accuracy by text-length group: runs that predicted the same split (their
  predictions files and the split's texts).
- C-LSTMs Figure 3, one neuron over the (i, j) grid of a pair: "clstm" runs.
- COIN Figure 4, cross-attention of the first and last blocks for a pair: "coin" runs.

The pair is given as text, as an index into one of the dataset's splits, or by default the
paper's own example when the run is on the dataset the paper's figure used (`PAPER_PAIRS`),
else example 0 of the run's test split. `all_figures` draws every figure it can for the
runs under a folder and says why it skips the others.
"""

import collections
import hashlib
import pathlib

import keras
import numpy as np

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.data.example import Example
from gcnn_match.data.registry import MissingDataError, get_dataset
from gcnn_match.files import read_json
from gcnn_match.reporting.attconv_figures import attconv_maps, plot_attconv
from gcnn_match.reporting.clstm_figures import neuron_grid, plot_neuron, strongest_neuron
from gcnn_match.reporting.coin_figures import alignment_maps, plot_alignment
from gcnn_match.reporting.figure_pairs import UNKNOWN_MARK, encode_pair, split_example
from gcnn_match.reporting.length_groups import (
    group_accuracies,
    length_groups,
    plot_length_groups,
    run_correct,
    text_lengths,
)
from gcnn_match.training.predict import TrainedModel
from gcnn_match.training.run_dir import RunDirectory

FIGURES = ("attconv", "length_groups", "clstm", "coin")
# The builder each pair figure needs.
MODEL_OF_FIGURE = {"attconv": "attconv", "clstm": "clstm", "coin": "coin"}
# (figure, dataset) -> (text a, text b, gold label or None). The papers print these pairs
# (Quora's is the test pair that fits COIN's description of its Figure 4). They are written
# tokenized, with spaces around punctuation as in the datasets' own tokens: the SNLI rows split
# raw text on whitespace only.
PAPER_PAIRS = {
    # Figure 6: t_x = "A dog jumping ..." (text b) with context t_y (text a), the roles the
    # paper names; SNLI itself has this pair the other way round (pairID 3338217927.jpg#2r1e).
    ("attconv", "snli"): (
        "An animal is outside in the cold weather , playing with a plastic toy .",
        "A dog jumping for a Frisbee in the snow .",
        None,
    ),
    # Figure 3(a), labelled contradiction in the paper's text.
    ("clstm", "snli"): (
        "A person in a red shirt and black pants hunched over .",
        "A person is wearing a green shirt .",
        "contradiction",
    ),
    # Figure 4: "new macbook pro" and "what do you think of", DUPLICATE (Quora test line 13).
    ("coin", "quora"): (
        "What do people think of new MacBook Pro with Touch Bar ?",
        "What do you think of the new MacBook Pro Apple announced in 2016 ?",
        "duplicate",
    ),
}


class SkipFigure(Exception):
    """A figure cannot be drawn for this run; the message says why."""


def run_config(run_dir):
    path = pathlib.Path(run_dir) / "config.json"
    if not path.exists():
        raise SkipFigure(f"{run_dir}: no config.json, not a run directory")
    return ExperimentConfig.from_dict(read_json(path))


def run_data_dir(run_dir, data_dir=None):
    """`data_dir`, else the data folder the run was trained from (its environment.json)."""
    if data_dir is not None:
        return pathlib.Path(data_dir)
    recorded = (read_json(pathlib.Path(run_dir) / "environment.json") or {}).get("data_dir")
    if recorded is None:
        raise SkipFigure(f"{run_dir}: no data folder recorded; pass --data_dir")
    return pathlib.Path(recorded)


def choose_example(figure, config, labels, data_dir=None, index=None, split=None, text=None):
    """(Example, tag): `text` (a, b), else example `index` of `split`, else the paper's pair
    for this figure and dataset, else example 0 of the test split."""
    if text is not None:
        a, b = text
        digest = hashlib.sha1(f"{a}\t{b}".encode("utf-8")).hexdigest()[:8]
        return Example(a=a, b=b, label=None, uid="text"), f"text-{digest}"
    paper = PAPER_PAIRS.get((figure, config.dataset))
    if index is None and paper is not None:
        a, b, label = paper
        return Example(
            a=a, b=b, label=None if label is None else labels.index(label), uid="paper"
        ), "paper"
    index = 0 if index is None else index
    if data_dir is None:
        raise SkipFigure("no data folder to read the pair from; pass --data_dir or the text")
    try:
        example = split_example(config, data_dir, split, index)
    except MissingDataError as error:
        raise SkipFigure(str(error)) from error
    return example, f"{split or 'test'}-{index}"


def _load(run_dir, figure):
    config = run_config(run_dir)
    wanted = MODEL_OF_FIGURE[figure]
    if config.model != wanted:
        raise SkipFigure(f"{run_dir}: a {config.model!r} run; this figure needs a {wanted!r} run")
    if not RunDirectory(run_dir).best_weights.exists():
        raise SkipFigure(f"{run_dir}: no selected weights yet (checkpoints/best.weights.h5)")
    return TrainedModel.from_run(run_dir)


def _describe(saved, pair):
    """Two title lines: the run, then the pair with its gold label and the model's output."""
    outputs = keras.ops.convert_to_numpy(saved.model(pair.features, training=False))[0]
    if outputs.shape[-1] == len(saved.labels):
        probabilities = keras.ops.convert_to_numpy(keras.ops.softmax(outputs))
        predicted = int(np.argmax(probabilities))
        output = f"predicted {saved.labels[predicted]} ({probabilities[predicted]:.2f})"
    else:  # a ranking head: one score per pair
        output = f"score {float(outputs[0]):.3f}"
    gold = f"gold {pair.label}, " if pair.label else ""
    unknown = any(t.endswith(UNKNOWN_MARK) for t in pair.tokens_a + pair.tokens_b)
    return f"{saved.config.row} (seed {saved.config.seed})\npair {pair.tag}: {gold}{output}" + (
        f"; {UNKNOWN_MARK} = not in the training vocabulary" if unknown else ""
    )


def _pair(figure, saved, run_dir, data_dir, index, split, text):
    needs_data = text is None and (
        index is not None or (figure, saved.config.dataset) not in PAPER_PAIRS
    )
    folder = run_data_dir(run_dir, data_dir) if needs_data else None
    example, tag = choose_example(figure, saved.config, saved.labels, folder, index, split, text)
    return encode_pair(saved, example, tag)


def attconv_figure(run_dir, data_dir=None, index=None, split=None, text=None, filters=None):
    """ATTCONV Figure 6(a) of one pair -> `<run_dir>/figures/attconv_figure6_<tag>.png`."""
    saved = _load(run_dir, "attconv")
    if saved.config.model_kwargs.get("variant", "light") == "no_context":
        raise SkipFigure(f"{run_dir}: the w/o context row has no attention")
    pair = _pair("attconv", saved, run_dir, data_dir, index, split, text)
    maps = attconv_maps(saved.model, pair.features)
    path = pathlib.Path(run_dir) / "figures" / f"attconv_figure6_{pair.tag}.png"
    return plot_attconv(
        maps, pair.tokens_b, pair.tokens_a, path, filters=filters, title=_describe(saved, pair)
    )[0]


def clstm_figure(run_dir, data_dir=None, index=None, split=None, text=None, neuron=None):
    """C-LSTMs Figure 3 -> `<run_dir>/figures/clstm_figure3_<tag>_neuron<k>.png`."""
    saved = _load(run_dir, "clstm")
    pair = _pair("clstm", saved, run_dir, data_dir, index, split, text)
    grid = neuron_grid(saved.model, pair.features)
    neuron = strongest_neuron(grid) if neuron is None else neuron
    path = pathlib.Path(run_dir) / "figures" / f"clstm_figure3_{pair.tag}_neuron{neuron}.png"
    return plot_neuron(
        grid,
        neuron,
        pair.tokens_a,
        pair.tokens_b,
        path,
        title=f"neuron {neuron}, {_describe(saved, pair)}",
    )


def coin_figure(run_dir, data_dir=None, index=None, split=None, text=None):
    """COIN Figure 4 (first and last blocks) -> `<run_dir>/figures/coin_figure4_<tag>.png`."""
    saved = _load(run_dir, "coin")
    pair = _pair("coin", saved, run_dir, data_dir, index, split, text)
    maps = alignment_maps(saved.model, pair.features)
    path = pathlib.Path(run_dir) / "figures" / f"coin_figure4_{pair.tag}.png"
    return plot_alignment(maps, pair.tokens_a, pair.tokens_b, path, title=_describe(saved, pair))


def length_group_figure(
    run_dirs, data_dir=None, split="test", length_of=None, groups=10, difference=True
):
    """Figure 5 for runs that predicted the same `split` -> the first run's figures/ folder.

    `length_of` ("pair", "a", "b"; see `text_lengths`) defaults to "a" on single-text
    datasets (`DatasetSpec.single_text`: the paper's Yelp set-up) and "pair" otherwise. The
    first two runs' difference is drawn when `difference` (the paper: ATTCONV minus its
    strongest no-attention baseline).
    Returns (path, {row: group accuracies}).
    """
    run_dirs = [pathlib.Path(d) for d in run_dirs]
    try:
        outcomes = [run_correct(d, split) for d in run_dirs]
    except FileNotFoundError as error:
        raise SkipFigure(str(error)) from error
    uids = outcomes[0][0]
    for run_dir, (other, _) in zip(run_dirs[1:], outcomes[1:]):
        if other != uids:
            raise SkipFigure(
                f"{run_dir} predicted other {split} examples than {run_dirs[0]}; "
                "compare runs of the same dataset and limits"
            )
    configs = [run_config(d) for d in run_dirs]
    length_of = length_of or ("a" if get_dataset(configs[0].dataset).single_text else "pair")
    folder = run_data_dir(run_dirs[0], data_dir)
    try:
        lengths = text_lengths(run_dirs[0], folder, split, length_of, uids=uids)
    except MissingDataError as error:
        raise SkipFigure(str(error)) from error
    index = length_groups(lengths, groups)
    names = [f"{c.row} (seed {c.seed})" for c in configs]
    if len(set(names)) < len(names):
        names = [str(d) for d in run_dirs]
    curves = {name: group_accuracies(correct, index) for name, (_, correct) in zip(names, outcomes)}
    path = run_dirs[0] / "figures" / f"attconv_figure5_{split}_{length_of}.png"
    plot_length_groups(
        lengths,
        index,
        curves,
        path,
        difference=tuple(names[:2]) if difference and len(names) > 1 else None,
        title=f"accuracy by length ({length_of}), {configs[0].dataset} {split}",
    )
    return path, curves


def find_runs(runs_dir):
    """Run directories (those with a config.json) under `runs_dir`, sorted."""
    return sorted(
        p.parent
        for p in pathlib.Path(runs_dir).rglob("config.json")
        if (p.parent / "checkpoints").is_dir()
    )


def _length_group_sets(configs):
    """Figure 5 sets: finished ATTCONV-paper runs per (dataset, run folder name: scale, seed,
    overrides), ATTCONV-light first, then Bi-CNN (the paper's no-attention comparison), then
    the other rows."""

    def rank(config):
        variant = config.model_kwargs.get("variant", "light")
        return (
            0
            if config.model == "attconv" and variant == "light"
            else 1
            if config.model == "bicnn"
            else 2,
            config.row,
        )

    sets = collections.defaultdict(list)
    for run_dir, config in configs.items():
        if (
            config.model in ("attconv", "bicnn", "apcnn")
            and (run_dir / "predictions" / "test.tsv").exists()
        ):
            sets[(config.dataset, run_dir.name)].append(run_dir)
    return {key: sorted(dirs, key=lambda d: rank(configs[d])) for key, dirs in sets.items()}


def all_figures(runs_dir, data_dir=None, log=print):
    """Every per-paper figure drawable from the runs under `runs_dir`; returns the paths."""
    configs = {}
    for run_dir in find_runs(runs_dir):
        try:
            configs[run_dir] = run_config(run_dir)
        except SkipFigure as reason:
            log(f"skip: {reason}")
    draw = {"attconv": attconv_figure, "clstm": clstm_figure, "coin": coin_figure}
    written, without = [], 0
    for run_dir, config in configs.items():
        if config.model not in draw:
            without += 1
            continue
        try:
            written.append(draw[config.model](run_dir, data_dir=data_dir))
            log(f"{run_dir} -> {written[-1]}")
        except SkipFigure as reason:
            log(f"skip {config.model} figure: {reason}")
    for (dataset, name), dirs in sorted(_length_group_sets(configs).items()):
        first = configs[dirs[0]]
        if first.model != "attconv" or first.model_kwargs.get("variant", "light") != "light":
            log(f"skip Figure 5 for {dataset} {name}: no ATTCONV-light run to compare")
            continue
        try:
            path, _ = length_group_figure(
                dirs, data_dir, difference=len(dirs) > 1 and configs[dirs[1]].model == "bicnn"
            )
            written.append(path)
            log(f"{dirs[0]} -> {path} ({len(dirs)} runs)")
        except SkipFigure as reason:
            log(f"skip Figure 5 for {dataset} {name}: {reason}")
    if not configs:
        log(f"no run directories under {runs_dir}")
    log(f"per-paper figures: {len(written)} written; {without} runs of models without one")
    return written
