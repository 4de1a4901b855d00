"""AttentivePooling (APCNN, dos Santos et al. 2016): harness checks and NumPy."""

import numpy as np
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_masked_softmax, to_numpy

from gcnn_match.layers.attentive_pooling import AttentivePooling

B, LQ, LA, D = 3, 5, 4, 6


def np_attentive_pooling(layer, q, a, mask_q, mask_a):
    q = q * mask_q[..., None]
    a = a * mask_a[..., None]
    match = np.tanh(np.einsum("bid,de,bje->bij", q, to_numpy(layer.kernel), a))
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
        lambda: AttentivePooling(return_attention=True),
        args=[[Seq(q, "q"), Seq(a, "a")]],
        kwargs={"mask": [Mask(mask_q, "q"), Mask(mask_a, "a")]},
        output_axes=[(), (), ("q",), ("a",)],
    )
    want = np_attentive_pooling(result["layer"], q, a, mask_q, mask_a)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    assert result["layer"].count_params() == D * D
