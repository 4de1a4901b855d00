"""BatchColumnNormalization (the ATTCONV code's LR-input normalisation)."""

import numpy as np
from harness import run_layer_test

from gcnn_match.layers.batch_column_normalization import BatchColumnNormalization


def test_harness_and_numpy():
    x = np.random.default_rng(0).normal(size=(4, 5)).astype("float32")
    result = run_layer_test(lambda: BatchColumnNormalization(), args=[x], output_axes=[()])
    want = x / np.sqrt(1e-8 + (x.astype("float64") ** 2).sum(0, keepdims=True))
    np.testing.assert_allclose(result["outputs"][0], want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose((result["outputs"][0] ** 2).sum(0), np.ones(5), rtol=1e-5)
