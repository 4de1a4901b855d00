"""SelfAlignmentContext (COIN Eq. 5-6): harness checks and a NumPy re-computation."""

import numpy as np
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_self_alignment

from gcnn_match.layers.self_alignment_context import SelfAlignmentContext

B, L, D, UNITS = 3, 6, 5, 4


def test_harness_and_numpy():
    x, mask = random_inputs(np.random.default_rng(0), B, L, D)
    result = run_layer_test(
        lambda: SelfAlignmentContext(UNITS),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    layer = result["layer"]
    kernel = np.asarray(layer.projection.kernel, "float64")
    assert layer.projection.bias is None  # Eq. 5 writes no bias
    assert layer.count_params() == D * UNITS
    np.testing.assert_allclose(
        result["outputs"][0], np_self_alignment(kernel, x, mask), rtol=1e-5, atol=1e-5
    )


def test_all_padding_sequence_gives_zeros():
    x, mask = random_inputs(np.random.default_rng(1), B, L, D)
    mask[2] = 0.0
    out = np.asarray(SelfAlignmentContext(UNITS)(x, mask=mask))
    assert np.all(np.isfinite(out))
    np.testing.assert_array_equal(out[2], 0.0)
