"""InternalAttentionPooling (Adel & Schütze 2017's internal attention): harness and NumPy."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_masked_softmax, to_numpy

from gcnn_match.layers.internal_attention_pooling import InternalAttentionPooling

B, L, D = 4, 6, 5


def np_internal_attention_pooling(layer, h, mask):
    """e_i = v · h_i, α = softmax over the real positions, a = Σ_i α_i h_i, a / ||a||_2."""
    h = h.astype("float64")
    alpha = np_masked_softmax(h @ to_numpy(layer.score_vector)[:, 0], mask, axis=1)
    pooled = np.einsum("bl,bld->bd", alpha, h)
    if not layer.normalize:
        return pooled
    return pooled / np.linalg.norm(pooled, axis=-1, keepdims=True)


@pytest.mark.parametrize("normalize", [True, False])
def test_harness_and_numpy(normalize):
    h, mask = random_inputs(np.random.default_rng(0), B, L, D)
    result = run_layer_test(
        lambda: InternalAttentionPooling(normalize=normalize),
        args=[Seq(h)],
        kwargs={"mask": Mask(mask)},
        output_axes=[()],
    )
    layer = result["layer"]
    assert layer.count_params() == D  # v only
    np.testing.assert_allclose(
        result["outputs"][0], np_internal_attention_pooling(layer, h, mask), rtol=1e-5, atol=1e-5
    )
    if normalize:
        np.testing.assert_allclose(np.linalg.norm(result["outputs"][0], axis=-1), 1.0, rtol=1e-5)


def test_the_highest_scoring_state_dominates_and_an_empty_row_pools_to_zero():
    layer = InternalAttentionPooling(normalize=False, kernel_initializer="ones")
    h = np.zeros((2, 3, 2), "float32")
    h[:, 1] = [10.0, 10.0]  # scores 0, 20, 0 with v = 1
    mask = np.array([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], "float32")
    out = np.asarray(layer(h, mask=mask))
    np.testing.assert_allclose(out[0], [10.0, 10.0], rtol=1e-6)
    np.testing.assert_array_equal(out[1], 0.0)
    normalized = np.asarray(InternalAttentionPooling()(h, mask=mask))
    assert np.all(np.isfinite(normalized)) and np.all(normalized[1] == 0.0)
