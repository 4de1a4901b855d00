"""The residual ReLU convolution of GCNN's `CNN` baseline."""
import keras
from keras import ops

from gcnn_match.layers.gated_conv import fresh_initializer
from gcnn_match.layers.masking import apply_mask


@keras.saving.register_keras_serializable(package="gcnn_match")
class ResidualConv(keras.layers.Layer):
    """One ReLU convolution with a residual connection: the paper's `CNN` baseline layer.

    ```
    H' = ReLU(Conv_k(H; W_c) + b_c) + P(H)
    ```

    The paper writes the residual as H^{L-1} (Sec. 4, "we replace equation (2) with ...").
    Where the input width differs from `units` (the first aggregation layer, 1200 -> 300)
    P is a bias-free linear projection, as GCNN's Eq. 3 does for its memory; otherwise P is
    the identity.

    Args:
        units: int, output feature maps.
        kernel_size: int, convolution width k ('same' padding, window centred on i).
        kernel_initializer: initializer of the convolution kernel.
        bias_initializer: initializer of the convolution bias.
        projection_initializer: initializer of the projection P (only when widths differ).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, m_in).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.
        training: unused, accepted for a uniform signature.

    Returns:
        A float tensor (B, L, units).

    Masking:
        Explicit mask argument. The input is multiplied by the mask before the convolution
        and the projection, and the output is 0 at padded positions.

    Example:

    >>> x = keras.random.normal((2, 7, 8))
    >>> tuple(ResidualConv(units=8)(x, mask=keras.ops.ones((2, 7))).shape)
    (2, 7, 8)

    References:
        Chen et al., "Gated Convolutional Neural Network for Sentence Matching",
        Interspeech 2018, Sec. 4 (the `CNN` rows of Tables 1-2).
    """

    def __init__(
        self,
        units,
        kernel_size=3,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        projection_initializer="glorot_uniform",
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.units = int(units)
        self.kernel_size = int(kernel_size)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.projection_initializer = keras.initializers.get(projection_initializer)

    def build(self, input_shape):
        self.conv = keras.layers.Conv1D(
            self.units,
            self.kernel_size,
            padding="same",
            kernel_initializer=fresh_initializer(self.kernel_initializer),
            bias_initializer=self.bias_initializer,
            dtype=self.dtype_policy,
            name="conv",
        )
        self.conv.build(input_shape)
        if input_shape[-1] == self.units:
            self.projection = None
        else:
            self.projection = keras.layers.Dense(
                self.units,
                use_bias=False,
                kernel_initializer=fresh_initializer(self.projection_initializer),
                dtype=self.dtype_policy,
                name="projection",
            )
            self.projection.build(input_shape)

    def call(self, inputs, mask=None, training=None):
        inputs = apply_mask(inputs, mask)
        residual = inputs if self.projection is None else self.projection(inputs)
        return apply_mask(ops.relu(self.conv(inputs)) + residual, mask)

    def compute_mask(self, inputs, mask=None):
        # The float mask is consumed explicitly; no implicit Keras mask is propagated.
        return None

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "kernel_size": self.kernel_size,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
                "projection_initializer": keras.initializers.serialize(
                    self.projection_initializer
                ),
            }
        )
        return config
