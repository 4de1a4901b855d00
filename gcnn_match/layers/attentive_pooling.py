"""Attentive pooling of two sequences (APCNN, dos Santos et al. 2016), ATTCONV's foil."""

import keras
from keras import ops

from gcnn_match.layers.masking import (
    ExplicitMaskLayer,
    apply_mask,
    masked_max,
    masked_softmax,
    unpack_pair_mask,
)


@keras.saving.register_keras_serializable(package="gcnn_match")
class AttentivePooling(ExplicitMaskLayer):
    """Pools each of two sequences by weights that come from matching it with the other.

    With Q (B, L_q, d) and A (B, L_a, d), usually the outputs of one shared convolution:

    ```
    G     = tanh(Q U A^T)                 (B, L_q, L_a), U in R^{d x d}
    g^q_i = max_j G_ij      g^a_j = max_i G_ij
    r_q   = sum_i softmax(g^q)_i Q_i      r_a = sum_j softmax(g^a)_j A_j
    ```

    This is the "attentive pooling" ATTCONV is compared against (Yin & Schütze 2018,
    Sec. 2.2, Fig. 3): attention only re-weights the pooling, the convolution is untouched.
    With d = 300, U has 90K weights, so a width-3 CNN (270K) plus this layer is Table 7's
    360K for APCNN.

    Args:
        return_attention: also return the two pooling weight vectors.
        kernel_initializer: initializer of U.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[q, a]`, float tensors (B, L_q, d) and (B, L_a, d).
        mask: optional list `[mask_q, mask_a]`, float (B, L_q) and (B, L_a).

    Returns:
        `(r_q, r_a)`, each (B, d); with `return_attention=True` also the weights (B, L_q)
        and (B, L_a).

    Masking:
        The row and column maxima run over real positions only, and the softmax gives
        padded positions zero weight (all-padding rows give zeros), so padding never
        changes the pooled vectors.

    Example:

    >>> q, a = keras.random.normal((2, 5, 8)), keras.random.normal((2, 7, 8))
    >>> r_q, r_a = AttentivePooling()([q, a])
    >>> tuple(r_q.shape), tuple(r_a.shape)
    ((2, 8), (2, 8))

    References:
        dos Santos, Tan, Xiang and Zhou, "Attentive Pooling Networks", arXiv:1602.03609,
        2016, Sec. 3; Yin and Schütze, TACL 2018, Sec. 2.2 and Table 7.
    """

    def __init__(self, return_attention=False, kernel_initializer="glorot_uniform", **kwargs):
        super().__init__(**kwargs)
        self.return_attention = bool(return_attention)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)

    def build(self, inputs_shape):
        q_shape, a_shape = inputs_shape
        self.kernel = self.add_weight(
            shape=(q_shape[-1], a_shape[-1]), name="kernel", initializer=self.kernel_initializer
        )

    def call(self, inputs, mask=None):
        q, a = inputs
        mask_q, mask_a = unpack_pair_mask(mask)
        q = apply_mask(q, mask_q)
        a = apply_mask(a, mask_a)
        match = ops.tanh(ops.matmul(ops.matmul(q, self.kernel), ops.transpose(a, (0, 2, 1))))
        return pool_by_match(q, a, match, mask_q, mask_a, self.return_attention)

    def compute_output_shape(self, inputs_shape):
        return pooled_shapes(inputs_shape, self.return_attention)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "return_attention": self.return_attention,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
            }
        )
        return config


def pool_by_match(q, a, match, mask_q, mask_a, return_attention=False):
    """The pooling of attentive pooling from a match matrix (B, L_q, L_a) of masked q and a:
    softmax over each side's row or column maxima, then the weighted sums, padding given no
    weight; with `return_attention`, the two weight vectors too."""
    # Row maxima over the real columns of a, column maxima over the real rows of q.
    score_q = masked_max(ops.transpose(match, (0, 2, 1)), mask_a, axis=1)
    score_a = masked_max(match, mask_q, axis=1)
    weights_q = ops.cast(masked_softmax(score_q, mask_q, axis=-1), q.dtype)
    weights_a = ops.cast(masked_softmax(score_a, mask_a, axis=-1), a.dtype)
    pooled_q = ops.sum(q * ops.expand_dims(weights_q, -1), axis=1)
    pooled_a = ops.sum(a * ops.expand_dims(weights_a, -1), axis=1)
    if return_attention:
        return pooled_q, pooled_a, weights_q, weights_a
    return pooled_q, pooled_a


def pooled_shapes(inputs_shape, return_attention=False):
    """The output shapes of `pool_by_match` for inputs of shapes [(B, L_q, d), (B, L_a, d)]."""
    q_shape, a_shape = (tuple(s) for s in inputs_shape)
    pooled = ((q_shape[0], q_shape[-1]), (a_shape[0], a_shape[-1]))
    if return_attention:
        return pooled + (q_shape[:2], a_shape[:2])
    return pooled
