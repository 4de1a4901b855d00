"""The mechanism shared by GCNN, GLU and the residual CNN: a fused, masked 'same' convolution
and the bias-free projection P of GCNN's Eq. 3."""

import keras
from keras import ops

from gcnn_match.layers.initializers import BlockInitializer, fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask


class FusedConvLayer(ExplicitMaskLayer):
    """Base class: one `Conv1D(num_blocks * units, kernel_size, padding="same")` whose output
    splits into the `num_blocks` pre-activations a subclass combines, plus P.

    Subclasses set `num_blocks` (after calling this `__init__`), `uses_projection`, and
    implement `call`. The input is multiplied by the mask before the convolution, so padding
    is exactly zero inside every window; subclasses zero their outputs at padding.

    Args:
        units: int, output feature maps.
        kernel_size: int, convolution width k (window centred on i).
        kernel_initializer: initializer of each block of the fused kernel (each block is drawn
            as if it were its own convolution, see `BlockInitializer`).
        bias_initializer: initializer of the convolution bias.
        projection_initializer: initializer of P (built only when the input width differs
            from `units`).
        fused: run the blocks as the one fused convolution (default), or as `num_blocks`
            separate convolutions over the blocks of the same kernel and bias: the same
            function and weights, kept to measure what fusing saves (`set_fused`).
    """

    uses_projection = True

    def __init__(
        self,
        units,
        kernel_size=3,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        projection_initializer="glorot_uniform",
        fused=True,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.fused = bool(fused)
        self.units = int(units)
        self.kernel_size = int(kernel_size)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)
        self.projection_initializer = keras.initializers.get(projection_initializer)
        self.num_blocks = 1

    def build(self, input_shape):
        self.conv = keras.layers.Conv1D(
            self.num_blocks * self.units,
            self.kernel_size,
            padding="same",
            kernel_initializer=BlockInitializer(self.kernel_initializer, self.num_blocks),
            bias_initializer=self.bias_initializer,
            dtype=self.dtype_policy,
            name="conv",
        )
        self.conv.build(input_shape)
        self.projection = None
        if self.uses_projection and input_shape[-1] != self.units:
            self.projection = keras.layers.Dense(
                self.units,
                use_bias=False,
                kernel_initializer=fresh_initializer(self.projection_initializer),
                dtype=self.dtype_policy,
                name="projection",
            )
            self.projection.build(input_shape)

    def conv_blocks(self, inputs, mask):
        """(masked inputs, list of the `num_blocks` pre-activations (B, L, units))."""
        inputs = apply_mask(inputs, mask)
        if self.fused:
            return inputs, ops.split(self.conv(inputs), self.num_blocks, axis=-1)
        kernels = ops.split(self.conv.kernel, self.num_blocks, axis=-1)
        biases = ops.split(self.conv.bias, self.num_blocks, axis=-1)
        return inputs, [
            ops.conv(inputs, kernel, padding="same") + bias for kernel, bias in zip(kernels, biases)
        ]

    def project(self, inputs):
        """P(H): identity when the widths match, else the bias-free projection."""
        return inputs if self.projection is None else self.projection(inputs)

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
                "projection_initializer": keras.initializers.serialize(self.projection_initializer),
                "fused": self.fused,
            }
        )
        return config


def set_fused(model, fused):
    """Switches every multi-block `FusedConvLayer` of `model` to the fused or the per-block
    convolutions (weights unchanged; takes effect when the model is next traced). Returns
    how many layers were switched: 0 means the model has nothing to fuse."""
    layers = [
        layer
        for layer in model._flatten_layers(include_self=False)
        if isinstance(layer, FusedConvLayer) and layer.num_blocks > 1
    ]
    for layer in layers:
        layer.fused = bool(fused)
    return len(layers)
