"""AttentiveContext (ATTCONV Eq. 1-4): harness checks and a NumPy re-computation."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_attentive_context

from gcnn_match.layers.attentive_context import AttentiveContext

B, LX, LY, D = 3, 5, 4, 6


def _pair(dim_x=D, seed=0):
    rng = np.random.default_rng(seed)
    x, mask_x = random_inputs(rng, B, LX, dim_x)
    y, mask_y = random_inputs(rng, B, LY, D)
    return x, y, mask_x, mask_y


@pytest.mark.parametrize("matching,dim_x", [("dot", D), ("bilinear", 3), ("additive", 3)])
def test_harness_and_numpy(matching, dim_x):
    x, y, mask_x, mask_y = _pair(dim_x)
    result = run_layer_test(
        lambda: AttentiveContext(matching=matching, attention_units=4, return_attention=True),
        args=[[Seq(x, "x"), Seq(y, "y")]],
        kwargs={"mask": [Mask(mask_x, "x"), Mask(mask_y, "y")]},
        output_axes=[("x",), ("x", "y")],
    )
    want = np_attentive_context(result["layer"], x, y, mask_x, mask_y)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    # Rows are distributions over the real context positions, zero rows at padding.
    np.testing.assert_allclose(result["outputs"][1].sum(-1), mask_x, atol=1e-5)


def test_intra_context_attends_over_the_text_itself():
    x, _, mask_x, _ = _pair(seed=1)
    result = run_layer_test(
        lambda: AttentiveContext(),
        args=[[Seq(x, "x"), Seq(x, "x")]],
        kwargs={"mask": [Mask(mask_x, "x"), Mask(mask_x, "x")]},
        output_axes=[("x",)],
    )
    want, _ = np_attentive_context(result["layer"], x, x, mask_x, mask_x)
    np.testing.assert_allclose(result["outputs"][0], want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("matching", ["dot", "additive"])
def test_code_faithful_softmax_keeps_padding_with_score_zero(matching):
    x, y, mask_x, mask_y = _pair(seed=2)
    x, y = 0.3 * x, 0.3 * y  # moderate scores, so that a pad's e^0 / Z is visible
    layer = AttentiveContext(matching=matching, code_faithful=True, return_attention=True)
    context, weights = (np.asarray(t) for t in layer([x, y], mask=[mask_x, mask_y]))
    want_context, want_weights = np_attentive_context(layer, x, y, mask_x, mask_y)
    np.testing.assert_allclose(context, want_context, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(weights, want_weights, rtol=1e-5, atol=1e-5)
    short = mask_y.sum(1) < LY
    # Padded keys take weight e^0 / Z: the real keys' weights no longer sum to 1.
    real_key_total = (weights * mask_y[:, None, :]).sum(-1)
    assert np.all(real_key_total[short][mask_x[short] > 0] < 1 - 1e-3)
    assert np.all(weights[short][:, :, -1][mask_x[short] > 0] > 0)
    # Proper masking differs exactly there.
    proper = AttentiveContext(matching=matching, return_attention=True)
    proper([x, y], mask=[mask_x, mask_y])
    proper.set_weights(layer.get_weights())
    assert not np.allclose(
        np.asarray(proper([x, y], mask=[mask_x, mask_y])[0])[short], context[short]
    )


def test_all_padding_context_gives_zeros():
    x, y, mask_x, mask_y = _pair(seed=3)
    mask_y[1] = 0.0
    context = np.asarray(AttentiveContext()([x, y], mask=[mask_x, mask_y]))
    assert np.all(np.isfinite(context)) and np.all(context[1] == 0)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="matching"):
        AttentiveContext(matching="cosine")
    with pytest.raises(ValueError, match="equal dimensions"):
        AttentiveContext()([np.zeros((1, 2, 3), "f"), np.zeros((1, 2, 4), "f")])
