"""BiLSTMEncoder (ESIM's input encoding / composition): harness checks, a NumPy LSTM, init."""

import keras
import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import sigmoid, to_numpy

from gcnn_match.layers.bilstm_encoder import BiLSTMEncoder
from gcnn_match.layers.initializers import OrthogonalIfSquare

B, L, UNITS = 3, 6, 4


def _inputs(dim, seed=0):
    return random_inputs(np.random.default_rng(seed), B, L, dim)


def np_lstm_direction(lstm, x, mask, reverse):
    """One Keras LSTM direction by hand (gates i, f, c, o), over each row's real tokens only.

    Starts from zero states at the row's first real token (last one when `reverse`); the
    output at padded positions is 0.
    """
    kernel, recurrent, bias = (
        to_numpy(w) for w in (lstm.cell.kernel, lstm.cell.recurrent_kernel, lstm.cell.bias)
    )
    units = recurrent.shape[0]
    out = np.zeros(x.shape[:2] + (units,))
    for row in range(x.shape[0]):
        h, c = np.zeros(units), np.zeros(units)
        steps = np.flatnonzero(mask[row])
        for t in steps[::-1] if reverse else steps:
            z = x[row, t].astype("float64") @ kernel + h @ recurrent + bias
            i, f, g, o = np.split(z, 4)
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
            h = sigmoid(o) * np.tanh(c)
            out[row, t] = h
    return out


@pytest.mark.parametrize("dim", [UNITS, 5])
def test_harness_and_numpy(dim):
    x, mask = _inputs(dim)
    result = run_layer_test(
        lambda: BiLSTMEncoder(UNITS),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    layer, (out,) = result["layer"], result["outputs"]
    assert out.shape == (B, L, 2 * UNITS)
    forward = np_lstm_direction(layer.forward_lstm, x, mask, reverse=False)
    backward = np_lstm_direction(layer.backward_lstm, x, mask, reverse=True)
    np.testing.assert_allclose(out[..., :UNITS], forward, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(out[..., UNITS:], backward, rtol=1e-5, atol=1e-5)


def test_backward_direction_starts_at_each_rows_last_real_token():
    x, _ = _inputs(5, seed=1)
    lengths = np.array([6, 4, 2])
    mask = (np.arange(L)[None, :] < lengths[:, None]).astype("float32")
    layer = BiLSTMEncoder(UNITS)
    out = np.asarray(layer(x, mask=mask))
    lstm = layer.backward_lstm
    kernel, bias = to_numpy(lstm.cell.kernel), to_numpy(lstm.cell.bias)
    for row, n in enumerate(lengths):
        # From zero states, one step on the last real token: h = o * tanh(i * g).
        i, _, g, o = np.split(x[row, n - 1].astype("float64") @ kernel + bias, 4)
        first = sigmoid(o) * np.tanh(sigmoid(i) * np.tanh(g))
        np.testing.assert_allclose(out[row, n - 1, UNITS:], first, rtol=1e-5, atol=1e-6)
    # Without the mask the backward pass would start at the padding and differ.
    unmasked = np.asarray(layer(x))
    assert not np.allclose(unmasked[2, 1, UNITS:], out[2, 1, UNITS:], atol=1e-4)


def test_row_without_real_tokens_gives_zeros():
    x, mask = _inputs(5, seed=2)
    mask[1] = 0.0
    out = np.asarray(BiLSTMEncoder(UNITS)(x, mask=mask))
    assert np.all(out[1] == 0) and np.all(np.isfinite(out))


def _is_orthogonal(block):
    return np.allclose(block.T @ block, np.eye(block.shape[1]), atol=1e-5)


def test_esim_initialisation():
    square, wide = BiLSTMEncoder(8), BiLSTMEncoder(8)
    square.build((None, None, 8))
    wide.build((None, None, 64))
    for lstm in (square.forward_lstm, square.backward_lstm):
        for matrix in (lstm.cell.kernel, lstm.cell.recurrent_kernel):
            blocks = np.split(to_numpy(matrix), 4, axis=1)
            assert all(_is_orthogonal(block) for block in blocks)
            assert not np.allclose(blocks[0], blocks[1])
        assert np.all(to_numpy(lstm.cell.bias) == 0)  # no unit forget bias
    assert not np.allclose(
        to_numpy(square.forward_lstm.cell.kernel), to_numpy(square.backward_lstm.cell.kernel)
    )
    kernel = to_numpy(wide.forward_lstm.cell.kernel)  # 64 -> 8: not square, N(0, 0.01^2)
    assert abs(kernel.std() - 0.01) < 0.001 and abs(kernel.mean()) < 0.001
    recurrent = to_numpy(wide.forward_lstm.cell.recurrent_kernel)
    assert all(_is_orthogonal(b) for b in np.split(recurrent, 4, axis=1))


def test_seeded_initializers_are_reproducible_and_differ_between_directions():
    def build():
        layer = BiLSTMEncoder(
            4,
            kernel_initializer=OrthogonalIfSquare(seed=3),
            recurrent_initializer=keras.initializers.Orthogonal(seed=5),
        )
        layer.build((None, None, 4))
        return layer

    first, second = build(), build()
    for a, b in zip(first.get_weights(), second.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert not np.allclose(
        to_numpy(first.forward_lstm.cell.kernel), to_numpy(first.backward_lstm.cell.kernel)
    )


def test_weight_count():
    layer = BiLSTMEncoder(UNITS)
    layer.build((None, None, 5))
    # per direction: 4 gates x (input 5 + recurrent UNITS) x UNITS + 4 x UNITS biases
    assert layer.count_params() == 2 * (4 * (5 + UNITS) * UNITS + 4 * UNITS)
