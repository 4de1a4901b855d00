"""The record every reader yields: one sentence pair with its label."""

import dataclasses
from typing import Optional, Tuple


@dataclasses.dataclass(frozen=True)
class Example:
    """One sentence pair.

    Attributes:
        a: first text (premise, question 1, claim context...), raw as stored in the file.
        b: second text (hypothesis, question 2...), raw.
        label: index into the dataset's label list, or None when the split is unlabelled
            (e.g. MultiNLI test, which is scored on Kaggle).
        uid: a stable identifier: the file's own id field when it has one, else `file:line`.
        a_tokens, b_tokens: tokens when the format ships a tokenization (parse trees),
            else None and the experiment's tokenizer is applied to `a` / `b`.
        a_pos, b_pos: Penn-Treebank tags aligned with `a_tokens` / `b_tokens`, when the
            format ships parses.
        group: the key that ties examples together: the question of a ranking candidate
            set, or the claim of a FEVER evidence set.
        a_segments: when `a` joins several sentences (FEVER evidence), the sentence (1, 2,
            ...) of each token of `a_tokens`, for models that read each one as a separate
            context (ATTCONV context-wise). None for a single text.
    """

    a: str
    b: str
    label: Optional[int]
    uid: str
    a_tokens: Optional[Tuple[str, ...]] = None
    b_tokens: Optional[Tuple[str, ...]] = None
    a_pos: Optional[Tuple[str, ...]] = None
    b_pos: Optional[Tuple[str, ...]] = None
    group: Optional[str] = None
    a_segments: Optional[Tuple[int, ...]] = None
