"""GLU layer (GCNN paper Eq. 1, literal: no residual)."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_glu

from gcnn_match.layers import GLU

B, L, UNITS = 3, 6, 4


@pytest.mark.parametrize("dim,kernel_size", [(UNITS, 3), (7, 3), (5, 5)])
def test_harness_and_numpy(dim, kernel_size):
    x, mask = random_inputs(np.random.default_rng(dim), B, L, dim)
    result = run_layer_test(
        lambda: GLU(UNITS, kernel_size=kernel_size),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    layer = result["layer"]
    np.testing.assert_allclose(result["outputs"][0], np_glu(layer, x, mask), rtol=1e-5, atol=1e-5)
    # Eq. 1 has no residual and so no projection: one fused kernel and its bias.
    assert layer.count_params() == kernel_size * dim * 2 * UNITS + 2 * UNITS


def test_no_residual():
    # With zero weights the output is exactly 0 (a residual would return the input).
    x, mask = random_inputs(np.random.default_rng(0), B, L, UNITS)
    layer = GLU(UNITS, kernel_initializer="zeros")
    np.testing.assert_array_equal(np.asarray(layer(x, mask=mask)), 0.0)
