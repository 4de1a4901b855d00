"""carry_scan: the carries of a sequential loop, and a gradient through it that XLA compiles."""

import keras
import numpy as np
import pytest
from keras import ops

from gcnn_match.layers.conditional_attention import ConditionalAttention
from gcnn_match.layers.coupled_lstm import CoupledLSTM
from gcnn_match.layers.scan import carry_scan, flat_matmul


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


def test_flat_matmul_matches_numpy_for_matrix_and_column_kernels():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(2, 3, 4, 5)).astype("float32")
    for kernel in (rng.normal(size=(5, 6)), rng.normal(size=(5, 1))):
        kernel = kernel.astype("float32")
        np.testing.assert_allclose(
            ops.convert_to_numpy(flat_matmul(x, kernel)), x @ kernel, rtol=1e-5, atol=1e-5
        )


def _losses_with_and_without_xla(build, batches):
    """Training losses of the model `build(inputs)` makes on two sentences, on `batches` of
    different grid shapes (each twice), with jit_compile off and on, from the same weights."""
    losses = []
    for jit in (False, True):
        keras.utils.set_random_seed(3)
        x, y = keras.Input((None, 5)), keras.Input((None, 5))
        model = keras.Model([x, y], keras.layers.Dense(1)(build(x, y)))
        model.compile(keras.optimizers.SGD(0.1), "mse", jit_compile=jit)
        losses.append([float(model.train_on_batch(*batch)) for batch in batches * 2])
    return losses


def _batches():
    rng = np.random.default_rng(1)
    return [
        (
            [
                rng.normal(size=(4, n, 5)).astype("float32"),
                rng.normal(size=(4, m, 5)).astype("float32"),
            ],
            rng.normal(size=(4, 1)),
        )
        for n, m in ((6, 3), (4, 7))
    ]


XLA = pytest.mark.skipif(keras.backend.backend() != "tensorflow", reason="TensorFlow's XLA path")


@pytest.mark.slow
@XLA
@pytest.mark.parametrize(
    "cell,sharing",
    [("tight", {}), ("loose", {}), ("loose", {"share_streams": True, "share_directions": False})],
)
def test_a_coupled_lstm_trains_under_xla_as_without_it(cell, sharing):
    # Keras' own TF scan leaves the loop unbounded, so the gradient did not compile with XLA;
    # the cells' higher-rank matmuls (tensordot) did not compile either when n != m. Every
    # step multiplies its directions and LC streams in one batched matmul.
    def build(x, y):
        grid = CoupledLSTM(4, cell=cell, num_layers=2, **sharing)([x, y])
        return keras.layers.GlobalMaxPooling2D()(grid)

    losses = _losses_with_and_without_xla(build, _batches())
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-4)


@pytest.mark.slow
@XLA
def test_word_by_word_attention_trains_under_xla_as_without_it():
    def build(premise, hypothesis):
        last = keras.layers.Lambda(lambda t: t[:, -1])(hypothesis)
        masks = [
            keras.layers.Lambda(lambda t: ops.ones(ops.shape(t)[:2], "bool"))(t)
            for t in (premise, hypothesis)
        ]
        return ConditionalAttention(5, word_by_word=True)([premise, hypothesis, last], mask=masks)

    losses = _losses_with_and_without_xla(build, _batches())
    np.testing.assert_allclose(losses[0], losses[1], rtol=1e-4)
