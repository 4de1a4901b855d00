"""Internal attention pooling of a CNN's hidden states (Adel & Schütze, EACL 2017)."""

import keras
from keras import ops

from gcnn_match.layers.masking import ExplicitMaskLayer, masked_softmax

# Floor of the squared norm in the length normalisation: keeps its gradient finite at 0.
_MIN_SQUARED_NORM = 1e-12


@keras.saving.register_keras_serializable(package="gcnn_match")
class InternalAttentionPooling(ExplicitMaskLayer):
    """Pools a sequence of hidden states into their attention-weighted average.

    The attention is internal: its source and its focus are the same states H (B, L, d),
    here the CNN's hidden states. Each state scores itself by one weight vector v (d,):

    ```
    e_i   = v · h_i                                  a linear map of the state, no bias
    α_i   = exp(e_i) / Σ_j exp(e_j)                  over the real positions
    a     = Σ_i α_i h_i                              (B, d)
    out   = a / ||a||_2        if normalize, else a
    ```

    A bias on e_i would be the same at every position and cancel in the softmax. The length
    normalisation is the authors' code's (`AttentionLayer`, method "internalOnH", of
    heikeadel/attention_methods); ATTCONV's description ends at the weighted average
    (docs/attconv.md#cnninternal-attention).

    Args:
        normalize: divide the weighted average by its L2 norm (default True).
        kernel_initializer: initializer of v.
        kernel_regularizer: optional regularizer of v.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, d), the hidden states.
        mask: optional float tensor (B, L), 1 on real positions and 0 on padding.

    Returns:
        A float tensor (B, d).

    Masking:
        Explicit mask. Padded positions get exactly zero weight, so whatever they hold never
        reaches the output; a row that is all padding pools to zeros, never NaN (the norm is
        taken in float32 and floored at 1e-6).

    Example:

    >>> h = keras.random.normal((2, 5, 8))
    >>> tuple(InternalAttentionPooling()(h, mask=keras.ops.ones((2, 5))).shape)
    (2, 8)

    References:
        Adel and Schütze, "Exploring Different Dimensions of Attention for Uncertainty
        Detection", EACL 2017 (internal attention on the convolution's hidden layer); its
        code, heikeadel/attention_methods@11fcaeb, layers.py `AttentionLayer`. Used as
        "CNN+internal attention" by Yin and Schütze, TACL 2018, Table 3 and §4.2.
    """

    def __init__(
        self,
        normalize=True,
        kernel_initializer="glorot_uniform",
        kernel_regularizer=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.normalize = bool(normalize)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def build(self, input_shape):
        self.score_vector = self.add_weight(
            name="score_vector",
            shape=(int(input_shape[-1]), 1),
            initializer=self.kernel_initializer,
            regularizer=self.kernel_regularizer,
        )

    def call(self, inputs, mask=None):
        scores = ops.matmul(inputs, self.score_vector)[..., 0]  # (B, L)
        weights = ops.cast(masked_softmax(scores, mask, axis=-1), inputs.dtype)
        pooled = ops.sum(weights[..., None] * inputs, axis=1)
        if not self.normalize:
            return pooled
        pooled = ops.cast(pooled, "float32")
        squared = ops.sum(ops.square(pooled), axis=-1, keepdims=True)
        normalized = pooled * ops.rsqrt(ops.maximum(squared, _MIN_SQUARED_NORM))
        return ops.cast(normalized, inputs.dtype)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[-1])

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "normalize": self.normalize,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "kernel_regularizer": keras.regularizers.serialize(self.kernel_regularizer),
            }
        )
        return config
