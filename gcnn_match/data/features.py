"""The optional per-token inputs beside the word ids (kept apart from the pipeline so that
model modules can name them without loading the tokenizers)."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class TokenFeatures:
    """Which optional per-token inputs a model consumes; its registration declares them
    (`gcnn_match.models.registry.input_features`) and `PairEncoder` produces them.

    Attributes:
        chars: character ids, "a_chars"/"b_chars".
        pos: POS tag ids, "a_pos"/"b_pos".
        segments: "a_segments", the sentence of each token of a text that joins several.
    """

    chars: bool = False
    pos: bool = False
    segments: bool = False
