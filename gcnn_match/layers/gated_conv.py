"""The gated convolution layer of GCNN (Chen et al., Interspeech 2018, Eq. 2-3)."""

import keras
from keras import ops

from gcnn_match.layers.fused_conv import FusedConvLayer
from gcnn_match.layers.masking import apply_mask

_INITIAL_MEMORIES = ("zeros", "projection")


@keras.saving.register_keras_serializable(package="gcnn_match")
class GCNN(FusedConvLayer):
    """One gated convolution layer with output gate, forget gate and a per-position memory.

    For an input H (B, L, m_in) and a memory C (B, L, units), with `Conv_k` a 'same' 1-D
    convolution over the window of `kernel_size` positions centred on each position:

    ```
    o  = sigmoid(Conv_k(H; W_o) + b_o)                (output gate)
    f  = sigmoid(Conv_k(H; W_f) + b_f)                (forget gate)
    g  = tanh(Conv_k(H; W_g) + b_g)
    C' = f * C + (1 - f) * P(H)                       (memory cell, Eq. 2-3)
    H' = o * g + C'
    ```

    P is the identity when m_in == units, otherwise a bias-free linear projection W_p
    (Eq. 3). The memory belongs to each position and is updated from layer to layer, not
    along the sequence. The three gate convolutions run as ONE fused
    `Conv1D(n_gates * units)` whose output is split in the order (output, forget,
    candidate), skipping gates that an ablation removes; each block of the fused kernel is
    initialised like a separate `Conv1D(units)` (see `BlockInitializer`).

    Ablations of the paper's Table 2 are switches, not copies of the layer:
    - `forget_gate=False` ("GCNN - forget gate"): no memory cell, H' = o * g + P(H). The
      `memory` argument is ignored and the second output is P(H).
    - `output_gate=False` ("GCNN - output gate"): H' = g + C' with g = ReLU(Conv_k(H; W_g)
      + b_g) instead of tanh, as the paper does for this ablation.

    Args:
        units: int, output feature maps n (hidden size; 300 in the paper).
        kernel_size: int, convolution width k. The paper does not state it; its worked
            example uses 3.
        forget_gate: bool, keep the forget gate and memory cell.
        output_gate: bool, keep the output gate (False also switches g to ReLU).
        initial_memory: "zeros" (C^0 = 0, so C^1 = (1 - f) * P(H^0)) or "projection"
            (C^0 = P(H^0), which makes C^1 = P(H^0)). Used only when `memory` is None. The
            paper leaves C^0 open.
        kernel_initializer: initializer of each gate's convolution kernel.
        bias_initializer: initializer of the gate biases.
        projection_initializer: initializer of W_p.
        **kwargs: base `keras.layers.Layer` arguments (name, dtype, trainable, ...).

    Call arguments:
        inputs: float tensor (B, L, m_in), the previous hidden states H^{L-1}.
        memory: optional float tensor (B, L, units), the previous memory C^{L-1}. None means
            the first layer, C^0 as set by `initial_memory`.
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.
        training: unused, accepted for a uniform signature.

    Returns:
        A tuple `(hidden, memory)`, each (B, L, units): H' and C'.

    Masking:
        The mask is passed explicitly (no implicit Keras mask propagation). The input is
        multiplied by the mask before the convolution, so padded positions are exactly zero
        inside every window (as with the zero 'same' padding at the sentence ends), and
        both outputs are multiplied by the mask, so they are 0 at padding. Values at padded
        positions therefore never reach real positions.

    Example:

    >>> x = keras.random.normal((2, 7, 16))
    >>> mask = keras.ops.ones((2, 7))
    >>> h, c = GCNN(units=8)(x, mask=mask)
    >>> h2, c2 = GCNN(units=8)(h, memory=c, mask=mask)
    >>> tuple(h2.shape)
    (2, 7, 8)

    References:
        Chen, Guo, Chen, Sun and You, "Gated Convolutional Neural Network for Sentence
        Matching", Interspeech 2018, Sec. 2.1, Eq. 2-3; ablations in Sec. 4 / Table 2.
    """

    def __init__(
        self,
        units,
        kernel_size=3,
        forget_gate=True,
        output_gate=True,
        initial_memory="zeros",
        **kwargs,
    ):
        super().__init__(units, kernel_size, **kwargs)
        if initial_memory not in _INITIAL_MEMORIES:
            raise ValueError(
                f"initial_memory must be one of {_INITIAL_MEMORIES}, got {initial_memory!r}."
            )
        self.forget_gate = bool(forget_gate)
        self.output_gate = bool(output_gate)
        self.initial_memory = initial_memory
        self.gate_names = tuple(
            name
            for name, present in (
                ("output", self.output_gate),
                ("forget", self.forget_gate),
                ("candidate", True),
            )
            if present
        )
        self.num_blocks = len(self.gate_names)

    def call(self, inputs, memory=None, mask=None, training=None):
        inputs, blocks = self.conv_blocks(inputs, mask)
        gates = dict(zip(self.gate_names, blocks))
        residual = self.project(inputs)
        if self.output_gate:
            new = ops.sigmoid(gates["output"]) * ops.tanh(gates["candidate"])
        else:
            new = ops.relu(gates["candidate"])
        if self.forget_gate:
            if memory is None:
                projected_start = self.initial_memory == "projection"
                memory = residual if projected_start else ops.zeros_like(residual)
            forget = ops.sigmoid(gates["forget"])
            cell = forget * memory + (1.0 - forget) * residual
        else:
            cell = residual
        hidden = new + cell
        return apply_mask(hidden, mask), apply_mask(cell, mask)

    def compute_output_shape(self, input_shape):
        output_shape = super().compute_output_shape(input_shape)
        return output_shape, output_shape

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "forget_gate": self.forget_gate,
                "output_gate": self.output_gate,
                "initial_memory": self.initial_memory,
            }
        )
        return config
