"""Attention-based pooling of two sequences as ATTCONV's ABCNN baseline computes it."""

import keras
from keras import ops

from gcnn_match.layers.attentive_pooling import pool_by_match, pooled_shapes
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask, unpack_pair_mask


@keras.saving.register_keras_serializable(package="gcnn_match")
class ABCNNPooling(ExplicitMaskLayer):
    """Pools each of two sequences by how well its states match the other sequence's states.

    With Q (B, L_q, d) and A (B, L_a, d), the outputs of one shared convolution:

    ```
    M     = Q A^T                         (B, L_q, L_a), M_ij = q_i · a_j
    g^q_i = max_j M_ij      g^a_j = max_i M_ij
    r_q   = sum_i softmax(g^q)_i Q_i      r_a = sum_j softmax(g^a)_j A_j
    ```

    ATTCONV's "attentive pooling, summarized from ABCNN (Yin et al., 2016) and APCNN"
    (Yin & Schütze 2018, §2.2, Figure 3 and Figure 6(b)): the attention re-weights the pooling
    after the convolution and leaves the convolution itself untouched. The matching scores are
    plain dot products of the two sequences' states, as in the function `ABCNN` of the
    authors' released code; `AttentivePooling` (APCNN) scores with tanh(Q U A^T) instead.
    The layer has no weights, so an ABCNN model has the weights of its convolution only
    (docs/attconv.md#abcnn).

    Args:
        return_attention: also return the two pooling weight vectors.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[q, a]`, float tensors (B, L_q, d) and (B, L_a, d).
        mask: optional list `[mask_q, mask_a]`, float (B, L_q) and (B, L_a), 1 on real
            tokens and 0 on padding.

    Returns:
        `(r_q, r_a)`, each (B, d); with `return_attention=True` also the weights (B, L_q)
        and (B, L_a).

    Masking:
        Explicit masks. Both inputs are zeroed at padding, the maxima run over the other
        sequence's real positions only and the softmax gives padded positions zero weight, so
        padding never changes the pooled vectors; a row whose sequence is all padding pools
        to zeros.

    Example:

    >>> q, a = keras.random.normal((2, 5, 8)), keras.random.normal((2, 7, 8))
    >>> r_q, r_a = ABCNNPooling()([q, a])
    >>> tuple(r_q.shape), tuple(r_a.shape)
    ((2, 8), (2, 8))

    References:
        Yin, Schütze, Xiang and Zhou, "ABCNN: Attention-Based Convolutional Neural Network for
        Modeling Sentence Pairs", TACL 2016 (attention in pooling, their ABCNN-2);
        Yin and Schütze, "Attentive Convolution", TACL 2018, §2.2, Figures 3 and 6(b);
        the function `ABCNN` of src/common_functions.py in yinwenpeng/Attentive_Convolution.
    """

    def __init__(self, return_attention=False, **kwargs):
        super().__init__(**kwargs)
        self.return_attention = bool(return_attention)

    def call(self, inputs, mask=None):
        q, a = inputs
        mask_q, mask_a = unpack_pair_mask(mask)
        q = apply_mask(q, mask_q)
        a = apply_mask(a, mask_a)
        match = ops.matmul(q, ops.transpose(a, (0, 2, 1)))
        return pool_by_match(q, a, match, mask_q, mask_a, self.return_attention)

    def compute_output_shape(self, inputs_shape):
        return pooled_shapes(inputs_shape, self.return_attention)

    def get_config(self):
        config = super().get_config()
        config.update({"return_attention": self.return_attention})
        return config
