"""The gated convolution function f_gconv of advanced ATTCONV (Yin & Schütze 2018, Eq. 7-9)."""

import keras
from keras import ops

from gcnn_match.layers.fused_conv import FusedConvLayer
from gcnn_match.layers.masking import apply_mask


@keras.saving.register_keras_serializable(package="gcnn_match")
class GatedConvUnit(FusedConvLayer):
    """A highway-style gate between each position's own state and a convolution of its window.

    For the window i_i = [h_{i-k//2}; ...; h_{i+k//2}] around the central state u_i = h_i:

    ```
    o_i = tanh(W_h i_i + b_h)                  (Eq. 7)
    g_i = sigmoid(W_g i_i + b_g)               (Eq. 8)
    f_gconv(i_i) = g_i * u_i + (1 - g_i) * o_i (Eq. 9)
    ```

    Because the gate mixes u_i with o_i, the paper's output has the input's size d
    (`units` = d); with d = 300 there are 2 k d^2 weights (k = 1: 180K, k = 3: 540K) plus
    2d biases. W_h and W_g run as one fused 'same' `Conv1D(2 units, k)` whose two halves
    are initialised like separate kernels (`FusedConvLayer`). Should `units` differ from
    d, u_i is replaced by its bias-free projection P u_i (GCNN's P; not in the paper).
    `kernel_size=1` is the unigram f_gconv(h_i) of Eq. 10 and of the attention
    beneficiary f_bene (Eq. 13); `kernel_size=3` is the trigram of Eq. 11.

    Args:
        units: output size; the input size d for the paper's Eq. 9.
        kernel_size: window width k (1 or 3 in the paper).
        kernel_initializer: initializer of W_h and W_g (each block separately).
        bias_initializer: initializer of b_h and b_g.
        projection_initializer: initializer of P (only when `units` differs from d).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, d).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.

    Returns:
        A float tensor (B, L, units).

    Masking:
        The input is zeroed at padding before the convolution, so padded positions count as
        the zero 'same' padding inside every window, and the output is 0 at padding.

    Example:

    >>> x = keras.random.normal((2, 5, 8))
    >>> tuple(GatedConvUnit(8, kernel_size=3)(x, mask=keras.ops.ones((2, 5))).shape)
    (2, 5, 8)

    References:
        Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
        Mechanisms", TACL 2018, Sec. 3.2, Eq. 7-9 (used in Eq. 10, 11 and 13).
    """

    uses_projection = True  # identity when units == d, as Eq. 9 needs

    def __init__(self, units, kernel_size=1, **kwargs):
        super().__init__(units, kernel_size=kernel_size, **kwargs)
        self.num_blocks = 2

    def call(self, inputs, mask=None):
        inputs, (candidate, gate) = self.conv_blocks(inputs, mask)
        gate = ops.sigmoid(gate)
        return apply_mask(gate * self.project(inputs) + (1.0 - gate) * ops.tanh(candidate), mask)
