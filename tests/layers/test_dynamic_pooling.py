"""DynamicPooling (Liu et al. 2016 §4.3): harness checks and a NumPy re-computation."""

import numpy as np
import pytest
from harness import Mask, Seq, run_layer_test

from gcnn_match.layers.dynamic_pooling import DynamicPooling

B, N, M, D = 4, 5, 6, 3


def _grid(seed=0):
    rng = np.random.default_rng(seed)
    grid = rng.normal(size=(B, N, M, D)).astype("float32")
    len_x, len_y = np.array([5, 3, 1, 4]), np.array([6, 2, 1, 5])
    mask_x = (np.arange(N)[None] < len_x[:, None]).astype("float32")
    mask_y = (np.arange(M)[None] < len_y[:, None]).astype("float32")
    return grid, mask_x, mask_y


def _np_bounds(length, regions):
    """Region r: rows floor(r n / R) .. floor((r + 1) n / R) - 1, at least one row."""
    out = []
    for r in range(regions):
        start = (r * length) // regions
        end = max(((r + 1) * length) // regions, start + 1)
        out.append((start, min(end, length)))
    return out


def np_dynamic_pooling(grid, mask_x, mask_y, p, q):
    out = np.zeros((grid.shape[0], p, q, grid.shape[-1]))
    for b in range(grid.shape[0]):
        n, m = int(mask_x[b].sum()), int(mask_y[b].sum())
        for r, (r0, r1) in enumerate(_np_bounds(n, p)):
            for s, (s0, s1) in enumerate(_np_bounds(m, q)):
                out[b, r, s] = grid[b, r0:r1, s0:s1].max(axis=(0, 1))
    return out.reshape(grid.shape[0], -1)


@pytest.mark.parametrize("pool_size", [(1, 1), (2, 1), (2, 3), (3, 2)])
def test_matches_numpy(pool_size):
    grid, mask_x, mask_y = _grid()
    got = np.asarray(DynamicPooling(pool_size)(grid, mask=[mask_x, mask_y]))
    np.testing.assert_allclose(
        got, np_dynamic_pooling(grid, mask_x, mask_y, *pool_size), rtol=1e-6, atol=1e-6
    )


def test_bins_follow_the_true_length():
    # n = 5, p = 2: rows {0, 1} and {2, 3, 4}; n = 1 < p: the one row serves both regions.
    assert _np_bounds(5, 2) == [(0, 2), (2, 5)]
    assert _np_bounds(1, 2) == [(0, 1), (0, 1)]
    grid = np.zeros((1, 3, 2, 1), "float32")
    grid[0, :, 0, 0] = [1.0, 7.0, 5.0]  # row 2 is padding in the second example below
    mask_y = np.ones((1, 2), "float32")
    pooled = DynamicPooling((2, 1))(grid, mask=[np.array([[1, 1, 0]], "float32"), mask_y])
    np.testing.assert_array_equal(np.asarray(pooled), [[1.0, 7.0]])


@pytest.mark.parametrize("pool_size", [(1, 1), (2, 1)])
def test_harness(pool_size):
    grid, mask_x, mask_y = _grid(seed=1)
    run_layer_test(
        lambda: DynamicPooling(pool_size),
        args=[Seq(grid, "a")],
        # The harness pads axis 1 (sentence X); the column mask stays as it is.
        kwargs={"mask": [Mask(mask_x, "a"), mask_y]},
        output_axes=[()],
    )


def test_padding_on_both_axes_is_ignored():
    grid, mask_x, mask_y = _grid(seed=2)
    rng = np.random.default_rng(3)
    big = rng.normal(scale=100.0, size=(B, N + 2, M + 3, D)).astype("float32")
    big[:, :N, :M] = np.where(
        (mask_x[:, :, None] * mask_y[:, None, :])[..., None] > 0, grid, big[:, :N, :M]
    )
    layer = DynamicPooling((2, 1))
    small = layer(grid, mask=[mask_x, mask_y])
    padded = layer(big, mask=[np.pad(mask_x, ((0, 0), (0, 2))), np.pad(mask_y, ((0, 0), (0, 3)))])
    np.testing.assert_allclose(np.asarray(small), np.asarray(padded), rtol=1e-6)


def test_empty_sentence_gives_zeros():
    grid = np.ones((1, 2, 2, 2), "float32")
    out = DynamicPooling()(grid, mask=[np.zeros((1, 2), "float32"), np.ones((1, 2), "float32")])
    np.testing.assert_array_equal(np.asarray(out), np.zeros((1, 2)))
