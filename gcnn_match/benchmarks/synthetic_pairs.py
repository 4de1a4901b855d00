"""Encoded training pairs drawn at random to a dataset's shape, for timing a row without its files.

The pairs carry every input the row's model reads (word ids, and characters, POS tags or the
sentence segments of a FEVER context where its `TokenFeatures` ask for them), with lengths drawn
around the dataset's mean (`dataset_shapes.DatasetShape`) and cut at the row's cut-offs, so the
batches `pipeline.training_dataset` makes from them have the real run's shapes. Ranking rows get
whole questions: one correct candidate and the rest incorrect.
"""

import math

import numpy as np

from gcnn_match.benchmarks.dataset_shapes import CHARACTER_VOCABULARY
from gcnn_match.data import pos
from gcnn_match.data import registry as data_registry
from gcnn_match.data.catalogue.fever import FEVER_SENTENCE_TOKENS
from gcnn_match.data.pipeline import EncodedSplit
from gcnn_match.data.ragged_ids import RaggedIds
from gcnn_match.models.registry import ModelInputs

MAX_CHARS = 16  # PairEncoder's default characters per token


def _lengths(rng, mean, cut, count):
    """Token counts >= 1 around `mean` (1 + Poisson(mean - 1)), cut at `cut`."""
    return np.minimum(1 + rng.poisson(max(mean - 1.0, 0.0), count), cut)


def _segments(length, sentences):
    """The sentence (1..sentences) of each of `length` tokens, in contiguous runs."""
    edges = np.linspace(0, length, sentences + 1).astype(int)
    return np.repeat(np.arange(1, sentences + 1), np.diff(edges)).astype(np.int32)


def _side(rng, lengths, vocab_size, features, side, sentences):
    out = {f"{side}_ids": [rng.randint(2, vocab_size, n).astype(np.int32) for n in lengths]}
    if features.chars:
        out[f"{side}_chars"] = [
            rng.randint(1, CHARACTER_VOCABULARY, (n, MAX_CHARS)).astype(np.int32) for n in lengths
        ]
    if features.pos:
        out[f"{side}_pos"] = [
            rng.randint(1, pos.NUM_POS_TAGS + 1, n).astype(np.int32) for n in lengths
        ]
    if features.segments and side == "a":
        out["a_segments"] = [_segments(n, sentences) for n in lengths]
    return {name: RaggedIds.from_rows(rows) for name, rows in out.items()}


def synthetic_split(config, shape, features, units, vocab_size, seed=0):
    """An `EncodedSplit` of `units` training pairs (classification) or questions (ranking).

    Args:
        config: the row's ExperimentConfig (cut-offs, task, dataset labels).
        shape: the dataset's `DatasetShape`.
        features: the model's `TokenFeatures`.
        units: pairs, or questions of `shape.candidates` candidates each.
        vocab_size: word ids are drawn from [2, vocab_size) (0 padding, 1 unknown).
    """
    rng = np.random.RandomState(seed)
    per_unit = math.ceil(shape.candidates) if config.task == "ranking" else 1
    count = units * per_unit
    # A FEVER context joins sentences of at most FEVER_SENTENCE_TOKENS tokens each.
    sentences = max(1, config.max_len_a // FEVER_SENTENCE_TOKENS)
    split_features = {}
    for side, mean, cut in (
        ("a", shape.mean_tokens[0], config.max_len_a),
        ("b", shape.mean_tokens[1], config.max_len_b),
    ):
        lengths = _lengths(rng, min(mean, cut), cut, count)
        split_features.update(_side(rng, lengths, vocab_size, features, side, sentences))
    if config.task == "ranking":
        labels = np.tile(np.r_[1, np.zeros(per_unit - 1, np.int32)], units).astype(np.int32)
        groups = [f"q{i // per_unit}" for i in range(count)]
    else:
        classes = len(data_registry.get_dataset(config.dataset).labels)
        labels = rng.randint(0, classes, count).astype(np.int32)
        groups = [None] * count
    return EncodedSplit("train", split_features, labels, [str(i) for i in range(count)], groups)


def synthetic_inputs(config, features, vocab_size):
    """The `ModelInputs` of the row at the paper's word-vector width, with random vectors in
    place of the pretrained ones (the same shapes, so the same cost)."""
    return ModelInputs(
        vocab_size=vocab_size,
        num_classes=len(data_registry.get_dataset(config.dataset).labels),
        embedding_matrix=None,
        embedding_dim=config.embedding_width or config.embedding_dim,
        embeddings_trainable=config.embeddings_trainable,
        char_vocab_size=CHARACTER_VOCABULARY if features.chars else None,
        max_chars=MAX_CHARS,
        pos_vocab_size=pos.NUM_POS_TAGS + 1 if features.pos else None,
        segments=features.segments,
    )
