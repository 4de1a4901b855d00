"""Tokenizers and the per-experiment text policy (tokenizer, casing, given parse tokens).

Everything here works offline: no tokenizer needs NLTK data files (punkt cannot be
downloaded), so "treebank" runs NLTK's Treebank-style word tokenizer on the whole text
without sentence splitting. The one difference from `nltk.word_tokenize` is that a period
ending an inner sentence stays attached to its word ("done. Then" -> "done.", "Then");
the period ending the text is split off as usual.
"""

import dataclasses
import functools
import sys
from collections.abc import Callable, Sequence

from nltk.tokenize import NLTKWordTokenizer, TweetTokenizer

from gcnn_match.data.example import Example

Tokenizer = Callable[[str], list[str]]


def _whitespace(text: str) -> list[str]:
    return text.split()


def _chars(text: str) -> list[str]:
    return [c for c in text if not c.isspace()]


_FACTORIES: dict[str, Callable[[], Tokenizer]] = {
    # Pre-tokenized files (the BiMPM Quora split, SNLI/Yelp in the ATTCONV code).
    "whitespace": lambda: _whitespace,
    # `nltk.word_tokenize(text, preserve_line=True)` is exactly this tokenizer.
    "treebank": lambda: NLTKWordTokenizer().tokenize,
    "tweet": lambda: TweetTokenizer().tokenize,
    # LCQMC for COIN: one token per character, no word segmentation.
    "chars": lambda: _chars,
}
TOKENIZER_NAMES: tuple[str, ...] = tuple(_FACTORIES)


@functools.cache
def get_tokenizer(name: str) -> Tokenizer:
    """The tokenizer called `name`: a function from a string to its list of tokens."""
    if name not in _FACTORIES:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZER_NAMES)}")
    return _FACTORIES[name]()


@dataclasses.dataclass(frozen=True)
class TextPolicy:
    """How an experiment turns an `Example` into tokens; saved in the run config.

    Attributes:
        tokenizer: a name from `TOKENIZER_NAMES`, applied to `Example.a` / `.b`.
        lowercase: lower-case every token (for uncased vectors such as GloVe 6B).
        use_given_tokens: take `Example.a_tokens` / `b_tokens` when the reader filled them
            (the SNLI / MultiNLI parse trees), falling back to the tokenizer side by side.
    """

    tokenizer: str = "whitespace"
    lowercase: bool = False
    use_given_tokens: bool = False

    def __post_init__(self):
        get_tokenizer(self.tokenizer)

    def tokenize(self, text: str) -> list[str]:
        return self._cased(get_tokenizer(self.tokenizer)(text))

    def _cased(self, tokens: Sequence[str]) -> list[str]:
        """`tokens`, lower-cased by the policy, each an interned string: a split of 500k pairs
        holds millions of token occurrences but only 100k or so distinct strings, and an
        interned occurrence costs a pointer rather than a string object (the strings are
        freed with their last occurrence)."""
        if self.lowercase:
            return [sys.intern(t.lower()) for t in tokens]
        return [sys.intern(t) for t in tokens]

    def _side(self, text: str, given: Sequence[str] | None) -> list[str]:
        if self.use_given_tokens and given is not None:
            return self._cased(given)
        return self.tokenize(text)

    def tokenize_pair(self, example: Example) -> tuple[list[str], list[str]]:
        return self._side(example.a, example.a_tokens), self._side(example.b, example.b_tokens)

    def pos_pair(self, example: Example) -> tuple[list[str] | None, list[str] | None]:
        """POS tags aligned with `tokenize_pair`, or (None, None).

        Tags exist only for the given (parse) tokens, so both sides need given tokens and
        tags and the policy must use them; otherwise the tags would not align.
        """
        if not self.use_given_tokens:
            return None, None
        sides = ((example.a_tokens, example.a_pos), (example.b_tokens, example.b_pos))
        if any(tokens is None or pos is None for tokens, pos in sides):
            return None, None
        for tokens, pos in sides:
            if len(tokens) != len(pos):
                raise ValueError(
                    f"example {example.uid}: {len(pos)} POS tags for {len(tokens)} tokens"
                )
        return list(example.a_pos), list(example.b_pos)

    def segments(self, example: Example) -> list[int] | None:
        """`example.a_segments` (the sentence of each token of `a`), or None.

        Segments are given per token of `a_tokens`, so they align only when the policy takes
        those tokens; otherwise this raises instead of mis-assigning sentences.
        """
        if example.a_segments is None:
            return None
        if not self.use_given_tokens or example.a_tokens is None:
            raise ValueError(
                f"example {example.uid}: sentence segments come with the given "
                "tokens of 'a'; set use_given_tokens=True"
            )
        if len(example.a_segments) != len(example.a_tokens):
            raise ValueError(
                f"example {example.uid}: {len(example.a_segments)} segments for "
                f"{len(example.a_tokens)} tokens"
            )
        return list(example.a_segments)

    def to_dict(self) -> dict[str, object]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, config: dict[str, object]) -> "TextPolicy":
        return cls(**config)


def char_ids(tokens: Sequence[str], char_vocab, max_chars: int = 16) -> list[list[int]]:
    """For each token, the ids of its first `max_chars` characters (`char_vocab.encode`)."""
    return [char_vocab.encode(list(token[:max_chars])) for token in tokens]
