"""Raw text rewritten into the token form of a pre-tokenized source, in Python and in a graph."""

import doctest
import gzip
import json

import pytest

from gcnn_match.data import raw_text, registry
from gcnn_match.data.readers import parse_tree_leaves
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.experiments import registry as rows
from tests.data.typed_text import as_typed, capitalised

PTB = [
    ("How do I learn Python quickly?", "How do I learn Python quickly ?"),
    ("I don't know, I can't say.", "I do n't know , I ca n't say ."),
    (
        "It's what we're gonna do; you cannot stop it!",
        "It 's what we 're gon na do ; you can not stop it !",
    ),
    ('He said "no" (twice).', "He said `` no '' -LRB- twice -RRB- ."),
    ("Mr. Smith lives in the U.S. now.", "Mr. Smith lives in the U.S. now ."),
    ("Is 1,000 $ or 5.5% a lot?!", "Is 1,000 $ or 5.5 % a lot ?!"),
    ("Note: see the workers' hats...", "Note : see the workers ' hats ..."),
    ("\u201cCurly\u201d don\u2019t\u00a0\tspaces ", "`` Curly '' do n't spaces"),
    ("what?why is x:y", "what?why is x:y"),
]


@pytest.mark.parametrize("typed, tokenized", PTB)
def test_ptb_rewrites_typed_text_into_the_source_s_tokens(typed, tokenized):
    assert raw_text.normalize(typed, "ptb-pretokenized") == tokenized
    assert raw_text.normalize(tokenized, "ptb-pretokenized") == tokenized  # already in form


def test_treebank_keeps_brackets_and_inner_periods_as_nltk_does():
    text = "It works (mostly). Then it ends."
    assert (
        raw_text.normalize(text, "treebank-pretokenized") == "It works ( mostly ) . Then it ends ."
    )
    assert raw_text.normalize("done. Then it ends.", "treebank-pretokenized") == (
        "done. Then it ends ."
    )


@pytest.mark.parametrize("name", ["treebank", "tweet", "chars", "whitespace"])
def test_tokenizers_that_read_raw_text_get_it_as_typed(name):
    assert not raw_text.rewrites(name)
    assert raw_text.normalize(" quickly?  don't ", name) == " quickly?  don't "


def test_the_module_s_examples_run():
    assert doctest.testmod(raw_text).failed == 0


def test_an_unknown_tokenization_is_refused():
    with pytest.raises(ValueError, match="unknown tokenization 'ptb'"):
        raw_text.normalize("x", "ptb")


def test_every_registered_row_names_a_known_tokenization():
    names = {}
    for config in rows.select():
        policy = TextPolicy(config.tokenizer, config.lowercase, config.use_given_tokens)
        name = raw_text.row_tokenization(registry.get_dataset(config.dataset), policy)
        assert name in raw_text.TOKENIZATIONS
        names[config.name] = name
    assert names["gcnn/quora/gcnn"] == "ptb-pretokenized"
    assert names["gcnn/snli/gcnn"] == "ptb-parse"
    assert {names[n] for n in names if n.startswith("coin/lcqmc")} == {"chars"}


def _quora_texts(data, split="test"):
    with gzip.open(data / "quora" / "re2_format" / f"{split}.txt.gz", "rt", encoding="utf-8") as f:
        return [text for line in f for text in line.rstrip("\n").split("\t")[:2]]


def _snli_sentences(data):
    """(raw sentence, its parse leaves) of SNLI's test pairs."""
    out = []
    with gzip.open(data / "snli" / "snli_1.0_test.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            for side in ("sentence1", "sentence2"):
                leaves = parse_tree_leaves(record[f"{side}_parse"])[0]
                out.append((record[side], list(leaves)))
    return out


@pytest.mark.slow
def test_snli_sentences_as_typed_rewrite_to_their_parse_leaves(shared_data):
    sentences = _snli_sentences(shared_data)
    same = sum(raw_text.normalize(raw, "ptb-parse").split() == leaves for raw, leaves in sentences)
    assert same / len(sentences) > 0.999  # 19,999 of 20,000


@pytest.mark.slow
def test_quora_questions_typed_by_hand_rewrite_to_their_tokens(shared_data):
    texts = [text.split() for text in _quora_texts(shared_data)]
    same = sum(
        raw_text.normalize(as_typed(tokens), "ptb-pretokenized").split() == capitalised(tokens)
        for tokens in texts
    )
    assert same / len(texts) > 0.998  # 19,967 of 20,000
    kept = sum(raw_text.normalize(" ".join(t), "ptb-pretokenized").split() == t for t in texts)
    assert kept / len(texts) > 0.999  # text already in the form stays as it is


@pytest.mark.slow
@pytest.mark.parametrize("name", ["ptb-pretokenized", "treebank-pretokenized"])
def test_the_graph_twin_gives_the_python_output_on_real_sentences(shared_data, name):
    import tensorflow as tf

    quora = _quora_texts(shared_data)[:4000]
    texts = quora + [as_typed(t.split()) for t in quora]
    texts += [raw for raw, _ in _snli_sentences(shared_data)[:4000]] + [typed for typed, _ in PTB]
    got = raw_text.normalize_tf(tf.constant(texts), name).numpy()
    assert [g.decode("utf-8") for g in got] == [raw_text.normalize(t, name) for t in texts]
