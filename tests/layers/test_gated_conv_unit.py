"""GatedConvUnit (ATTCONV f_gconv, Eq. 7-9): harness checks and a NumPy re-computation."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_gated_conv_unit

from gcnn_match.layers.gated_conv_unit import GatedConvUnit

B, L, D = 3, 6, 4


@pytest.mark.parametrize("kernel_size,dim", [(1, D), (3, D), (3, 5)])
def test_harness_and_numpy(kernel_size, dim):
    x, mask = random_inputs(np.random.default_rng(kernel_size), B, L, dim)
    result = run_layer_test(
        lambda: GatedConvUnit(D, kernel_size=kernel_size),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
    )
    want = np_gated_conv_unit(result["layer"], x, mask)
    np.testing.assert_allclose(result["outputs"][0], want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("kernel_size,blocks", [(1, 2), (3, 6)])
def test_weight_count(kernel_size, blocks):
    layer = GatedConvUnit(300, kernel_size=kernel_size)
    layer.build((None, None, 300))
    # W_h, W_g in R^{d x kd}: 2k d^2 weights (docs/attconv.md#advanced-attconv) plus b_h, b_g.
    assert layer.count_params() == blocks * 300 * 300 + 2 * 300


def test_closed_gate_passes_the_unigram_through():
    x, mask = random_inputs(np.random.default_rng(0), B, L, D)
    layer = GatedConvUnit(
        D, kernel_size=3, kernel_initializer="zeros", bias_initializer=keras_constant(50.0)
    )
    np.testing.assert_allclose(np.asarray(layer(x, mask=mask)), x * mask[..., None], atol=1e-6)


def keras_constant(value):
    import keras

    return keras.initializers.Constant(value)
