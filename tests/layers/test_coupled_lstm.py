"""CoupledLSTM (Liu et al. 2016, Eq. 5-13): harness checks and a NumPy double-loop reference.

The reference visits the cells with plain for-loops over i and j in each direction's own
order and reads each direction's predecessors directly (i -/+ 1, j -/+ 1), so it checks the
layer's wavefront scan and its length-aware reversals independently.
"""

import functools

import numpy as np
import pytest
import tensorflow as tf
from harness import Mask, Seq, run_layer_test
from references import sigmoid

from gcnn_match.layers.coupled_lstm import CoupledLSTM, reverse_real

B, N, M, E, UNITS = 3, 5, 6, 3, 4
# direction -> (row step, column step) of its predecessors: (i - di, j - dj)
STEPS = {1: (1, 1), 2: (1, -1), 3: (-1, -1), 4: (-1, 1)}


def _pair(seed, e=E, n=N, m=M):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(B, n, e)).astype("float32")
    y = rng.normal(size=(B, m, e)).astype("float32")
    len_x, len_y = np.array([n, 2, 4]), np.array([m, 5, 1])
    mask_x = (np.arange(n)[None] < len_x[:, None]).astype("float32")
    mask_y = (np.arange(m)[None] < len_y[:, None]).astype("float32")
    return x, y, mask_x, mask_y


def _np_direction(weights, cell, units, inputs_at, n, m, direction):
    """One direction over an n x m grid of real cells; inputs_at(i, j) -> cell input."""
    kernel, recurrent, bias = (np.asarray(w, "float64") for w in weights)
    k = units
    streams = 1 if cell == "tight" else 2
    h = np.zeros((n, m, streams * k))
    c = np.zeros((n, m, streams * k))
    di, dj = STEPS[direction]
    rows = range(n) if di == 1 else range(n - 1, -1, -1)
    cols = list(range(m)) if dj == 1 else list(range(m - 1, -1, -1))

    def state(a, i, j):
        return a[i, j] if 0 <= i < n and 0 <= j < m else np.zeros(streams * k)

    for i in rows:
        for j in cols:
            h_row, c_row = state(h, i - di, j), state(c, i - di, j)
            h_col, c_col = state(h, i, j - dj), state(c, i, j - dj)
            if cell == "tight":
                pre = inputs_at(i, j) @ kernel + np.concatenate([h_col, h_row]) @ recurrent + bias
                cand, o, ig, f1, f2 = np.split(pre, 5)
                c[i, j] = np.tanh(cand) * sigmoid(ig) + sigmoid(f1) * c_col + sigmoid(f2) * c_row
                h[i, j] = sigmoid(o) * np.tanh(c[i, j])
            else:
                in1, in2 = inputs_at(i, j)
                for s, (inp, h_pred, c_pred) in enumerate(
                    [(in1, h_row, c_row[:k]), (in2, h_col, c_col[k:])]
                ):
                    pre = inp @ kernel + h_pred @ recurrent + bias
                    cand, o, ig, f = np.split(pre, 4)
                    cs = np.tanh(cand) * sigmoid(ig) + sigmoid(f) * c_pred
                    c[i, j, s * k : (s + 1) * k] = cs
                    h[i, j, s * k : (s + 1) * k] = sigmoid(o) * np.tanh(cs)
    return h


def _cell_inputs(cell, k, x, y, grid):
    """(i, j) -> the cell's input: words at block 1, the summed grid below afterwards."""
    if grid is None and cell == "tight":
        return lambda i, j: np.concatenate([x[i], y[j]])
    if grid is None:
        return lambda i, j: (x[i], y[j])  # LSTM1 reads x_i, LSTM2 reads y_j
    if cell == "tight":
        return lambda i, j: grid[i, j]
    return lambda i, j: (grid[i, j, :k], grid[i, j, k:])


def np_coupled_lstm(layer, x, y, mask_x, mask_y):
    """The layer's output computed example by example on the real region only."""
    k = layer.units
    out = np.zeros((x.shape[0], x.shape[1], y.shape[1], layer.output_dim))
    for b in range(x.shape[0]):
        n, m = int(mask_x[b].sum()), int(mask_y[b].sum())
        xb, yb = x[b, :n].astype("float64"), y[b, :m].astype("float64")
        grid = None
        for block in layer.blocks:
            weights = (block["input_kernel"], block["recurrent_kernel"], block["bias"])
            inputs_at = _cell_inputs(layer.cell, k, xb, yb, grid)
            grid = sum(
                _np_direction(weights, layer.cell, k, inputs_at, n, m, d) for d in layer.directions
            )
        out[b, :n, :m] = grid
    return out


CASES = [
    (cell, layers, directions)
    for cell in ("tight", "loose")
    for layers, directions in [
        (1, [1]),
        (1, [2]),
        (1, [3]),
        (1, [4]),
        (1, [1, 2, 3, 4]),
        (2, [1, 2, 3, 4]),
    ]
]


# n < m scans the diagonals by row, n > m by column (the shorter sentence).
SHAPES = [(N, M), (M, N)]


@pytest.mark.parametrize("n,m", SHAPES)
@pytest.mark.parametrize("cell,layers,directions", CASES)
def test_matches_numpy_double_loop(cell, layers, directions, n, m):
    x, y, mask_x, mask_y = _pair(seed=layers * 10 + directions[0], n=n, m=m)
    layer = CoupledLSTM(UNITS, cell=cell, num_layers=layers, directions=directions)
    got = np.asarray(layer([x, y], mask=[mask_x, mask_y]))
    want = np_coupled_lstm(layer, x, y, mask_x, mask_y)
    assert got.shape == (B, n, m, UNITS * (1 if cell == "tight" else 2))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("cell", ["tight", "loose"])
def test_harness(cell):
    x, y, mask_x, mask_y = _pair(seed=7, n=4, m=3)
    mask_x[2], mask_y[2] = [1, 1, 1, 0], [1, 1, 0]
    run_layer_test(
        lambda: CoupledLSTM(UNITS, cell=cell, num_layers=2),
        args=[[Seq(x, "a"), Seq(y, "b")]],
        kwargs={"mask": [Mask(mask_x, "a"), Mask(mask_y, "b")]},
        output_axes=[("a", "b")],
    )


@pytest.mark.parametrize("cell", ["tight", "loose"])
def test_compiled_with_unknown_batch_and_lengths(cell):
    # model.fit traces with (None, None, e) inputs: the scan and the reversals must not
    # need any static size, and one trace picks the scan axis per batch at run time.
    layer = CoupledLSTM(UNITS, cell=cell, num_layers=2)
    spec = lambda *shape: tf.TensorSpec(shape, "float32")  # noqa: E731
    compiled = tf.function(
        lambda a, b, ma, mb: layer([a, b], mask=[ma, mb]),
        input_signature=[
            spec(None, None, E),
            spec(None, None, E),
            spec(None, None),
            spec(None, None),
        ],
    )
    for n, m in SHAPES:
        x, y, mask_x, mask_y = _pair(seed=11, n=n, m=m)
        eager = np.asarray(layer([x, y], mask=[mask_x, mask_y]))
        np.testing.assert_allclose(
            np.asarray(compiled(x, y, mask_x, mask_y)), eager, rtol=1e-5, atol=1e-5
        )


@pytest.mark.parametrize("cell", ["tight", "loose"])
def test_gradients_match_along_either_axis(cell):
    # The two scan axes are the same function: forcing the other one changes no gradient.
    x, y, mask_x, mask_y = _pair(seed=12, n=M, m=N)
    layer = CoupledLSTM(UNITS, cell=cell, num_layers=2)
    layer([x, y], mask=[mask_x, mask_y])
    grads = []
    for by_rows in (True, False):
        layer._scan = functools.partial(type(layer)._scan, layer, by_rows=by_rows)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer([x, y], mask=[mask_x, mask_y]) ** 2)
        grads.append(tape.gradient(loss, layer.trainable_weights))
        del layer._scan
    for by_row, by_col in zip(*grads):
        np.testing.assert_allclose(np.asarray(by_row), np.asarray(by_col), rtol=1e-4, atol=1e-6)


def test_parameter_shapes_follow_the_papers_counts():
    # docs/clstm.md#parameter-counts with e = 100, k = 50 (kernels only): TC 75,000 then 37,500 per
    # block; LC 40,000 (one set shared by LSTM1 and LSTM2) then 30,000.
    tight = CoupledLSTM(50, cell="tight", num_layers=4)
    tight.build([(None, None, 100), (None, None, 100)])
    loose = CoupledLSTM(50, cell="loose", num_layers=4)
    loose.build([(None, None, 100), (None, None, 100)])

    def kernels(layer):
        return [int(np.prod(w.shape)) for w in layer.weights if "kernel" in w.path]

    assert sum(kernels(tight)[:2]) == 75_000 and sum(kernels(tight)[2:4]) == 37_500
    assert sum(kernels(loose)[:2]) == 40_000 and sum(kernels(loose)[2:4]) == 30_000


def test_reverse_real_keeps_padding_at_the_end():
    x = np.arange(2 * 4 * 3, dtype="float32").reshape(2, 4, 3)
    lengths = np.array([4, 2])
    got = np.asarray(reverse_real(x, lengths, 1))
    np.testing.assert_array_equal(got[0], x[0, ::-1])
    np.testing.assert_array_equal(got[1], x[1, [1, 0, 2, 3]])
    np.testing.assert_array_equal(
        np.asarray(reverse_real(x, np.array([3, 1]), 2))[1], x[1]
    )  # length 1 along axis 2: unchanged
    np.testing.assert_array_equal(
        np.asarray(reverse_real(x, np.array([3, 2]), 2))[0], x[0][:, [2, 1, 0]]
    )


def test_invalid_arguments():
    with pytest.raises(ValueError):
        CoupledLSTM(4, cell="grid")
    with pytest.raises(ValueError):
        CoupledLSTM(4, directions=[1, 5])
