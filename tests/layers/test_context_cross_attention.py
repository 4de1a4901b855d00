"""ContextCrossAttention (COIN Eq. 4, 2, 3; Eq. 1 without context)."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_masked_softmax, np_self_alignment, to_numpy

from gcnn_match.layers.context_cross_attention import ContextCrossAttention

B, LA, LB, D, UNITS = 3, 6, 4, 5, 4


def np_cross_attention(layer, a, b, mask_a, mask_b):
    """Q = F1(H + C) (or F1(H) without context), E = Q_a Q_bᵀ, values are H."""
    a = a.astype("float64") * mask_a[..., None]
    b = b.astype("float64") * mask_b[..., None]

    def queries(h, mask):
        if layer.use_context:
            h = h + np_self_alignment(to_numpy(layer.context.projection.kernel), h, mask)
        dense = layer.feed_forward
        return np.maximum(h @ to_numpy(dense.kernel) + to_numpy(dense.bias), 0.0)

    e = np.einsum("bik,bjk->bij", queries(a, mask_a), queries(b, mask_b))
    w_a = np_masked_softmax(e, mask_b[:, None, :], axis=2) * mask_a[:, :, None]
    w_b = np_masked_softmax(e, mask_a[:, :, None], axis=1) * mask_b[:, None, :]
    w_b = np.transpose(w_b, (0, 2, 1))
    return w_a @ b, w_b @ a, w_a, w_b


def _pair(seed=0):
    rng = np.random.default_rng(seed)
    a, mask_a = random_inputs(rng, B, LA, D)
    b, mask_b = random_inputs(rng, B, LB, D)
    return a, b, mask_a, mask_b


@pytest.mark.parametrize("use_context", [True, False])
@pytest.mark.parametrize("return_attention", [False, True])
def test_harness_and_numpy(use_context, return_attention):
    a, b, mask_a, mask_b = _pair()
    axes = [("a",), ("b",)] + ([("a", "b"), ("b", "a")] if return_attention else [])
    result = run_layer_test(
        lambda: ContextCrossAttention(
            UNITS,
            context_units=3,
            use_context=use_context,
            dropout=0.2,
            return_attention=return_attention,
        ),
        args=[[Seq(a, "a"), Seq(b, "b")]],
        kwargs={"mask": [Mask(mask_a, "a"), Mask(mask_b, "b")]},
        output_axes=axes,
    )
    layer = result["layer"]
    want = np_cross_attention(layer, a, b, mask_a, mask_b)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    # F1 (D -> UNITS, bias) plus, with context, W_c (D -> 3, no bias).
    assert layer.count_params() == D * UNITS + UNITS + (D * 3 if use_context else 0)


def test_context_changes_the_attention_not_the_values():
    a, b, mask_a, mask_b = _pair(seed=1)
    layer = ContextCrossAttention(UNITS, return_attention=True)
    aligned_a, _, w_a, w_b = (np.asarray(o) for o in layer([a, b], mask=[mask_a, mask_b]))
    np.testing.assert_allclose(w_a.sum(-1), mask_a, atol=1e-5)
    np.testing.assert_allclose(w_b.sum(-1), mask_b, atol=1e-5)
    # Aligned values are convex combinations of H_b itself (Eq. 3), not of H_b + C_b.
    np.testing.assert_allclose(aligned_a, w_a @ (b * mask_b[..., None]), rtol=1e-5, atol=1e-5)
    plain = ContextCrossAttention(UNITS, use_context=False, return_attention=True)
    plain([a, b], mask=[mask_a, mask_b])
    plain.feed_forward.set_weights(layer.feed_forward.get_weights())
    w_plain = np.asarray(plain([a, b], mask=[mask_a, mask_b])[2])
    assert not np.allclose(w_plain, w_a)


def test_all_padding_keys_give_zeros_not_nan():
    a, b, mask_a, mask_b = _pair(seed=2)
    mask_b[1] = 0.0
    outputs = [
        np.asarray(o)
        for o in ContextCrossAttention(UNITS, return_attention=True)([a, b], mask=[mask_a, mask_b])
    ]
    for out in outputs:
        assert np.all(np.isfinite(out))
        np.testing.assert_array_equal(out[1], 0.0)
