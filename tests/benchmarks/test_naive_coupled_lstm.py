"""The per-cell loop visits the cells in the order the wavefront layer does and gives its
outputs. It shares the layer's cell, so it checks the visiting order only (default sharing,
n < m); the cell itself is checked against a NumPy double loop in
tests/layers/test_coupled_lstm.py (`test_matches_numpy_double_loop`)."""

import numpy as np
import pytest
import tensorflow as tf

from gcnn_match.benchmarks.clstm_speed import copy_weights
from gcnn_match.benchmarks.naive_coupled_lstm import NaiveCoupledLSTM
from gcnn_match.layers.coupled_lstm import CoupledLSTM

pytestmark = pytest.mark.slow  # the naive loop runs cell by cell, eagerly and in a graph


@pytest.mark.parametrize("cell", ["tight", "loose"])
def test_naive_loop_matches_wavefront_on_a_padded_grid(cell):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(2, 3, 5)).astype("float32"))
    y = tf.constant(rng.normal(size=(2, 4, 5)).astype("float32"))
    mask = [
        tf.constant([[1, 1, 1], [1, 1, 0]], "float32"),
        tf.constant([[1, 1, 1, 1], [1, 1, 1, 0]], "float32"),
    ]
    wavefront = CoupledLSTM(4, cell=cell, num_layers=2)
    expected = wavefront([x, y], mask=mask)
    naive = NaiveCoupledLSTM(4, cell=cell, num_layers=2)
    copy_weights(wavefront, naive, x, y, mask)
    np.testing.assert_allclose(naive([x, y], mask=mask).numpy(), expected.numpy(), atol=1e-5)
    compiled = tf.function(lambda: naive([x, y], mask=mask))()  # as measured: in a graph
    np.testing.assert_allclose(compiled.numpy(), expected.numpy(), atol=1e-5)
    assert np.abs(expected.numpy()[1, :, 3]).max() == 0 and np.abs(expected.numpy()).max() > 0
