"""Pairs typed by a user, rewritten into the tokenization of a run's training text and checked
against its vocabulary.

A run trained on pre-tokenized text (Quora's BiMPM files: "in class ?") reads raw text
("in class?") through `gcnn_match.data.raw_text`, and the share of input tokens its vocabulary
does not hold is compared with the share on the run's own held-out dev split (the training
split's own is 0: its vocabulary holds every training token). Text of another form shows up as
a much higher rate: `rate_warning` names an input whose rate is `UNKNOWN_RATE_FACTOR` times the
dev split's or `UNKNOWN_RATE_EXCESS` above it, and never one within `UNKNOWN_RATE_MARGIN` of it.
"""

import dataclasses

from gcnn_match.data import raw_text
from gcnn_match.data import registry as data_registry
from gcnn_match.data.pipeline import tokenize_examples, unknown_rate

# A run with a large vocabulary has a low rate of its own, and text of another form multiplies
# it; 3x leaves room for a sample of other questions.
UNKNOWN_RATE_FACTOR = 3.0
# A run with a small vocabulary has a high rate of its own, which text of another form raises by
# points rather than multiples: 2,000 Quora test pairs typed as users type them ("class?",
# "don't") read 25.3% unknown tokens as given and 14.7% rewritten against a smoke run's 14.2%
# on its dev split.
UNKNOWN_RATE_EXCESS = 0.05
# A few unknown words in a handful of pairs are no sign of a foreign form (one token in 100).
UNKNOWN_RATE_MARGIN = 0.01
REFERENCE_SPLIT = "dev"  # the held-out split read like the training text (train's own is 0)


def run_tokenization(encoder, dataset):
    """The tokenization name of a run's training text: the one its preprocessing recorded, else
    the one its registered dataset (or its dataset record) and text policy give."""
    if encoder.tokenization is not None:
        return encoder.tokenization
    spec = data_registry.DATASETS.get(dataset.name, dataset)
    return raw_text.row_tokenization(spec, encoder.policy)


def rewrite_examples(examples, tokenization):
    """`examples` with both texts rewritten by `raw_text.normalize` into `tokenization`."""
    return [
        dataclasses.replace(
            ex,
            a=raw_text.normalize(ex.a, tokenization),
            b=raw_text.normalize(ex.b, tokenization),
        )
        for ex in examples
    ]


def _rate(encoder, examples):
    return unknown_rate(tokenize_examples(examples, encoder.policy), encoder.vocab)


def _percent(rate):
    return "no tokens" if rate is None else f"{100 * rate:.1f}%"


def rate_warning(rate, reference):
    """The warning line for an input whose unknown-token `rate` is far above the run's
    `reference` rate, or None."""
    if rate is None or reference is None or rate - reference < UNKNOWN_RATE_MARGIN:
        return None
    if rate < UNKNOWN_RATE_FACTOR * reference and rate - reference < UNKNOWN_RATE_EXCESS:
        return None
    return (
        f"warning: the input's unknown-token rate ({_percent(rate)}) is far above the run's "
        f"{REFERENCE_SPLIT} split's ({_percent(reference)}): the text is probably not in the "
        "form the model was trained on (see docs/own-data.md, 'Raw text')"
    )


def prepare_input(saved, examples, rewrite=True, log=print):
    """The examples the run scores for `examples` read from a user's file: rewritten into the
    run's tokenization when `rewrite`, else as given. Logs the tokenization applied and the
    unknown-token rates of the input (as given and as rewritten) beside the dev split's.

    Args:
        saved: the loaded run (`gcnn_match.training.predict`), with `encoder` and `dataset`.
        examples: `Example`s with the texts as the user wrote them.
        rewrite: False for input already tokenized like the training text.
        log: where the report lines go.
    """
    name = run_tokenization(saved.encoder, saved.dataset)
    given_rate = _rate(saved.encoder, examples)
    if rewrite and raw_text.rewrites(name):
        out = rewrite_examples(examples, name)
        rate = _rate(saved.encoder, out)
        log(f"raw text: rewritten as {name}, the run's training text (--noraw_text: as given)")
        rates = f"{_percent(rate)} rewritten, {_percent(given_rate)} as given"
    else:
        out, rate = examples, given_rate
        why = f"the run's tokenization is {name}" if rewrite else "--noraw_text"
        log(f"raw text: read as given ({why})")
        rates = _percent(rate)
    reference = (saved.encoder.unknown_rates or {}).get(REFERENCE_SPLIT)
    known = (
        f"{_percent(reference)} on the run's {REFERENCE_SPLIT} split"
        if reference is not None
        else "the run recorded no rate of its splits (retrain it to record one)"
    )
    log(f"unknown tokens: {rates}; {known}")
    warning = rate_warning(rate, reference)
    if warning:
        log(warning)
    return out
