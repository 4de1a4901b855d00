"""A stack of convolution layers of one variant: GCNN's context, aggregation and char encoders."""

import keras

from gcnn_match.layers.gated_conv import GCNN
from gcnn_match.layers.glu import GLU
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask
from gcnn_match.layers.residual_conv import ResidualConv

# variant name -> (layer class, constructor arguments). The names follow the rows of the
# GCNN paper's Tables 1-2: GCNN, "GCNN - forget gate", "GCNN - output gate", GLU, CNN.
VARIANTS = {
    "gcnn": (GCNN, {}),
    "gcnn_no_forget": (GCNN, {"forget_gate": False}),
    "gcnn_no_output": (GCNN, {"output_gate": False}),
    "glu": (GLU, {}),
    "cnn": (ResidualConv, {}),
}


@keras.saving.register_keras_serializable(package="gcnn_match")
class ConvEncoder(ExplicitMaskLayer):
    """`num_layers` stacked convolution layers of one variant, all `units` wide.

    For the GCNN variants the memory cell is carried from layer to layer at each position
    (C^L = f^L * C^{L-1} + (1 - f^L) * P(H^{L-1}), Eq. 2): layer 1 starts from C^0 set by
    `initial_memory`, every later layer receives the previous layer's memory. The GLU and
    CNN variants only pass H on. Only the first layer can need a projection (when the input
    width differs from `units`).

    In the GCNN model this is the 4-layer context encoder (Eq. 4), the 2-layer aggregation
    encoder over the 1200-d comparison vectors (Sec. 2.2.4) and the 2-layer character
    encoder (Sec. 2.3, 40 -> 100).

    Args:
        variant: one of "gcnn", "gcnn_no_forget", "gcnn_no_output", "glu", "cnn" (see
            `VARIANTS`).
        num_layers: int, number of stacked layers.
        units: int, width of every layer.
        kernel_size: int, convolution width k of every layer.
        initial_memory: "zeros" or "projection", C^0 of the first GCNN layer (ignored by
            the other variants).
        dropout: float, dropout rate applied to H between consecutive layers (not before
            the first or after the last). 0 (the default) adds no dropout layer. The paper
            does not mention dropout.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, m_in).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding, given to
            every layer.
        training: bool, enables the between-layer dropout.

    Returns:
        The last layer's hidden states, a float tensor (B, L, units).

    Masking:
        Explicit mask argument passed to every layer; each layer zeroes its input before
        convolving and zeroes its outputs at padding, so the result is 0 at padded
        positions and padding never enters a window.

    Example:

    >>> x = keras.random.normal((2, 7, 16))
    >>> encoder = ConvEncoder("gcnn", num_layers=4, units=8)
    >>> tuple(encoder(x, mask=keras.ops.ones((2, 7))).shape)
    (2, 7, 8)

    References:
        Chen et al., "Gated Convolutional Neural Network for Sentence Matching",
        Interspeech 2018, Sec. 2.1-2.3 and 3.2 (4 context layers, 2 aggregation layers,
        hidden size 300; 2-layer char GCNN).
    """

    def __init__(
        self,
        variant,
        num_layers,
        units,
        kernel_size=3,
        initial_memory="zeros",
        dropout=0.0,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {sorted(VARIANTS)}, got {variant!r}.")
        if int(num_layers) < 1:
            raise ValueError(f"num_layers must be >= 1, got {num_layers}.")
        self.variant = variant
        self.num_layers = int(num_layers)
        self.units = int(units)
        self.kernel_size = int(kernel_size)
        self.initial_memory = initial_memory
        self.dropout = float(dropout)

        layer_class, layer_kwargs = VARIANTS[variant]
        self._carries_memory = layer_class is GCNN
        if self._carries_memory:
            layer_kwargs = dict(layer_kwargs, initial_memory=initial_memory)
        self.conv_layers = [
            layer_class(
                units=self.units,
                kernel_size=self.kernel_size,
                dtype=self.dtype_policy,
                name=f"{variant}_{i}",
                **layer_kwargs,
            )
            for i in range(self.num_layers)
        ]
        self.dropout_layer = (
            keras.layers.Dropout(self.dropout, dtype=self.dtype_policy, name="dropout")
            if self.dropout > 0
            else None
        )

    def build(self, input_shape):
        shape = tuple(input_shape)
        for layer in self.conv_layers:
            layer.build(shape)
            shape = shape[:-1] + (self.units,)

    def call(self, inputs, mask=None, training=None):
        hidden, memory = inputs, None
        for i, layer in enumerate(self.conv_layers):
            if i > 0 and self.dropout_layer is not None:
                hidden = self.dropout_layer(hidden, training=training)
            if self._carries_memory:
                hidden, memory = layer(hidden, memory=memory, mask=mask)
            else:
                hidden = layer(hidden, mask=mask)
        return apply_mask(hidden, mask)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "variant": self.variant,
                "num_layers": self.num_layers,
                "units": self.units,
                "kernel_size": self.kernel_size,
                "initial_memory": self.initial_memory,
                "dropout": self.dropout,
            }
        )
        return config
