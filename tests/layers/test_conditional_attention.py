"""ConditionalAttention (Rocktäschel et al. 2016; a C-LSTMs baseline): harness checks, a NumPy
re-computation of both forms, and tracing with an unknown sequence length."""

import numpy as np
import pytest
import tensorflow as tf
from harness import Mask, Seq, run_layer_test
from references import to_numpy

from gcnn_match.layers.conditional_attention import ConditionalAttention

B, N, M, K = 3, 5, 4, 6


def _inputs(seed=0):
    rng = np.random.default_rng(seed)
    premise = rng.normal(size=(B, N, K)).astype("float32")
    hypothesis = rng.normal(size=(B, M, K)).astype("float32")
    mask_p = (np.arange(N)[None] < np.array([5, 3, 1])[:, None]).astype("float32")
    mask_h = (np.arange(M)[None] < np.array([4, 2, 1])[:, None]).astype("float32")
    last = hypothesis[np.arange(B), mask_h.sum(1).astype(int) - 1]
    return premise, hypothesis, last, mask_p, mask_h


def np_conditional_attention(layer, premise, hypothesis, last, mask_p, mask_h):
    w = {name: to_numpy(v) for name, v in layer.matrices.items()}
    score = to_numpy(layer.score_vector)[:, 0]

    def attend(b, query):
        n = int(mask_p[b].sum())
        m = np.tanh(premise[b, :n] @ w["W_y"] + query)
        a = np.exp(m @ score - (m @ score).max())
        return (a / a.sum()) @ premise[b, :n]

    out = np.zeros((B, K))
    for b in range(B):
        if layer.word_by_word:
            r = np.zeros(K)
            for t in range(int(mask_h[b].sum())):
                r = attend(b, hypothesis[b, t] @ w["W_h"] + r @ w["W_r"]) + np.tanh(r @ w["W_t"])
        else:
            r = attend(b, last[b] @ w["W_h"])
        out[b] = np.tanh(r @ w["W_p"] + last[b] @ w["W_x"])
    return out


@pytest.mark.parametrize("word_by_word", [False, True])
def test_matches_numpy(word_by_word):
    premise, hypothesis, last, mask_p, mask_h = _inputs()
    layer = ConditionalAttention(K, word_by_word=word_by_word)
    got = np.asarray(layer([premise, hypothesis, last], mask=[mask_p, mask_h]))
    want = np_conditional_attention(layer, premise, hypothesis, last, mask_p, mask_h)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("word_by_word", [False, True])
def test_harness(word_by_word):
    premise, hypothesis, last, mask_p, mask_h = _inputs(seed=1)
    run_layer_test(
        lambda: ConditionalAttention(K, word_by_word=word_by_word),
        args=[[Seq(premise, "p"), Seq(hypothesis, "h"), last]],
        kwargs={"mask": [Mask(mask_p, "p"), Mask(mask_h, "h")]},
        output_axes=[()],
    )


def test_traces_with_an_unknown_length():
    # Length-bucketed batches reach the layer with a None time axis inside tf.function.
    premise, hypothesis, last, mask_p, mask_h = _inputs(seed=2)
    layer = ConditionalAttention(K, word_by_word=True)
    eager = np.asarray(layer([premise, hypothesis, last], mask=[mask_p, mask_h]))
    spec = [
        tf.TensorSpec((None, None, K)),
        tf.TensorSpec((None, None, K)),
        tf.TensorSpec((None, K)),
        tf.TensorSpec((None, None)),
        tf.TensorSpec((None, None)),
    ]

    @tf.function(input_signature=spec)
    def traced(p, h, hn, mp, mh):
        return layer([p, h, hn], mask=[mp, mh])

    np.testing.assert_allclose(
        traced(premise, hypothesis, last, mask_p, mask_h).numpy(), eager, rtol=1e-6, atol=1e-6
    )
