"""A masked bidirectional LSTM initialised as in ESIM's official code (Chen et al., ACL 2017)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import BlockInitializer, OrthogonalIfSquare, fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask

# Keras fuses the four LSTM gate matrices (input, forget, cell, output) on the last axis.
_LSTM_GATES = 4


@keras.saving.register_keras_serializable(package="gcnn_match")
class BiLSTMEncoder(ExplicitMaskLayer):
    """Bidirectional LSTM over a padded batch: forward and backward states concatenated.

    ```
    h_fwd_t = LSTM(x_1 .. x_t)                    (left to right over the real tokens)
    h_bwd_t = LSTM(x_n .. x_t)                    (right to left, starting at x_n)
    out_t   = [h_fwd_t; h_bwd_t]                  t = 1 .. n, n = the row's true length
    ```

    Each direction is a `keras.layers.LSTM` (gates i, f, c, o with sigmoid / tanh, one
    bias per gate), so the TensorFlow backend runs cuDNN on a GPU and the generic fused
    loop elsewhere. The two directions have separate weights.

    Initialisation follows ESIM's official code: each of the four gate blocks of a weight
    matrix is drawn separately; recurrent blocks (units x units) are random orthogonal;
    input blocks (input_dim x units) are orthogonal when square (300 -> 300 in ESIM) and
    N(0, 0.01^2) otherwise (`OrthogonalIfSquare`); biases are 0 (no unit forget bias).

    Args:
        units: int, hidden size of each direction (the output has 2 * units features).
        kernel_initializer: initializer of each gate's input matrix. None (the default)
            means `OrthogonalIfSquare(stddev=0.01)`, ESIM's rule.
        recurrent_initializer: initializer of each gate's recurrent matrix; default
            "orthogonal" as in ESIM.
        bias_initializer: initializer of the gate biases; default "zeros" as in ESIM.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, input_dim).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding. Padding must
            be on the right (as the pipeline produces it; cuDNN requires it).
        training: forwarded to the LSTMs.

    Returns:
        A float tensor (B, L, 2 * units).

    Masking:
        Explicit mask. Inputs are zeroed at padding and the mask is handed to both LSTMs,
        which leave their state untouched on padded steps: the forward direction stops at
        the last real token and the backward direction starts from a zero state at each
        row's own last real token, not at the end of the padding (as ESIM's code does by
        reversing sequence and mask together). Outputs are multiplied by the mask, so they
        are 0 at padding, and padded values never reach real positions in either direction.
        A row with no real token returns zeros.

    Example:

    >>> x = keras.random.normal((2, 7, 16))
    >>> mask = keras.ops.convert_to_tensor([[1.0] * 7, [1.0] * 4 + [0.0] * 3])
    >>> tuple(BiLSTMEncoder(units=8)(x, mask=mask).shape)
    (2, 7, 16)

    References:
        Chen, Zhu, Ling, Wei, Jiang and Inkpen, "Enhanced LSTM for Natural Language
        Inference", ACL 2017, Eq. 1-2 (input encoding) and Eq. 16-17 (composition);
        initialisation from its official code (lukecq1231/nli, scripts/ESIM/main.py).
        Used as the `ESIM (our implement)` baseline of Chen et al., "Gated Convolutional
        Neural Network for Sentence Matching", Interspeech 2018, Sec. 4.
    """

    def __init__(
        self,
        units,
        kernel_initializer=None,
        recurrent_initializer="orthogonal",
        bias_initializer="zeros",
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.units = int(units)
        if kernel_initializer is None:
            kernel_initializer = OrthogonalIfSquare()
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.recurrent_initializer = keras.initializers.get(recurrent_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)

    def build(self, input_shape):
        self.forward_lstm = self._direction("forward_lstm", go_backwards=False, offset=0)
        self.backward_lstm = self._direction("backward_lstm", go_backwards=True, offset=_LSTM_GATES)
        self.forward_lstm.build(input_shape)
        self.backward_lstm.build(input_shape)

    def _direction(self, name, go_backwards, offset):
        # The offset keeps seeded initializers from giving both directions the same blocks.
        def per_gate(initializer):
            return BlockInitializer(fresh_initializer(initializer, offset), _LSTM_GATES)

        return keras.layers.LSTM(
            self.units,
            return_sequences=True,
            go_backwards=go_backwards,
            kernel_initializer=per_gate(self.kernel_initializer),
            recurrent_initializer=per_gate(self.recurrent_initializer),
            bias_initializer=self.bias_initializer,
            unit_forget_bias=False,
            dtype=self.dtype_policy,
            name=name,
        )

    def call(self, inputs, mask=None, training=None):
        inputs = apply_mask(inputs, mask)
        lstm_mask = None
        if mask is not None:
            # cuDNN rejects a row without any real token; such a row runs one step on a zero
            # input instead, and its outputs are zeroed below like all padding.
            first_step = ops.expand_dims(ops.arange(ops.shape(mask)[1]) == 0, 0)
            lstm_mask = ops.logical_or(mask > 0.5, first_step)
        forward = self.forward_lstm(inputs, mask=lstm_mask, training=training)
        # go_backwards returns the states in reversed time order; flip them back in place.
        backward = ops.flip(self.backward_lstm(inputs, mask=lstm_mask, training=training), 1)
        return apply_mask(ops.concatenate([forward, backward], axis=-1), mask)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (2 * self.units,)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "recurrent_initializer": keras.initializers.serialize(self.recurrent_initializer),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
            }
        )
        return config
