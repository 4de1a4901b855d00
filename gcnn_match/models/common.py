"""Pieces every sentence-pair model shares: id inputs, masks, the word embedding."""

import keras

from gcnn_match.layers.masking import sequence_mask
from gcnn_match.layers.partly_trainable_embedding import PartlyTrainableEmbedding


def pair_inputs(inputs):
    """Symbolic inputs for one pair, keyed like the pipeline's features."""
    spec = {"a_ids": (None,), "b_ids": (None,)}
    if inputs.char_vocab_size:
        spec.update(a_chars=(None, inputs.max_chars), b_chars=(None, inputs.max_chars))
    if inputs.pos_vocab_size:
        spec.update(a_pos=(None,), b_pos=(None,))
    if inputs.segments:
        spec.update(a_segments=(None,))
    return {name: keras.Input(shape, dtype="int32", name=name) for name, shape in spec.items()}


def masks(features):
    """Float masks (B, L) of both sides, 1 on real tokens."""
    return sequence_mask(features["a_ids"]), sequence_mask(features["b_ids"])


def word_embedding(inputs, name="word_embedding"):
    """The word embedding, initialised from pretrained rows when the run has them; fixed
    vectors with trainable padded columns (`inputs.trainable_padding`) are a
    `PartlyTrainableEmbedding`."""
    if inputs.embedding_matrix is not None:
        initializer = keras.initializers.Constant(inputs.embedding_matrix)
    else:
        initializer = keras.initializers.RandomNormal(stddev=0.01)
    if inputs.trainable_padding and not inputs.embeddings_trainable:
        return PartlyTrainableEmbedding(
            inputs.vocab_size,
            inputs.word_dim,
            inputs.trainable_padding,
            embeddings_initializer=initializer,
            name=name,
        )
    return keras.layers.Embedding(
        inputs.vocab_size,
        inputs.word_dim,
        embeddings_initializer=initializer,
        trainable=inputs.embeddings_trainable,
        name=name,
    )
