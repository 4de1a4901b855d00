"""The gated linear unit convolution (Dauphin et al. 2017), as GCNN's Eq. 1 writes it."""

import keras
from keras import ops

from gcnn_match.layers.fused_conv import FusedConvLayer
from gcnn_match.layers.masking import apply_mask


@keras.saving.register_keras_serializable(package="gcnn_match")
class GLU(FusedConvLayer):
    """One gated linear unit convolution: a linear convolution modulated by a sigmoid gate.

    ```
    H' = (Conv_k(H; W) + b) * sigmoid(Conv_k(H; V) + c)          (Eq. 1)
    ```

    This is Eq. 1 of the GCNN paper taken literally: there is NO residual connection, so
    the output width is `units` whatever the input width. (Dauphin et al.'s gated
    convolutional blocks, and ConvS2S, wrap the GLU in a residual block; the GCNN paper's
    `GLU` baseline is not said to, see docs/gcnn.md#open-choices.) The two convolutions
    run as ONE fused `Conv1D(2 * units)` split into (linear, gate); each half is
    initialised like a separate `Conv1D(units)`.

    Args:
        units: int, output feature maps.
        kernel_size: int, convolution width k ('same' padding, window centred on i).
        kernel_initializer: initializer of each of the two convolution kernels.
        bias_initializer: initializer of the biases b and c.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, m_in).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.
        training: unused, accepted for a uniform signature.

    Returns:
        A float tensor (B, L, units).

    Masking:
        Explicit mask argument. The input is multiplied by the mask before the convolution
        (padding is zero inside every window) and the output is 0 at padded positions.

    Example:

    >>> x = keras.random.normal((2, 7, 16))
    >>> tuple(GLU(units=8)(x, mask=keras.ops.ones((2, 7))).shape)
    (2, 7, 8)

    References:
        Chen et al., "Gated Convolutional Neural Network for Sentence Matching",
        Interspeech 2018, Eq. 1 and the `GLU` rows of Tables 1-2.
        Dauphin et al., "Language Modeling with Gated Convolutional Networks", ICML 2017.
    """

    uses_projection = False  # Eq. 1 has no residual, hence no P

    def __init__(self, units, kernel_size=3, **kwargs):
        super().__init__(units, kernel_size, **kwargs)
        self.num_blocks = 2

    def call(self, inputs, mask=None, training=None):
        _, (linear, gate) = self.conv_blocks(inputs, mask)
        return apply_mask(linear * ops.sigmoid(gate), mask)
