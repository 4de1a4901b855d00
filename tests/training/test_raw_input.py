"""A user's pairs rewritten into a run's tokenization, with the unknown-token report."""

import types

from gcnn_match.data import registry
from gcnn_match.data.example import Example
from gcnn_match.data.pipeline import PairEncoder
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.data.vocab import Vocabulary
from gcnn_match.training import raw_input

WORDS = ["how", "do", "i", "learn", "python", "quickly", "?", "n't", "know"]


def _saved(tokenization="ptb-pretokenized", rates=None, dataset="quora"):
    encoder = PairEncoder(
        TextPolicy(lowercase=True),
        Vocabulary(WORDS),
        40,
        40,
        tokenization=tokenization,
        unknown_rates=rates,
    )
    return types.SimpleNamespace(encoder=encoder, dataset=registry.get_dataset(dataset))


TYPED = [Example(a="How do I learn Python quickly?", b="I don't know", label=None, uid="1")]


def test_typed_pairs_are_rewritten_and_the_rates_reported():
    lines = []
    [example] = raw_input.prepare_input(_saved(rates={"dev": 0.0}), TYPED, log=lines.append)
    assert (example.a, example.b) == ("How do I learn Python quickly ?", "I do n't know")
    assert lines == [
        "raw text: rewritten as ptb-pretokenized, the run's training text (--noraw_text: as given)",
        "unknown tokens: 0.0% rewritten, 22.2% as given; 0.0% on the run's dev split",
    ]


def test_input_read_as_given_warns_when_far_from_the_dev_split():
    lines = []
    out = raw_input.prepare_input(_saved(rates={"dev": 0.0}), TYPED, False, log=lines.append)
    assert out == TYPED
    assert lines[:2] == [
        "raw text: read as given (--noraw_text)",
        "unknown tokens: 22.2%; 0.0% on the run's dev split",
    ]
    assert lines[2].startswith("warning: the input's unknown-token rate (22.2%) is far above")


def test_a_run_without_recorded_rates_says_so_and_names_its_tokenization_anyway():
    lines = []
    raw_input.prepare_input(_saved(tokenization=None), TYPED, log=lines.append)
    assert lines[0].startswith("raw text: rewritten as ptb-pretokenized")
    assert lines[1].endswith("the run recorded no rate of its splits (retrain it to record one)")


def test_a_tokenizer_that_reads_raw_text_gets_it_as_given():
    lines = []
    out = raw_input.prepare_input(_saved(tokenization="treebank"), TYPED, log=lines.append)
    assert (
        out == TYPED and lines[0] == "raw text: read as given (the run's tokenization is treebank)"
    )


def test_the_warning_wants_a_factor_or_an_excess_and_more_than_the_margin():
    assert raw_input.rate_warning(0.06, 0.02) is not None  # 3 times
    assert raw_input.rate_warning(0.25, 0.14) is not None  # 11 points above
    assert raw_input.rate_warning(0.15, 0.14) is None
    assert raw_input.rate_warning(0.005, 0.0) is None  # within one token in 100
    assert raw_input.rate_warning(0.5, None) is None
