"""CharComposition (GCNN Sec. 2.3, Eq. 9): harness checks, char-axis padding, NumPy."""

import keras
import numpy as np
import pytest
import tensorflow as tf
from harness import Mask, Seq, run_layer_test, trainable_gradients
from references import np_gcnn, to_numpy

from gcnn_match.layers.char_composition import CharComposition

B, L, W, VOCAB, DIM, UNITS = 3, 5, 4, 12, 6, 8


def _chars(seed=0):
    """Char ids (B, L, W) with words of 1..W real characters, right-padded sentences."""
    rng = np.random.default_rng(seed)
    ids = rng.integers(1, VOCAB, size=(B, L, W)).astype("int32")
    word_lengths = rng.integers(1, W + 1, size=(B, L))
    ids *= (np.arange(W) < word_lengths[..., None]).astype("int32")
    sentence_lengths = np.array([L, 3, 1])
    mask = (np.arange(L)[None, :] < sentence_lengths[:, None]).astype("float32")
    ids *= mask[..., None].astype("int32")
    return ids, mask


def _layer(**kwargs):
    return CharComposition(VOCAB, char_dim=DIM, units=UNITS, **kwargs)


def np_char_composition(layer, word_ids):
    """Eq. 9 for one word (W,) in NumPy: embed, two GCNN layers carrying C, max over chars."""
    real = word_ids != 0
    table = to_numpy(layer.char_embedding.embeddings)
    x = table[word_ids][None]  # (1, W, char_dim)
    char_mask = real[None].astype("float64")
    hidden, memory = x, None
    for gcnn in layer.encoder.conv_layers:
        hidden, memory = np_gcnn(gcnn, hidden, char_mask, memory)
    return hidden[0][real].max(axis=0)


def test_harness_and_numpy():
    ids, mask = _chars()
    result = run_layer_test(
        _layer,
        args=[Seq(ids)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    layer, out = result["layer"], result["outputs"][0]
    assert out.shape == (B, L, UNITS)
    for b, i in [(0, 0), (0, 4), (1, 2)]:
        np.testing.assert_allclose(
            out[b, i], np_char_composition(layer, ids[b, i]), rtol=1e-5, atol=1e-5
        )
    # Padding words (all ids 0) give zeros.
    assert np.all(out[mask == 0] == 0)


def test_char_embedding_receives_gradient():
    # The harness sees that the table gets a gradient; here, which rows get one.
    ids, mask = _chars(1)
    layer = _layer()
    layer(ids, mask=mask)
    grads = trainable_gradients(layer, lambda: keras.ops.sum(layer(ids, mask=mask) ** 2))
    by_path = dict(zip([w.path for w in layer.trainable_weights], grads))
    grad = by_path[layer.char_embedding.embeddings.path]
    used = np.unique(ids[ids > 0])
    assert np.all(np.abs(grad[used]).sum(-1) > 0)
    assert np.all(grad[0] == 0)  # padding characters are zeroed before every convolution


def test_padding_characters_and_padding_words_change_nothing():
    ids, mask = _chars(2)
    layer = _layer()
    out = np.asarray(layer(ids, mask=mask))
    # More padding characters per word, and more padding words per sentence (ids 0, and
    # words whose garbage ids are masked out by `mask`).
    wider = np.pad(ids, [(0, 0), (0, 0), (0, 3)])
    np.testing.assert_allclose(np.asarray(layer(wider, mask=mask)), out, rtol=1e-6, atol=1e-6)
    longer = np.pad(wider, [(0, 0), (0, 2), (0, 0)])
    longer_mask = np.pad(mask, [(0, 0), (0, 2)])
    longer[:, L:, :2] = 7  # garbage characters in padded words
    got = np.asarray(layer(longer, mask=longer_mask))
    np.testing.assert_allclose(got[:, :L], out, rtol=1e-6, atol=1e-6)
    assert np.all(got[:, L:] == 0)
    # Without a word mask, all-padding words still give zeros.
    no_mask = np.asarray(layer(np.pad(ids, [(0, 0), (0, 2), (0, 3)])))
    np.testing.assert_allclose(no_mask[:, :L], out, rtol=1e-6, atol=1e-6)
    assert np.all(no_mask[:, L:] == 0)


@pytest.mark.slow
def test_unknown_batch_length_and_char_axes_compile_with_xla():
    layer = _layer()
    layer(*_chars(3)[:1])
    fn = tf.function(
        lambda x, m: layer(x, mask=m),
        jit_compile=True,
        reduce_retracing=True,
        input_signature=[
            tf.TensorSpec((None, None, None), tf.int32),
            tf.TensorSpec((None, None), tf.float32),
        ],
    )
    for seed, width in [(3, W), (4, W + 2)]:
        ids, mask = _chars(seed)
        ids = np.pad(ids, [(0, 0), (0, 0), (0, width - W)])
        np.testing.assert_allclose(
            fn(ids, mask).numpy(), np.asarray(layer(ids, mask=mask)), rtol=1e-5, atol=1e-5
        )


def test_paper_parameter_count():
    # Sec. 3.2: 40-d characters, 2-layer GCNN, 100 feature maps; kernel 3 [U→S].
    # Embedding |chars| * 40. GCNN layer 1 (40 -> 100): 3 gate convs 3*40*100 + 3 biases 100
    # + projection P 40*100 = 36,000 + 300 + 4,000 = 40,300. Layer 2 (100 -> 100):
    # 3*(3*100*100) + 300 = 90,300. Char GCNN total 130,600.
    layer = CharComposition(char_vocab_size=80)
    layer.build((None, None, 16))
    assert layer.encoder.count_params() == 40_300 + 90_300
    assert layer.count_params() == 80 * 40 + 130_600
    assert keras.ops.shape(layer(np.ones((1, 2, 16), "int32"))) == (1, 2, 100)
