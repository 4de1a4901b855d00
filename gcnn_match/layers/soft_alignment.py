"""Soft alignment and its comparison features (GCNN Eq. 5-7, ESIM Eq. 11-15).

`SoftAlignment` (unscaled dot-product cross attention both ways) and `MatchingFeatures`
([x; y; diff; x * y]) always appear together in the compare step, so they share a file.
"""

import keras
from keras import ops

from gcnn_match.layers.masking import (
    ExplicitMaskLayer,
    apply_mask,
    masked_softmax,
    unpack_pair_mask,
)


@keras.saving.register_keras_serializable(package="gcnn_match")
class SoftAlignment(ExplicitMaskLayer):
    """Aligns two sequences with each other by unscaled dot-product attention.

    ```
    e_ij    = a_i . b_j                                   (Eq. 5, no 1/sqrt(d) scaling)
    alpha_i = sum_j softmax_j(e_i.) b_j                   (Eq. 6)
    beta_j  = sum_i softmax_i(e_.j) a_i                   (Eq. 6)
    ```

    The same soft alignment is ESIM's local inference (Chen et al. 2017, Eq. 11-13). Given
    values too, the scores come from a and b and the weights average the values: the
    decomposable attention's attend step (Parikh et al. 2016, Eq. 1-2), whose scores are
    e_ij = F(a_i) . F(b_j) and whose averages are of the unmapped a and b. The layer has no
    weights.

    Args:
        return_attention: bool, also return the two attention weight matrices.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[a, b]`, float tensors (B, L_a, d) and (B, L_b, d), or
            `[a, b, values_a, values_b]` with values (B, L_a, d_a) and (B, L_b, d_b): a and
            b score, the values are averaged (without values, a and b are).
        mask: optional list `[mask_a, mask_b]`, float tensors (B, L_a) and (B, L_b), 1 on
            real tokens and 0 on padding.

    Returns:
        `(alpha, beta)`: alpha (B, L_a, d_b) aligns b (or values_b) to every position of a,
        beta (B, L_b, d_a) aligns a (or values_a) to every position of b. With
        `return_attention=True`, `(alpha, beta, alpha_weights, beta_weights)` where
        alpha_weights (B, L_a, L_b) is softmax_j(e_i.) (row i sums to 1 over the real j) and
        beta_weights (B, L_b, L_a) is softmax_i(e_.j) (row j sums to 1 over the real i).

    Masking:
        Explicit masks. All inputs are zeroed at padding, padded keys get a -1e9 logit
        (in float32) and exactly zero weight, so keys beyond the true length never receive
        attention. Outputs and weight rows at padded query positions are 0. A query whose
        keys are all padding gets zero weights and a zero vector, never NaN.

    Example:

    >>> a = keras.random.normal((2, 5, 8))
    >>> b = keras.random.normal((2, 3, 8))
    >>> alpha, beta = SoftAlignment()([a, b], mask=[keras.ops.ones((2, 5)), keras.ops.ones((2, 3))])
    >>> tuple(alpha.shape), tuple(beta.shape)
    ((2, 5, 8), (2, 3, 8))

    References:
        Chen et al., "Gated Convolutional Neural Network for Sentence Matching",
        Interspeech 2018, Sec. 2.2.3, Eq. 5-6.
        Chen et al., "Enhanced LSTM for Natural Language Inference", ACL 2017, Eq. 11-13.
        Parikh et al., "A Decomposable Attention Model for Natural Language Inference",
        EMNLP 2016, Eq. 1-2.
    """

    def __init__(self, return_attention=False, **kwargs):
        super().__init__(**kwargs)
        self.return_attention = bool(return_attention)

    def call(self, inputs, mask=None):
        a, b = inputs[:2]
        mask_a, mask_b = unpack_pair_mask(mask)
        a = apply_mask(a, mask_a)
        b = apply_mask(b, mask_b)
        values_a, values_b = (a, b) if len(inputs) == 2 else inputs[2:]
        values_a = apply_mask(values_a, mask_a)
        values_b = apply_mask(values_b, mask_b)
        scores = ops.matmul(a, ops.transpose(b, (0, 2, 1)))  # (B, L_a, L_b)
        key_mask_b = None if mask_b is None else ops.expand_dims(mask_b, 1)
        key_mask_a = None if mask_a is None else ops.expand_dims(mask_a, 2)
        alpha_weights = ops.cast(masked_softmax(scores, key_mask_b, axis=2), a.dtype)
        beta_weights = ops.cast(masked_softmax(scores, key_mask_a, axis=1), a.dtype)
        beta_weights = ops.transpose(beta_weights, (0, 2, 1))  # (B, L_b, L_a)
        alpha_weights = apply_mask(alpha_weights, mask_a)
        beta_weights = apply_mask(beta_weights, mask_b)
        alpha = ops.matmul(alpha_weights, values_b)
        beta = ops.matmul(beta_weights, values_a)
        if self.return_attention:
            return alpha, beta, alpha_weights, beta_weights
        return alpha, beta

    def compute_output_shape(self, inputs_shape):
        shape_a, shape_b = (tuple(s) for s in inputs_shape[:2])
        values_a, values_b = (tuple(s) for s in inputs_shape[-2:])
        alpha_shape = shape_a[:-1] + (values_b[-1],)
        beta_shape = shape_b[:-1] + (values_a[-1],)
        if not self.return_attention:
            return alpha_shape, beta_shape
        return (
            alpha_shape,
            beta_shape,
            shape_a[:-1] + (shape_b[1],),
            shape_b[:-1] + (shape_a[1],),
        )

    def get_config(self):
        config = super().get_config()
        config.update({"return_attention": self.return_attention})
        return config
