"""ATTCONV's intra-context (Yelp) and multiple-context (FEVER context-wise) usages of the one
"attconv" model, checked against the single-context model with the same weights."""

import keras
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model

VARIANTS = ["light", "advanced", "no_conv"]


def _build(variant, segments=False, **kwargs):
    inputs = ModelInputs(vocab_size=30, num_classes=3, embedding_dim=6, segments=segments)
    extra = {"fc_layers": 2} if variant == "no_conv" else {}
    return build_model("attconv", inputs, variant=variant, hidden=5, **extra, **kwargs)


def _pooled(model, batch):
    """The vector the logistic regression reads (t_x's representation)."""
    probe = keras.Model(model.input, model.get_layer("logits").input)
    return keras.ops.convert_to_numpy(probe(batch))


def _twin(model, variant, **kwargs):
    """A model with `model`'s weights, built with other options."""
    other = _build(variant, **kwargs)
    other.set_weights(model.get_weights())
    return other


# Two claims: the first has three context sentences (the last cut short by padding), the
# second one sentence.
CLAIMS = np.array([[3, 4, 5, 0], [6, 7, 8, 9]], "int32")
CONTEXT = np.array([[10, 11, 12, 13, 14, 15, 16, 0], [17, 18, 19, 0, 0, 0, 0, 0]], "int32")
SEGMENTS = np.array([[1, 1, 1, 2, 2, 3, 3, 0], [1, 1, 1, 0, 0, 0, 0, 0]], "int32")


def _sentence(k):
    """Sentence k of each example alone, left-aligned, as the single-context model's "a"."""
    out = np.zeros_like(CONTEXT)
    for row in range(len(CONTEXT)):
        tokens = CONTEXT[row][SEGMENTS[row] == k]
        out[row, : len(tokens)] = tokens
    return out


@pytest.mark.parametrize("variant", VARIANTS)
def test_context_wise_is_the_max_over_each_sentence_alone(variant):
    wise = _build(variant, segments=True, context_wise=True, max_contexts=4)
    single = _twin(wise, variant)
    got = _pooled(wise, {"a_ids": CONTEXT, "a_segments": SEGMENTS, "b_ids": CLAIMS})
    alone = [_pooled(single, {"a_ids": _sentence(k), "b_ids": CLAIMS}) for k in (1, 2, 3)]
    expected = np.stack([np.max(alone, axis=0)[0], alone[0][1]])  # claim 2: sentence 1 only
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    # Context-conc is the single-context model on the whole concatenation, which differs.
    conc = _pooled(single, {"a_ids": CONTEXT, "b_ids": CLAIMS})
    assert not np.allclose(conc[0], got[0], atol=1e-4)


@pytest.mark.parametrize("variant", VARIANTS)
def test_context_wise_ignores_padding_and_empty_slots(variant):
    wise = _build(variant, segments=True, context_wise=True, max_contexts=5)
    batch = {"a_ids": CONTEXT, "a_segments": SEGMENTS, "b_ids": CLAIMS}
    padded = {
        "a_ids": np.pad(CONTEXT, [(0, 0), (0, 5)]),
        "a_segments": np.pad(SEGMENTS, [(0, 0), (0, 5)]),
        "b_ids": np.pad(CLAIMS, [(0, 0), (0, 3)]),
    }
    np.testing.assert_allclose(_pooled(wise, batch), _pooled(wise, padded), atol=1e-6)


def test_claim_without_context_text_reads_one_empty_context():
    wise = _build("light", segments=True, context_wise=True)
    single = _twin(wise, "light")
    empty = np.zeros((2, 3), "int32")
    got = _pooled(wise, {"a_ids": empty, "a_segments": empty, "b_ids": CLAIMS})
    np.testing.assert_allclose(got, _pooled(single, {"a_ids": empty, "b_ids": CLAIMS}), atol=1e-6)
    assert np.isfinite(got).all() and np.abs(got).sum() > 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_intra_context_attends_to_the_text_itself(variant):
    intra = _build(variant, intra_context=True)
    pair = _twin(intra, variant)
    text = np.array([[3, 4, 5, 6, 0], [7, 8, 0, 0, 0]], "int32")
    got = _pooled(intra, {"a_ids": np.ones((2, 1), "int32"), "b_ids": text})
    np.testing.assert_allclose(got, _pooled(pair, {"a_ids": text, "b_ids": text}), atol=1e-6)
    other = _pooled(intra, {"a_ids": np.full((2, 7), 9, "int32"), "b_ids": text})
    np.testing.assert_allclose(got, other, atol=1e-7)  # "a" is not read


def test_options_that_do_not_combine_are_refused():
    with pytest.raises(ValueError, match="a_segments"):
        _build("light", context_wise=True)
    with pytest.raises(ValueError, match="attentive variant"):
        _build("no_context", intra_context=True)
    with pytest.raises(ValueError, match="attentive variant"):
        _build("light", segments=True, context_wise=True, classifier="code")
