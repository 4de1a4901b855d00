"""The sentence pair a per-paper figure shows, encoded the way the trained run reads it.

    saved = TrainedModel.from_run(run_dir)
    example = split_example(saved.config, data_dir, "test", 12)     # or Example(a=.., b=..)
    pair = encode_pair(saved, example, tag="test-12")
    pair.features      # {"a_ids": (1, L_a), "b_ids": (1, L_b), ...} for `saved.model`

The pair goes through the run's own `PairEncoder` (tokenizer, casing, vocabulary, cut-offs,
POS tagger), so the figure shows exactly what the model computed on it.
"""

import dataclasses
from typing import Dict, List, Optional

import numpy as np

from gcnn_match.data import registry as data_registry
from gcnn_match.data.experiment_data import apply_scale
from gcnn_match.data.pipeline import tokenize_examples
from gcnn_match.data.vocab import UNK_ID

# Words the run's training vocabulary lacks are read as <unk>; their labels carry this mark.
UNKNOWN_MARK = "*"


@dataclasses.dataclass
class FigurePair:
    """One pair as a model sees it.

    Attributes:
        features: the run's input features for a batch of one, e.g. {"a_ids": (1, L_a)}.
        tokens_a, tokens_b: the tokens behind the ids, after the run's cut-offs; words read
            as <unk> end with `UNKNOWN_MARK`.
        label: the gold label name, or None.
        tag: a short name for file names and titles ("test-12", "paper", "text").
    """

    features: Dict[str, np.ndarray]
    tokens_a: List[str]
    tokens_b: List[str]
    label: Optional[str]
    tag: str


def split_example(config, data_dir, split, index):
    """Example number `index` (0-based, file order) of `split` (None: the run's test split)."""
    split = split or apply_scale(config).test_split
    examples = list(data_registry.read_split(config.dataset, split, data_dir))
    if not 0 <= index < len(examples):
        raise IndexError(
            f"{config.dataset} {split} has {len(examples)} examples; "
            f"--index={index} is out of range (use 0..{len(examples) - 1})"
        )
    return examples[index]


def encode_pair(saved, example, tag):
    """The `FigurePair` of `example` for the `TrainedModel` `saved`."""
    encoder = saved.encoder
    tokenized = tokenize_examples([example], encoder.policy, tagger=encoder.tagger)[0]
    encoded = encoder.encode_pair(tokenized)
    for side, tokens in (("a", tokenized.a), ("b", tokenized.b)):
        if not tokens:
            raise ValueError(f"text {side} of the pair {tag!r} has no tokens: nothing to plot")

    def labelled(tokens, ids):
        return [token + (UNKNOWN_MARK if i == UNK_ID else "") for token, i in zip(tokens, ids)]

    label = None if example.label is None else saved.labels[example.label]
    return FigurePair(
        features={name: value[None] for name, value in encoded.items()},
        tokens_a=labelled(tokenized.a, encoded["a_ids"]),
        tokens_b=labelled(tokenized.b, encoded["b_ids"]),
        label=label,
        tag=tag,
    )
