"""IntraSentenceAttention (Parikh et al. 2016, §3.4): harness, NumPy, distance buckets."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_masked_softmax, to_numpy

from gcnn_match.layers import IntraSentenceAttention

B, L, K, D = 3, 7, 4, 5


def np_intra_sentence_attention(layer, keys, values, mask):
    """f_ij = k_i . k_j + d(i - j), softmax over the real j, a'_i = sum_j w_ij v_j."""
    keys = keys.astype("float64") * mask[..., None]
    values = values.astype("float64") * mask[..., None]
    bias = to_numpy(layer.distance_bias)
    offsets = np.arange(L)[:, None] - np.arange(L)[None, :]
    shared = layer.max_distance + 1
    buckets = (
        np.clip(offsets, -shared, shared) + shared
        if layer.signed_distance
        else np.minimum(np.abs(offsets), shared)
    )
    scores = np.einsum("bik,bjk->bij", keys, keys) + bias[buckets][None]
    weights = np_masked_softmax(scores, mask[:, None, :], axis=2)
    return np.einsum("bij,bjd->bid", weights, values) * mask[..., None]


def _inputs(seed=0):
    rng = np.random.default_rng(seed)
    keys, mask = random_inputs(rng, B, L, K)
    values = rng.normal(size=(B, L, D)).astype("float32")
    return keys, values, mask


@pytest.mark.parametrize("signed_distance", [True, False])
def test_harness_and_numpy(signed_distance):
    keys, values, mask = _inputs()
    result = run_layer_test(
        lambda: IntraSentenceAttention(max_distance=2, signed_distance=signed_distance),
        args=[[Seq(keys), Seq(values)]],
        kwargs={"mask": Mask(mask)},
    )
    layer = result["layer"]
    assert layer.count_params() == (7 if signed_distance else 4)
    # Trained biases, so that the reference checks the buckets and not only the dot products.
    layer.distance_bias.assign(np.linspace(-1.0, 1.0, layer.count_params()).astype("float32"))
    got = np.asarray(layer([keys, values], mask=mask))
    want = np_intra_sentence_attention(layer, keys, values, mask)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_distances_past_the_cap_share_a_bucket_and_the_sign_counts():
    """With zero keys only the biases score: position 0 weighs position j by bias[d(0 - j)].
    Distances up to the cap (2) have their own bucket; every greater one shares one."""
    layer = IntraSentenceAttention(max_distance=2)
    keys = np.zeros((1, 6, 2), "float32")
    values = np.eye(6, dtype="float32")[None]  # a'_i is row i of the weights
    layer([keys, values])
    # d(< -2), d(-2), d(-1), d(0), d(1), d(2), d(> 2)
    layer.distance_bias.assign(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], "float32"))
    weights = np.asarray(layer([keys, values]))[0]
    # Row 0 sees offsets 0, -1, -2, -3, -4, -5: biases 4, 3, 2, 1, 1, 1.
    np.testing.assert_allclose(
        weights[0], np_masked_softmax(np.array([4.0, 3, 2, 1, 1, 1])), rtol=1e-6
    )
    # Row 5 sees offsets 5, 4, 3, 2, 1, 0: biases 7, 7, 7, 6, 5, 4.
    np.testing.assert_allclose(
        weights[5], np_masked_softmax(np.array([7.0, 7, 7, 6, 5, 4])), rtol=1e-6
    )


def test_all_padding_rows_give_zeros_not_nan():
    keys, values, mask = _inputs(seed=1)
    mask[2] = 0.0
    out = np.asarray(IntraSentenceAttention()([keys, values], mask=mask))
    assert np.all(np.isfinite(out))
    np.testing.assert_array_equal(out[2], 0.0)


def test_a_negative_cap_is_refused():
    with pytest.raises(ValueError, match="max_distance must be >= 0"):
        IntraSentenceAttention(max_distance=-1)
