"""BatchStatisticsNormalization (the ATTCONV light scripts' batch normalisation)."""

import numpy as np
from harness import run_layer_test

from gcnn_match.layers.batch_statistics_normalization import BatchStatisticsNormalization


def test_harness_and_numpy():
    x = np.random.default_rng(0).normal(size=(4, 5)).astype("float32")
    result = run_layer_test(lambda: BatchStatisticsNormalization(), args=[x], output_axes=[()])
    layer = result["layer"]
    gamma, beta = (np.asarray(w, "float64") for w in (layer.gamma, layer.beta))
    x64 = x.astype("float64")
    want = gamma * (x64 - x64.mean(0)) / np.sqrt(x64.var(0) + 1e-6) + beta
    np.testing.assert_allclose(result["outputs"][0], want, rtol=1e-5, atol=1e-6)
    # The code's gamma draw: U(-1/sqrt(d), 1/sqrt(d)).
    assert np.all(np.abs(gamma) <= 1 / np.sqrt(5)) and np.all(beta == 0)


def test_uses_the_batch_at_test_time_too():
    layer = BatchStatisticsNormalization(gamma_initializer="ones")
    x = np.array([[1.0], [3.0], [5.0]], "float32")
    alone = np.asarray(layer(x[:2], training=False))
    together = np.asarray(layer(x, training=False))
    assert not np.isclose(alone[1, 0], together[1, 0])
    np.testing.assert_allclose(np.asarray(layer(x[:1])), [[0.0]])  # a batch of one: beta
