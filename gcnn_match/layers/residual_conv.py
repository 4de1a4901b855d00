"""The residual ReLU convolution of GCNN's `CNN` baseline."""

import keras
from keras import ops

from gcnn_match.layers.fused_conv import FusedConvLayer
from gcnn_match.layers.masking import apply_mask


@keras.saving.register_keras_serializable(package="gcnn_match")
class ResidualConv(FusedConvLayer):
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

    def call(self, inputs, mask=None, training=None):
        inputs, (pre_activation,) = self.conv_blocks(inputs, mask)
        return apply_mask(ops.relu(pre_activation) + self.project(inputs), mask)
