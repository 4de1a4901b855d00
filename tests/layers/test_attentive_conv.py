"""AttentiveConv (light ATTCONV, Eq. 1-6): harness checks and a NumPy re-computation."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_attentive_conv

from gcnn_match.layers.attentive_conv import AttentiveConv

B, LX, LY, D, UNITS = 3, 5, 4, 6, 4


def _pair(seed=0, dim_y=D):
    rng = np.random.default_rng(seed)
    x, mask_x = random_inputs(rng, B, LX, D)
    y, mask_y = random_inputs(rng, B, LY, dim_y)
    return x, y, mask_x, mask_y


@pytest.mark.parametrize("matching", ["dot", "bilinear", "additive"])
def test_harness_and_numpy(matching):
    x, y, mask_x, mask_y = _pair()
    result = run_layer_test(
        lambda: AttentiveConv(UNITS, matching=matching, return_attention=True),
        args=[[Seq(x, "x"), Seq(y, "y")]],
        kwargs={"mask": [Mask(mask_x, "x"), Mask(mask_y, "y")]},
        output_axes=[("x",), ("x", "y")],
    )
    want = np_attentive_conv(result["layer"], x, y, mask_x, mask_y)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_separate_attention_source():
    x, y, mask_x, mask_y = _pair(seed=1, dim_y=3)
    source = np.random.default_rng(5).normal(size=(B, LX, 3)).astype("float32")
    result = run_layer_test(
        lambda: AttentiveConv(UNITS),
        args=[[Seq(x, "x"), Seq(y, "y")]],
        kwargs={"mask": [Mask(mask_x, "x"), Mask(mask_y, "y")], "source": Seq(source, "x")},
        output_axes=[("x",)],
    )
    want, _ = np_attentive_conv(result["layer"], x, y, mask_x, mask_y, source)
    np.testing.assert_allclose(result["outputs"][0], want, rtol=1e-5, atol=1e-5)


def test_code_faithful_convolves_unmasked_input_and_keeps_padding_in_softmax():
    x, y, mask_x, mask_y = _pair(seed=2)
    layer = AttentiveConv(UNITS, code_faithful=True)
    got = np.asarray(layer([x, y], mask=[mask_x, mask_y]))
    want, _ = np_attentive_conv(layer, x, y, mask_x, mask_y)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    assert np.all(got * (1 - mask_x[..., None]) == 0)
    # The values under x's padding reach the last real token's window.
    x_changed = x + 5.0 * (1 - mask_x[..., None])
    changed = np.asarray(layer([x_changed, y], mask=[mask_x, mask_y]))
    assert not np.allclose(changed, got)


def test_light_weight_count_is_w1_plus_w2_plus_bias():
    layer = AttentiveConv(300)
    layer.build([(None, None, 300), (None, None, 300)])
    assert layer.count_params() == 300 * 900 + 300 * 300 + 300
