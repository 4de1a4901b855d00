"""ABCNNPooling (ATTCONV's ABCNN baseline): harness checks and NumPy."""

import numpy as np
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_masked_softmax

from gcnn_match.layers.abcnn_pooling import ABCNNPooling

B, LQ, LA, D = 3, 5, 4, 6


def np_abcnn_pooling(q, a, mask_q, mask_a):
    """M = Q A^T, row / column maxima over the other text's real positions, softmax, sums."""
    q = q.astype("float64") * mask_q[..., None]
    a = a.astype("float64") * mask_a[..., None]
    match = np.einsum("bid,bjd->bij", q, a)
    score_q = np.where(mask_a[:, None, :] > 0, match, -np.inf).max(-1)
    score_a = np.where(mask_q[:, :, None] > 0, match, -np.inf).max(1)
    weights_q = np_masked_softmax(np.where(mask_q > 0, score_q, 0.0), mask_q)
    weights_a = np_masked_softmax(np.where(mask_a > 0, score_a, 0.0), mask_a)
    return (
        np.einsum("bi,bid->bd", weights_q, q),
        np.einsum("bj,bjd->bd", weights_a, a),
        weights_q,
        weights_a,
    )


def test_harness_and_numpy():
    rng = np.random.default_rng(0)
    q, mask_q = random_inputs(rng, B, LQ, D)
    a, mask_a = random_inputs(rng, B, LA, D)
    result = run_layer_test(
        lambda: ABCNNPooling(return_attention=True),
        args=[[Seq(q, "q"), Seq(a, "a")]],
        kwargs={"mask": [Mask(mask_q, "q"), Mask(mask_a, "a")]},
        output_axes=[(), (), ("q",), ("a",)],
    )
    want = np_abcnn_pooling(q, a, mask_q, mask_a)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    assert result["layer"].count_params() == 0  # the attention adds no weights


def test_the_best_matching_state_gets_the_most_weight():
    """A state of q equal to a state of a scores |a_j|^2 against it, above every other state."""
    a = np.array([[[3.0, 0.0], [0.0, 1.0]]], "float32")
    q = np.array([[[0.0, 0.5], [3.0, 0.0], [0.5, 0.5]]], "float32")
    _, _, weights_q, _ = ABCNNPooling(return_attention=True)([q, a])
    assert int(np.argmax(np.asarray(weights_q)[0])) == 1
