import dataclasses

import pytest

from gcnn_match.data.example import Example
from gcnn_match.data.tokenizers import (
    TOKENIZER_NAMES,
    TextPolicy,
    char_ids,
    get_tokenizer,
)
from gcnn_match.data.vocab import Vocabulary


def test_whitespace_keeps_pretokenized_text():
    assert get_tokenizer("whitespace")("How do I  learn\tPython ?\n") == [
        "How",
        "do",
        "I",
        "learn",
        "Python",
        "?",
    ]


def test_treebank_contractions_and_punctuation_without_punkt():
    tokens = get_tokenizer("treebank")(
        "I can't believe it's \"Mr. Smith's\" dog... Really?! $5.00 (U.S.) e-mail."
    )
    assert tokens == [
        "I",
        "ca",
        "n't",
        "believe",
        "it",
        "'s",
        "``",
        "Mr.",
        "Smith",
        "'s",
        "''",
        "dog",
        "...",
        "Really",
        "?",
        "!",
        "$",
        "5.00",
        "(",
        "U.S.",
        ")",
        "e-mail",
        ".",
    ]


def test_tweet_tokenizer_keeps_handles_and_emoticons():
    assert get_tokenizer("tweet")("can't wait @bob #nlp :-)") == [
        "can't",
        "wait",
        "@bob",
        "#nlp",
        ":-)",
    ]


def test_chars_is_character_level_and_drops_spaces():
    assert get_tokenizer("chars")("我爱 北京\u3000天安门!") == [
        "我",
        "爱",
        "北",
        "京",
        "天",
        "安",
        "门",
        "!",
    ]


@pytest.mark.parametrize("name", TOKENIZER_NAMES)
def test_empty_string(name):
    assert get_tokenizer(name)("") == []
    assert get_tokenizer(name)("   ") == []


def test_unknown_tokenizer_lists_names():
    with pytest.raises(ValueError, match="whitespace, treebank, tweet, chars"):
        get_tokenizer("spacy")
    with pytest.raises(ValueError):
        TextPolicy(tokenizer="spacy")


PARSED = Example(
    "A man plays.",
    "Someone plays",
    0,
    "snli:1",
    a_tokens=("A", "man", "plays", "."),
    b_tokens=("Someone", "plays"),
    a_pos=("DT", "NN", "VBZ", "."),
    b_pos=("NN", "VBZ"),
)


def test_policy_uses_given_tokens_and_pos():
    policy = TextPolicy(tokenizer="treebank", lowercase=True, use_given_tokens=True)
    example = PARSED
    assert policy.tokenize_pair(example) == (["a", "man", "plays", "."], ["someone", "plays"])
    assert policy.pos_pair(example) == (["DT", "NN", "VBZ", "."], ["NN", "VBZ"])


def test_policy_falls_back_to_tokenizer_side_by_side():
    policy = TextPolicy(tokenizer="treebank", use_given_tokens=True)
    example = dataclasses.replace(PARSED, b="Someone isn't here.", b_tokens=None, b_pos=None)
    assert policy.tokenize_pair(example) == (
        ["A", "man", "plays", "."],
        ["Someone", "is", "n't", "here", "."],
    )
    assert policy.pos_pair(example) == (None, None)


def test_policy_ignoring_given_tokens_tokenizes_raw_text():
    policy = TextPolicy(tokenizer="whitespace")
    example = PARSED
    assert policy.tokenize_pair(example) == (["A", "man", "plays."], ["Someone", "plays"])
    assert policy.pos_pair(example) == (None, None)


def test_policy_rejects_misaligned_pos():
    policy = TextPolicy(use_given_tokens=True)
    with pytest.raises(ValueError, match="snli:1"):
        policy.pos_pair(dataclasses.replace(PARSED, b_pos=("NN",)))


def test_policy_dict_round_trip():
    policy = TextPolicy(tokenizer="chars", lowercase=True, use_given_tokens=False)
    assert policy.to_dict() == {"tokenizer": "chars", "lowercase": True, "use_given_tokens": False}
    assert TextPolicy.from_dict(policy.to_dict()) == policy


def test_char_ids_truncate_and_map_unknowns():
    chars = Vocabulary(["a", "b", "c"])
    assert char_ids(["abcab", "", "xa"], chars, max_chars=3) == [[2, 3, 4], [], [1, 2]]
    assert len(char_ids(["a" * 40], chars)[0]) == 16


@pytest.mark.parametrize(
    "policy",
    [
        TextPolicy(tokenizer="whitespace"),
        TextPolicy(tokenizer="treebank", lowercase=True),
        TextPolicy(use_given_tokens=True, lowercase=True),
    ],
    ids=["whitespace", "treebank-lowercased", "given-lowercased"],
)
def test_policy_tokens_of_one_string_are_one_object(policy):
    """Every occurrence of a token is the same string object, across sides and pairs, so that
    a split holds each distinct token once however often it occurs."""
    first = Example("the cat saw the dog .", "The dog saw", 0, "1")
    second = Example("a dog", "the end", 0, "2")
    first = dataclasses.replace(
        first, a_tokens=tuple("the cat saw the dog .".split()), b_tokens=("The", "dog", "saw")
    )
    second = dataclasses.replace(second, a_tokens=("a", "dog"), b_tokens=("the", "end"))
    tokens = [t for ex in (first, second) for side in policy.tokenize_pair(ex) for t in side]
    by_text = {}
    for token in tokens:
        assert by_text.setdefault(token, token) is token
    assert len(by_text) < len(tokens)
