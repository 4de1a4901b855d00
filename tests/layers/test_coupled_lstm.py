"""CoupledLSTM (Liu et al. 2016, Eq. 5-13): harness checks and a NumPy double-loop reference.

The reference visits the cells with plain for-loops over i and j in each direction's own
order and reads each direction's predecessors directly (i -/+ 1, j -/+ 1), so it checks the
layer's wavefront scan and its length-aware reversals independently. It takes each LC stream's
and each direction's weights from the layer's own set for it, so it covers both readings of
the weight sharing (one set, or one per stream / per direction).
"""

import functools
import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest
import tensorflow as tf
from harness import Mask, Seq, run_layer_test
from references import sigmoid

from gcnn_match.layers.coupled_lstm import CoupledLSTM, reverse_real
from tests.conftest import subprocess_env

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
    """One direction over an n x m grid of real cells; inputs_at(i, j) -> cell input;
    weights[s] = (kernel, recurrent, bias) of LC stream s (TC: weights[0])."""
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
                kernel, recurrent, bias = weights[0]
                pre = inputs_at(i, j) @ kernel + np.concatenate([h_col, h_row]) @ recurrent + bias
                cand, o, ig, f1, f2 = np.split(pre, 5)
                c[i, j] = np.tanh(cand) * sigmoid(ig) + sigmoid(f1) * c_col + sigmoid(f2) * c_row
                h[i, j] = sigmoid(o) * np.tanh(c[i, j])
            else:
                in1, in2 = inputs_at(i, j)
                for s, (inp, h_pred, c_pred) in enumerate(
                    [(in1, h_row, c_row[:k]), (in2, h_col, c_col[k:])]
                ):
                    kernel, recurrent, bias = weights[s]
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


def _np_weights(block, stream, direction_index):
    """(kernel, recurrent, bias) of one LC stream and one direction: its own set, or the one
    set shared by the streams and/or the directions."""

    def pick(sets):
        per_direction = sets[stream if len(sets) > 1 else 0]
        return np.asarray(
            per_direction[direction_index if len(per_direction) > 1 else 0], "float64"
        )

    return tuple(pick(block[name]) for name in ("input_kernel", "recurrent_kernel", "bias"))


def np_coupled_lstm(layer, x, y, mask_x, mask_y):
    """The layer's output computed example by example on the real region only."""
    k = layer.units
    out = np.zeros((x.shape[0], x.shape[1], y.shape[1], layer.output_dim))
    for b in range(x.shape[0]):
        n, m = int(mask_x[b].sum()), int(mask_y[b].sum())
        xb, yb = x[b, :n].astype("float64"), y[b, :m].astype("float64")
        grid = None
        for block in layer.blocks:
            inputs_at = _cell_inputs(layer.cell, k, xb, yb, grid)
            grid = sum(
                _np_direction(
                    [_np_weights(block, s, index) for s in range(layer.num_streams)],
                    layer.cell,
                    k,
                    inputs_at,
                    n,
                    m,
                    d,
                )
                for index, d in enumerate(layer.directions)
            )
        out[b, :n, :m] = grid
    return out


# The defaults (TC: directions shared; LC: two LSTMs, directions shared) in every direction,
# then the other readings: LC's one shared LSTM pair, one weight set per direction.
SHARED_PAIR, OWN_DIRECTIONS = {"share_streams": True}, {"share_directions": False}
CASES = [
    (cell, layers, directions, {})
    for cell in ("tight", "loose")
    for layers, directions in [
        (1, [1]),
        (1, [2]),
        (1, [3]),
        (1, [4]),
        (1, [1, 2, 3, 4]),
        (2, [1, 2, 3, 4]),
    ]
] + [
    ("loose", 1, [1], SHARED_PAIR),
    ("loose", 2, [1, 2, 3, 4], SHARED_PAIR),
    ("tight", 1, [1, 2, 3, 4], OWN_DIRECTIONS),
    ("tight", 2, [3, 1], OWN_DIRECTIONS),
    ("loose", 2, [1, 2, 3, 4], OWN_DIRECTIONS),
    ("loose", 1, [2, 4], {**SHARED_PAIR, **OWN_DIRECTIONS}),
]


# n < m scans the diagonals by row, n > m by column (the shorter sentence).
SHAPES = [(N, M), (M, N)]


@pytest.mark.parametrize("n,m", SHAPES)
@pytest.mark.parametrize("cell,layers,directions,sharing", CASES)
def test_matches_numpy_double_loop(cell, layers, directions, sharing, n, m):
    x, y, mask_x, mask_y = _pair(seed=layers * 10 + directions[0], n=n, m=m)
    layer = CoupledLSTM(UNITS, cell=cell, num_layers=layers, directions=directions, **sharing)
    got = np.asarray(layer([x, y], mask=[mask_x, mask_y]))
    want = np_coupled_lstm(layer, x, y, mask_x, mask_y)
    assert got.shape == (B, n, m, UNITS * (1 if cell == "tight" else 2))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


# Each cell with its default weight sharing and with the other reading(s); the other readings
# run in the full tier only (`make test`), the defaults in `make test-fast` too.
READINGS = [
    ("tight", {}),
    pytest.param("tight", OWN_DIRECTIONS, marks=pytest.mark.slow),
    ("loose", {}),
    pytest.param("loose", {**SHARED_PAIR, **OWN_DIRECTIONS}, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("cell,sharing", READINGS)
def test_harness(cell, sharing):
    x, y, mask_x, mask_y = _pair(seed=7, n=4, m=3)
    mask_x[2], mask_y[2] = [1, 1, 1, 0], [1, 1, 0]
    run_layer_test(
        lambda: CoupledLSTM(UNITS, cell=cell, num_layers=2, **sharing),
        args=[[Seq(x, "a"), Seq(y, "b")]],
        kwargs={"mask": [Mask(mask_x, "a"), Mask(mask_y, "b")]},
        output_axes=[("a", "b")],
    )


@pytest.mark.slow
@pytest.mark.parametrize("cell,sharing", READINGS)
def test_compiled_with_unknown_batch_and_lengths(cell, sharing):
    # model.fit traces with (None, None, e) inputs: the scan and the reversals must not
    # need any static size, and one trace picks the scan axis per batch at run time.
    layer = CoupledLSTM(UNITS, cell=cell, num_layers=2, **sharing)
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


@pytest.mark.parametrize("cell,sharing", READINGS)
def test_gradients_match_along_either_axis(cell, sharing):
    # The two scan axes are the same function: forcing the other one changes no gradient.
    x, y, mask_x, mask_y = _pair(seed=12, n=M, m=N)
    layer = CoupledLSTM(UNITS, cell=cell, num_layers=2, **sharing)
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


def _kernel_sizes(cell, **kwargs):
    """Kernel weights (no biases) of the first block and of each further block, e = 100,
    k = 50, four stacked four-directional blocks."""
    layer = CoupledLSTM(50, cell=cell, num_layers=4, **kwargs)
    layer.build([(None, None, 100), (None, None, 100)])
    sizes = {}
    for w in layer.weights:
        if "kernel" in w.path:
            block = w.path.split("/")[-1].split("_")[0]
            sizes[block] = sizes.get(block, 0) + int(np.prod(w.shape))
    return sizes["block1"], sizes["block2"]


@pytest.mark.parametrize(
    "cell,sharing,first,further",
    [
        # docs/clstm.md#parameter-counts (kernels only). The readings that reproduce Table 2:
        # TC (2e + 2k) 5k = 75,000 then (k + 2k) 5k = 37,500; LC with one weight set for its
        # LSTM pair (e + 2k) 4k = 40,000 then (k + 2k) 4k = 30,000.
        ("tight", {}, 75_000, 37_500),
        ("loose", SHARED_PAIR, 40_000, 30_000),
        # The text's LC, two separated LSTMs (the default): twice that.
        ("loose", {}, 80_000, 60_000),
        # One weight set per direction: four times the shared block.
        ("tight", OWN_DIRECTIONS, 300_000, 150_000),
        ("loose", OWN_DIRECTIONS, 320_000, 240_000),
        ("loose", {**SHARED_PAIR, **OWN_DIRECTIONS}, 160_000, 120_000),
    ],
)
def test_parameter_shapes_of_each_reading(cell, sharing, first, further):
    assert _kernel_sizes(cell, **sharing) == (first, further)


def test_weights_are_named_by_stream_and_direction():
    layer = CoupledLSTM(2, cell="loose", directions=[1, 3], share_directions=False)
    layer.build([(None, None, 3), (None, None, 3)])
    names = {w.path.split("/")[-1] for w in layer.weights}
    assert "block1_direction3_lstm2_recurrent_kernel" in names and len(names) == 2 * 2 * 3
    config = layer.get_config()
    assert config["share_streams"] is False and config["share_directions"] is False
    assert CoupledLSTM.from_config(config).direction_sets == 2


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
    with pytest.raises(ValueError, match="share_streams applies to LC"):
        CoupledLSTM(4, cell="tight", share_streams=True)


@pytest.mark.parametrize("n,m", SHAPES)
@pytest.mark.parametrize("cell", ["tight", "loose"])
def test_matches_numpy_double_loop_when_the_sentences_widths_differ(cell, n, m):
    # The input kernels split at x's width: unequal widths catch a wrong split (LC with one
    # shared LSTM pair needs equal widths and refuses others).
    x, y, mask_x, mask_y = _pair(seed=5, n=n, m=m)
    y = np.concatenate([y, y[..., :2]], axis=-1)
    layer = CoupledLSTM(UNITS, cell=cell, directions=[1, 2, 3, 4])
    got = np.asarray(layer([x, y], mask=[mask_x, mask_y]))
    np.testing.assert_allclose(got, np_coupled_lstm(layer, x, y, mask_x, mask_y), atol=1e-5)


@pytest.mark.slow
@pytest.mark.parametrize("cell,sharing", READINGS)
@pytest.mark.parametrize("compiled", [False, True])
def test_rematerialized_blocks_give_the_same_outputs_and_gradients(cell, sharing, compiled):
    # Rematerialization trades memory for time only: recomputing each block's scan in the
    # backward pass must reproduce the kept-activation gradients, padding included.
    x, y, mask_x, mask_y = _pair(seed=13)
    results, weights, scans = [], None, []
    for rematerialize in (False, True):
        layer = CoupledLSTM(UNITS, cell=cell, num_layers=2, rematerialize=rematerialize, **sharing)
        layer([x, y], mask=[mask_x, mask_y])
        if weights is None:
            weights = layer.get_weights()
        else:
            layer.set_weights(weights)
        calls = []
        scan = functools.partial(type(layer)._scan, layer)
        layer._scan = lambda *args, scan=scan, calls=calls: calls.append(1) or scan(*args)
        scans.append(calls)

        def loss_and_grads(a, b, ma, mb, layer=layer):
            with tf.GradientTape() as tape:
                tape.watch([a, b])
                loss = tf.reduce_sum(layer([a, b], mask=[ma, mb]) ** 2)
            return loss, tape.gradient(loss, [a, b] + layer.trainable_weights)

        run = tf.function(loss_and_grads) if compiled else loss_and_grads
        results.append(run(*(tf.constant(t) for t in (x, y, mask_x, mask_y))))
    (loss, grads), (remat_loss, remat_grads) = results
    np.testing.assert_allclose(np.asarray(remat_loss), np.asarray(loss), rtol=1e-6)
    assert len(remat_grads) == len(grads)
    for kept, recomputed in zip(grads, remat_grads):
        np.testing.assert_allclose(np.asarray(recomputed), np.asarray(kept), rtol=1e-5, atol=1e-7)
    # Each block's scan runs once more, in the backward pass, when rematerialized.
    assert (len(scans[0]), len(scans[1])) == (2, 4)
    assert CoupledLSTM.from_config(layer.get_config()).rematerialize


# Every reading of the weight sharing: TC with shared or own directions; LC with two LSTMs or
# one shared pair, each with shared or own directions.
EVERY_READING = [
    (cell, {**pair, **directions})
    for cell, pairs in (("tight", [{}]), ("loose", [{}, SHARED_PAIR]))
    for pair in pairs
    for directions in ({}, OWN_DIRECTIONS)
]
# Calls the layer directly (eagerly, outside any compiled function), where JAX's own ops see
# the weights, and under `jax.jit` (as `fit` compiles it), where every bound of an `arange`
# must be a Python int, under the JAX backend, which is fixed when Keras is first imported.
JAX_DIRECT_CALLS = """
import json, sys
import jax
import numpy as np
sys.path[:0] = sys.argv[1:]
import keras
import test_coupled_lstm as t
assert keras.backend.backend() == "jax"
x, y, mask_x, mask_y = t._pair(seed=3)
errors = []
for cell, sharing in t.EVERY_READING:
    layer = t.CoupledLSTM(t.UNITS, cell=cell, **sharing)
    eager = np.asarray(layer([x, y], mask=[mask_x, mask_y]))
    weights = [v.value for v in layer.trainable_variables]
    compiled = jax.jit(
        lambda w, a, b, m_a, m_b: layer.stateless_call(w, [], [a, b], mask=[m_a, m_b])[0]
    )(weights, x, y, mask_x, mask_y)
    want = t.np_coupled_lstm(layer, x, y, mask_x, mask_y)
    error = max(float(np.max(np.abs(got - want))) for got in (eager, np.asarray(compiled)))
    errors.append([cell, sharing, error])
print(json.dumps(errors))
"""


@pytest.mark.slow
def test_direct_and_compiled_calls_under_jax_match_numpy_for_every_reading():
    here = pathlib.Path(__file__).resolve().parent
    process = subprocess.run(
        [sys.executable, "-c", JAX_DIRECT_CALLS, str(here), str(here.parent)],
        capture_output=True,
        text=True,
        env=subprocess_env(KERAS_BACKEND="jax"),
        timeout=600,
        check=False,
    )
    assert process.returncode == 0, process.stderr[-3000:]
    errors = json.loads(process.stdout.strip().splitlines()[-1])
    assert [[cell, sharing] for cell, sharing, _ in errors] == [list(r) for r in EVERY_READING]
    assert all(error < 1e-5 for *_, error in errors), errors
