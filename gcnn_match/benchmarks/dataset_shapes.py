"""The size and shape of each dataset's full training split, for costing a run without its files.

`make gpu-plan` (gcnn_match/benchmarks/gpu_plan.py) times training steps on synthetic pairs
drawn to these shapes and projects the registered schedule on `train_units`. This module is the
one place these facts live; docs/gpu.md#dataset-shapes says how each was obtained.

- `train_units`: what one full epoch trains on: labelled pairs (classification), or questions
  with a correct and an incorrect candidate (ranking: a batch holds `batch_size` questions).
  Sources: docs/clstm.md#data (SNLI without its "-" pairs; Yahoo! Answers' 220,000 pairs split
  20 : 1 : 1), docs/coin.md#parameter-counts (Quora, LCQMC), docs/attconv.md#targets
  (SciTail, Yelp), docs/gpu.md#dataset-shapes (MultiNLI, FEVER, WikiQA).
- `mean_tokens`: mean tokens of (a, b). Counted with whitespace splitting on the offline split
  named in `source` (characters for LCQMC), or, where no file is offline, an assumption marked
  [U→S] in `source`. Under the GPU plan's fixed padding a step's cost does not depend on them;
  they shape the bucketed batches of a CPU run.
- `vocab_size`: words in the vocabulary built from the training split. Counted where the
  whole split is offline (WikiQA); elsewhere an allowance [U→S]: `ENGLISH_VOCABULARY`, which
  only sizes the embedding table (100,000 x 300 float32 with Adam's two slots: 0.36 GB).
- `candidates`: candidates per training question (ranking).
"""

import dataclasses
from typing import Optional, Tuple

# [U→S] The vocabulary of an English training split that is not offline: an allowance above the
# word counts of the corpora offline (WikiQA's training split: 40,648 forms).
ENGLISH_VOCABULARY = 100_000
# [U→S] Distinct Chinese characters allowed for LCQMC (COIN reads characters).
CHINESE_CHARACTERS = 6_000
# [U→S] Distinct characters of an English split (GCNN's character features).
CHARACTER_VOCABULARY = 300


@dataclasses.dataclass(frozen=True)
class DatasetShape:
    """See the module docstring."""

    train_units: int
    mean_tokens: Tuple[float, float]
    vocab_size: int
    source: str
    candidates: Optional[float] = None


SHAPES = {
    "snli": DatasetShape(
        549_367, (14.0, 7.5), ENGLISH_VOCABULARY, "lengths: snli_1.0_dev (offline)"
    ),
    "multinli": DatasetShape(
        392_702,
        (22.0, 11.0),
        ENGLISH_VOCABULARY,
        "lengths [U→S]: no MultiNLI file offline; premises longer than SNLI's",
    ),
    "quora": DatasetShape(
        384_348, (12.3, 12.5), ENGLISH_VOCABULARY, "lengths: BiMPM dev split (offline)"
    ),
    "scitail": DatasetShape(
        23_596, (18.7, 12.8), ENGLISH_VOCABULARY, "lengths: RE2-tokenized dev split (offline)"
    ),
    "fever": DatasetShape(
        145_449,
        (100.0, 8.2),
        ENGLISH_VOCABULARY,
        "claim lengths: paper_dev (offline); context lengths [U→S]: no evidence text offline",
    ),
    "yelp": DatasetShape(
        500_000, (103.6, 103.6), ENGLISH_VOCABULARY, "lengths: the stand-in's dev reviews"
    ),
    "yelp_stars_standin": DatasetShape(
        500_000,
        (103.6, 103.6),
        ENGLISH_VOCABULARY,
        "stands in for Table 3's Yelp: its split's size; lengths: dev reviews (offline)",
    ),
    "lcqmc": DatasetShape(
        238_766, (12.4, 12.6), CHINESE_CHARACTERS, "characters: dev split (offline)"
    ),
    "wikiqa": DatasetShape(
        857, (7.1, 25.3), 40_648, "the whole training split (offline)", candidates=9.6
    ),
    "yahoo": DatasetShape(
        200_000,
        (17.0, 17.0),
        ENGLISH_VOCABULARY,
        "lengths [U→S]: the middle of §6.4's 4-30 tokens; no corpus offline",
        candidates=5,
    ),
}


def dataset_shape(dataset):
    """The `DatasetShape` of a registered dataset; a clear error for one without facts here."""
    if dataset not in SHAPES:
        raise KeyError(
            f"no training-split shape for dataset {dataset!r}: add it to SHAPES in "
            "gcnn_match/benchmarks/dataset_shapes.py with its source (docs/gpu.md#dataset-shapes)"
        )
    return SHAPES[dataset]
