"""The in-graph text step gives the ids `PairEncoder` gives, text by text."""

import numpy as np
import pytest

from gcnn_match.data.example import Example
from gcnn_match.data.pipeline import PairEncoder, TokenizedPair
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.data.vocab import Vocabulary
from gcnn_match.training.serving import TextToIds, graph_tokenization

TEXTS = [
    "How do I learn PYTHON quickly ?",
    "  École\u00a0İstanbul\u3000ΟΔΟΣ\tend\x1cx \u2028 y ",  # Python's whitespace, full case maps
    "",
    "   ",
    "one two three four five six seven eight",  # over the cut-off of 6
    "我 爱\t北京 python",
]
WORDS = ["how", "do", "i", "learn", "python", "PYTHON", "école", "ΟΔΟΣ", "οδος", "我", "京", "one"]


def _encoder(tokenizer, lowercase, chars):
    policy = TextPolicy(tokenizer=tokenizer, lowercase=lowercase)
    char_vocab = Vocabulary(list("abcdefhilnoprtuyéοδς我")) if chars else None
    return PairEncoder(policy, Vocabulary(WORDS), 6, 6, char_vocab=char_vocab, max_chars=3)


@pytest.mark.parametrize(
    "tokenizer, lowercase, chars",
    [("whitespace", True, False), ("whitespace", False, True), ("chars", False, False)],
)
def test_text_to_ids_gives_the_encoder_s_ids(tokenizer, lowercase, chars):
    encoder = _encoder(tokenizer, lowercase, chars)
    got = TextToIds(encoder).text_to_ids(np.array(TEXTS, dtype=object), 6)
    for row, text in enumerate(TEXTS):
        tokens = encoder.policy.tokenize_pair(Example(a=text, b="", label=None, uid="0"))[0]
        expected = encoder.encode_pair(TokenizedPair(tokens, []))
        assert got["ids"][row].numpy().tolist() == expected["a_ids"].tolist(), text
        if chars:
            grid = got["chars"][row].to_tensor(shape=[None, 3]).numpy()
            np.testing.assert_array_equal(grid.reshape(-1, 3), expected["a_chars"], text)
    assert ("chars" in got) == chars


def test_tokenization_that_needs_python_says_why():
    assert graph_tokenization(_encoder("whitespace", True, True)) is None
    treebank = graph_tokenization(_encoder("treebank", True, False))
    assert treebank == "the 'treebank' tokenizer (NLTK) runs in Python"
    tagged = PairEncoder(TextPolicy(), Vocabulary(WORDS), 6, 6, pos=True)
    assert "POS tags" in graph_tokenization(tagged)
