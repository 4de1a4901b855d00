"""carry_scan: the carries of a sequential loop, and a gradient through it that XLA compiles."""
import keras
import numpy as np
import pytest
from keras import ops

from gcnn_match.layers.coupled_lstm import CoupledLSTM
from gcnn_match.layers.scan import carry_scan


def _step(carry, x):
    return 0.5 * carry + x


def test_carries_match_a_python_loop():
    xs = np.random.default_rng(0).normal(size=(6, 3, 2)).astype("float32")
    init = np.ones((3, 2), "float32")
    last, carries = carry_scan(_step, ops.convert_to_tensor(init), ops.convert_to_tensor(xs))
    expected, carry = [], init
    for x in xs:
        carry = _step(carry, x)
        expected.append(carry)
    np.testing.assert_allclose(ops.convert_to_numpy(carries), np.stack(expected), rtol=1e-6)
    np.testing.assert_allclose(ops.convert_to_numpy(last), expected[-1], rtol=1e-6)


@pytest.mark.skipif(keras.backend.backend() != "tensorflow", reason="TensorFlow's XLA path")
@pytest.mark.parametrize("cell", ["tight", "loose"])
def test_a_coupled_lstm_trains_under_xla_as_without_it(cell):
    # Keras' own TF scan leaves the loop unbounded, so the gradient did not compile with XLA;
    # the loose cell's rank-4 matmul (a tensordot) did not compile either. Two grid shapes.
    rng = np.random.default_rng(1)
    batches = [([rng.normal(size=(4, n, 5)).astype("float32"),
                 rng.normal(size=(4, m, 5)).astype("float32")], rng.normal(size=(4, 1)))
               for n, m in ((6, 3), (4, 7))]
    losses = []
    for jit in (False, True):
        keras.utils.set_random_seed(3)
        x, y = keras.Input((None, 5)), keras.Input((None, 5))
        grid = CoupledLSTM(4, cell=cell, num_layers=2)([x, y])
        out = keras.layers.Dense(1)(keras.layers.GlobalMaxPooling2D()(grid))
        model = keras.Model([x, y], out)
        model.compile(keras.optimizers.SGD(0.1), "mse", jit_compile=jit)
        losses.append([float(model.train_on_batch(*batch)) for batch in batches * 2])
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-4)
