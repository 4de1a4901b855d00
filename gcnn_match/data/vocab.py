"""Token <-> id vocabularies for words, characters and POS tags.

Vocabularies are built from the training split only: dev and test tokens that training
never saw map to `<unk>` (or get a pretrained vector through the embedding matrix only if
they are in the training vocabulary), so model selection and test scores never depend on
looking at evaluation text.
"""

import collections
import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence

from gcnn_match.files import write_atomic

PAD = "<pad>"
UNK = "<unk>"
PAD_ID = 0
UNK_ID = 1

# One token per line, so the characters that would break a line or the count column are
# backslash-escaped; everything else (spaces, any Unicode) is written as is, in UTF-8.
_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {v[1]: k for k, v in _ESCAPES.items()}
_ESCAPE_RE = re.compile(r"[\\\n\r\t]")
_UNESCAPE_RE = re.compile(r"\\(.)")


def _escape(token: str) -> str:
    return _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group()], token)


def _unescape(text: str) -> str:
    return _UNESCAPE_RE.sub(lambda m: _UNESCAPES[m.group(1)], text)


class Vocabulary:
    """An immutable token list: id 0 is `<pad>`, id 1 is `<unk>`, then the corpus tokens.

    `counts` (token -> training-split frequency) is optional; when present it lets the
    embedding report give coverage by token occurrences and is saved with the vocabulary.
    Two vocabularies are equal when they map the same tokens to the same ids.
    """

    def __init__(self, tokens: Sequence[str], counts: Mapping[str, int] | None = None):
        self._itos: list[str] = [PAD, UNK, *tokens]
        self._stoi: dict[str, int] = {t: i for i, t in enumerate(self._itos)}
        if len(self._stoi) != len(self._itos):
            raise ValueError("vocabulary tokens must be unique and exclude <pad> / <unk>")
        self.counts: dict[str, int] | None = (
            None if counts is None else {t: int(counts.get(t, 0)) for t in tokens}
        )

    @classmethod
    def build(
        cls,
        token_iterables: Iterable[Iterable[str]],
        min_count: int = 1,
        max_size: int | None = None,
    ) -> "Vocabulary":
        """Count the tokens of every sequence; keep those seen `min_count` times or more.

        Order is by count descending, then token, so the ids are deterministic. `max_size`
        caps the number of corpus tokens (the two special tokens come on top).
        """
        counter = collections.Counter()
        for tokens in token_iterables:
            counter.update(tokens)
        return cls._from_counter(counter, min_count, max_size)

    @classmethod
    def from_counts(
        cls, counts: Mapping[str, int], min_count: int = 1, max_size: int | None = None
    ) -> "Vocabulary":
        """`build` from counted tokens (token -> count), which are left unchanged."""
        return cls._from_counter(collections.Counter(counts), min_count, max_size)

    @classmethod
    def _from_counter(cls, counter, min_count, max_size) -> "Vocabulary":
        for special in (PAD, UNK):
            counter.pop(special, None)
        kept = sorted(
            (t for t, c in counter.items() if c >= min_count), key=lambda t: (-counter[t], t)
        )
        if max_size is not None:
            kept = kept[:max_size]
        return cls(kept, {t: counter[t] for t in kept})

    def __len__(self) -> int:
        return len(self._itos)

    def __contains__(self, token: str) -> bool:
        return token in self._stoi

    def __iter__(self):
        return iter(self._itos)

    def __eq__(self, other) -> bool:
        return isinstance(other, Vocabulary) and self._itos == other._itos

    def __hash__(self) -> int:
        return hash(tuple(self._itos))

    def __repr__(self) -> str:
        return f"Vocabulary({len(self)} entries)"

    @property
    def tokens(self) -> list[str]:
        """All entries in id order, specials included."""
        return list(self._itos)

    def token_to_id(self, token: str) -> int:
        return self._stoi.get(token, UNK_ID)

    def id_to_token(self, index: int) -> str:
        return self._itos[index]

    def encode(self, tokens: Iterable[str]) -> list[int]:
        get = self._stoi.get
        return [get(t, UNK_ID) for t in tokens]

    def decode(self, ids: Iterable[int]) -> list[str]:
        return [self._itos[int(i)] for i in ids]

    def fingerprint(self) -> str:
        """A short hash of the id mapping, used to key caches built from this vocabulary."""
        digest = hashlib.sha1()
        for token in self._itos:
            digest.update(token.encode("utf-8") + b"\0")
        return digest.hexdigest()[:16]

    def save(self, path: str) -> None:
        """Write line i = entry of id i (escaped), then a tab and its count when known.

        The file is written to a temporary name and moved into place, so a crash never
        leaves a truncated vocabulary behind.
        """
        lines = []
        for token in self._itos:
            line = _escape(token)
            if self.counts is not None and token not in (PAD, UNK):
                line += f"\t{self.counts[token]}"
            lines.append(line + "\n")
        write_atomic(path, "".join(lines).encode("utf-8"))

    @classmethod
    def load(cls, path: str) -> "Vocabulary":
        with open(path, "r", encoding="utf-8", newline="\n") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        if [_unescape(line) for line in lines[:2]] != [PAD, UNK]:
            raise ValueError(f"{path}: not a vocabulary file (first lines must be {PAD}, {UNK})")
        tokens, counts = [], {}
        for line in lines[2:]:
            escaped, tab, count = line.partition("\t")
            token = _unescape(escaped)
            tokens.append(token)
            if tab:
                counts[token] = int(count)
        if counts and len(counts) != len(tokens):
            raise ValueError(f"{path}: counts given for some tokens only")
        return cls(tokens, counts if counts else None)
