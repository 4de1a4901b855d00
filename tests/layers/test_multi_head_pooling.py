"""MultiHeadPooling (COIN Eq. 13-15)."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_masked_softmax

from gcnn_match.layers.multi_head_pooling import MultiHeadPooling

B, L, D, HEADS = 3, 6, 6, 3


def np_multi_head_pooling(layer, v, mask):
    """Per head z: s^z = softmax_i(V W_a^zᵀ), Ṽ^z = V W_v^zᵀ, V̂^z = Σ_i s^z_i ṽ^z_i."""
    v = v.astype("float64") * mask[..., None]
    w_a = np.asarray(layer.score_kernel, "float64")  # column z = W_a^z
    w_v = np.asarray(layer.value_kernel, "float64")  # columns of head z = W_v^zᵀ
    head_dim = D // HEADS
    pooled = []
    for z in range(HEADS):
        s = np_masked_softmax(v @ w_a[:, z], mask, axis=1)  # (B, L)
        values = v @ w_v[:, z * head_dim : (z + 1) * head_dim]  # (B, L, d_h)
        pooled.append(np.einsum("bl,blk->bk", s, values))
    return np.concatenate(pooled, axis=-1)


def test_harness_and_numpy():
    x, mask = random_inputs(np.random.default_rng(0), B, L, D)
    result = run_layer_test(
        lambda: MultiHeadPooling(HEADS),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[()],
    )
    layer = result["layer"]
    assert layer.count_params() == D * HEADS + D * D  # no biases (Eq. 13-14)
    np.testing.assert_allclose(
        result["outputs"][0], np_multi_head_pooling(layer, x, mask), rtol=1e-5, atol=1e-5
    )


def test_all_padding_row_and_width_check():
    x, mask = random_inputs(np.random.default_rng(1), B, L, D)
    mask[1] = 0.0
    out = np.asarray(MultiHeadPooling(HEADS)(x, mask=mask))
    assert np.all(np.isfinite(out))
    np.testing.assert_array_equal(out[1], 0.0)
    with pytest.raises(ValueError, match="divisible"):
        MultiHeadPooling(4)(x, mask=mask)
