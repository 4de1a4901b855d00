"""Multi-head attentive pooling of COIN (Hu et al., EMNLP 2021, Eq. 13-15)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask, masked_softmax


@keras.saving.register_keras_serializable(package="gcnn_match")
class MultiHeadPooling(ExplicitMaskLayer):
    """Pools a sequence into one vector with `num_heads` attention heads.

    For V (B, L, d), with d_h = d / n_h and each head z = 1..n_h:

    ```
    s^z = softmax_i(V W_a^zᵀ)       W_a^z (1, d)     scores over positions  (Eq. 13)
    Ṽ^z = V W_v^zᵀ                  W_v^z (d_h, d)   values                 (Eq. 14)
    V̂^z = Σ_i s^z_i ṽ^z_i           (B, d_h)                                (Eq. 15)
    V'  = [V̂^1; ...; V̂^{n_h}]       (B, d)
    ```

    As in the equations there are no biases (a bias on the scores would be constant over
    positions and cancel in the softmax), no dropout on the weights and no final linear
    layer, which Liu and Lapata's implementation adds (docs/coin.md#open-choices [U→S]). The heads'
    W_a^z are stored as one (d, n_h) kernel and the W_v^z as one (d, d) kernel whose
    output columns [z d_h, (z + 1) d_h) belong to head z.

    Args:
        num_heads: int, n_h; must divide the input width d (the paper does not state it).
        kernel_initializer: initializer of the two kernels.
        kernel_regularizer: optional regularizer of the two kernels.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, d).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.

    Returns:
        A float tensor (B, d).

    Masking:
        Explicit mask. Padded positions get a -1e9 score (in float32) and exactly zero
        weight, so they never contribute; a sequence that is all padding pools to zeros,
        never NaN.

    Example:

    >>> v = keras.random.normal((2, 5, 8))
    >>> tuple(MultiHeadPooling(num_heads=4)(v, mask=keras.ops.ones((2, 5))).shape)
    (2, 8)

    References:
        Hu, Fu, Yin and de Melo, "Context-Aware Interaction Network for Question Matching",
        EMNLP 2021, Sec. 2.4, Eq. 13-15; after Liu and Lapata, "Hierarchical Transformers for
        Multi-Document Summarization", ACL 2019.
    """

    def __init__(
        self, num_heads, kernel_initializer="glorot_uniform", kernel_regularizer=None, **kwargs
    ):
        super().__init__(**kwargs)
        self.num_heads = int(num_heads)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def build(self, input_shape):
        width = int(input_shape[-1])
        if width % self.num_heads:
            raise ValueError(f"input width {width} is not divisible by num_heads={self.num_heads}.")
        self.score_kernel = self.add_weight(
            name="score_kernel",
            shape=(width, self.num_heads),
            initializer=fresh_initializer(self.kernel_initializer, offset=0),
            regularizer=self.kernel_regularizer,
        )
        self.value_kernel = self.add_weight(
            name="value_kernel",
            shape=(width, width),
            initializer=fresh_initializer(self.kernel_initializer, offset=1),
            regularizer=self.kernel_regularizer,
        )

    def call(self, inputs, mask=None):
        values = apply_mask(inputs, mask)
        scores = ops.matmul(values, self.score_kernel)  # (B, L, n_h)
        position_mask = None if mask is None else ops.expand_dims(mask, -1)
        weights = ops.cast(masked_softmax(scores, position_mask, axis=1), values.dtype)
        # Head z's weight applies to its d_h value columns: repeat each head's weight d_h times.
        head_dim = int(values.shape[-1]) // self.num_heads
        weights = ops.repeat(weights, head_dim, axis=-1)  # (B, L, d)
        return ops.sum(weights * ops.matmul(values, self.value_kernel), axis=1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], input_shape[-1])

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "num_heads": self.num_heads,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "kernel_regularizer": keras.regularizers.serialize(self.kernel_regularizer),
            }
        )
        return config
