"""The self-alignment contexts of COIN (Hu et al., EMNLP 2021, Eq. 5-6)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask, masked_softmax


@keras.saving.register_keras_serializable(package="gcnn_match")
class SelfAlignmentContext(ExplicitMaskLayer):
    """Contextual vectors of one sequence from its own self-alignment.

    For an input H (B, L, D), written row-wise (the paper writes H column-wise):

    ```
    P = ReLU(H W_c)              W_c (D, units), no bias        (Eq. 5)
    A = P Pᵀ                     (B, L, L), diagonal included   (Eq. 5)
    C = softmax_j(A) H           (B, L, D)                      (Eq. 6)
    ```

    The softmax runs over the keys j of each row i. The paper writes no bias for W_c; its
    width d_c is not stated (docs/coin.md#open-choices [U→S]: d_c = d, the feed-forward width).

    Args:
        units: int, d_c, the width of the projection P.
        kernel_initializer: initializer of W_c.
        kernel_regularizer: optional regularizer of W_c (COIN adds L2 on kernels).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, D).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.

    Returns:
        The contexts C, a float tensor (B, L, D).

    Masking:
        Explicit mask. The input is zeroed at padding, padded keys get a -1e9 logit (in
        float32) and zero weight, and C is 0 at padded positions, so padding never reaches a
        real position. A sequence that is all padding gives zeros, never NaN.

    Example:

    >>> h = keras.random.normal((2, 5, 8))
    >>> tuple(SelfAlignmentContext(units=4)(h, mask=keras.ops.ones((2, 5))).shape)
    (2, 5, 8)

    References:
        Hu, Fu, Yin and de Melo, "Context-Aware Interaction Network for Question Matching",
        EMNLP 2021, Sec. 2.2.2, Eq. 5-6.
    """

    def __init__(
        self, units, kernel_initializer="glorot_uniform", kernel_regularizer=None, **kwargs
    ):
        super().__init__(**kwargs)
        self.units = int(units)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def build(self, input_shape):
        self.projection = keras.layers.Dense(
            self.units,
            activation="relu",
            use_bias=False,
            kernel_initializer=fresh_initializer(self.kernel_initializer),
            kernel_regularizer=self.kernel_regularizer,
            dtype=self.dtype_policy,
            name="projection",
        )
        self.projection.build(input_shape)

    def call(self, inputs, mask=None):
        hidden = apply_mask(inputs, mask)
        projected = self.projection(hidden)
        scores = ops.matmul(projected, ops.transpose(projected, (0, 2, 1)))  # (B, L, L)
        key_mask = None if mask is None else ops.expand_dims(mask, 1)
        weights = ops.cast(masked_softmax(scores, key_mask, axis=-1), hidden.dtype)
        return apply_mask(ops.matmul(weights, hidden), mask)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "kernel_regularizer": keras.regularizers.serialize(self.kernel_regularizer),
            }
        )
        return config
