"""ResidualConv, the `CNN` baseline layer: ReLU(conv(H) + b) + P(H)."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_residual_conv

from gcnn_match.layers import ResidualConv

B, L, UNITS = 3, 6, 4


@pytest.mark.parametrize("dim", [UNITS, 7])
def test_harness_and_numpy(dim):
    x, mask = random_inputs(np.random.default_rng(dim), B, L, dim)
    result = run_layer_test(
        lambda: ResidualConv(UNITS),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    layer = result["layer"]
    assert (layer.projection is None) == (dim == UNITS)
    np.testing.assert_allclose(
        result["outputs"][0], np_residual_conv(layer, x, mask), rtol=1e-5, atol=1e-5
    )
    # conv k*m*n + bias n (+ bias-free projection m*n when widths differ)
    expected = 3 * dim * UNITS + UNITS + (0 if dim == UNITS else dim * UNITS)
    assert layer.count_params() == expected


def test_identity_residual():
    # With a zero kernel and bias, ReLU(0) = 0 and the layer returns the (masked) input.
    x, mask = random_inputs(np.random.default_rng(0), B, L, UNITS)
    layer = ResidualConv(UNITS, kernel_initializer="zeros")
    np.testing.assert_allclose(np.asarray(layer(x, mask=mask)), x * mask[..., None])
