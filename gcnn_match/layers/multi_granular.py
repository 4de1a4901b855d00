"""The multi-granular function f_mgran of advanced ATTCONV (Yin & Schütze 2018, Eq. 10-12)."""

import keras
from keras import ops

from gcnn_match.layers.gated_conv_unit import GatedConvUnit
from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer


@keras.saving.register_keras_serializable(package="gcnn_match")
class MultiGranular(ExplicitMaskLayer):
    """Gated convolutions of several widths over one sequence, concatenated per position.

    ```
    h_uni,i   = f_gconv(h_i)                        (Eq. 10, width 1)
    h_tri,i   = f_gconv([h_{i-1}; h_i; h_{i+1}])    (Eq. 11, width 3)
    h_mgran,i = [h_uni,i; h_tri,i]                   (Eq. 12)
    ```

    f_gconv is `GatedConvUnit` with `units` outputs (the input size d in the paper); each
    width has its own weights. With the paper's widths (1, 3) and d = 300 this is
    2d^2 + 6d^2 = 720K weights plus 4d biases, and the output has 2d features
    (docs/attconv.md#advanced-attconv).

    Args:
        units: output size of every gated convolution; the input size d in the paper.
        kernel_sizes: the granularities, in output order; the paper's (1, 3).
        kernel_initializer: initializer of every gated convolution's kernels.
        bias_initializer: initializer of their biases.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, d).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.

    Returns:
        A float tensor (B, L, len(kernel_sizes) * units).

    Masking:
        As `GatedConvUnit`: inputs zeroed at padding before every convolution, output 0 at
        padding.

    Example:

    >>> x = keras.random.normal((2, 5, 8))
    >>> tuple(MultiGranular(8)(x, mask=keras.ops.ones((2, 5))).shape)
    (2, 5, 16)

    References:
        Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
        Mechanisms", TACL 2018, Sec. 3.2, Eq. 10-12.
    """

    def __init__(
        self,
        units,
        kernel_sizes=(1, 3),
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.units = int(units)
        kernel_sizes = (kernel_sizes,) if isinstance(kernel_sizes, int) else kernel_sizes
        self.kernel_sizes = tuple(int(k) for k in kernel_sizes)
        if not self.kernel_sizes:
            raise ValueError("kernel_sizes needs at least one width.")
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)

    def build(self, input_shape):
        self.branches = []
        for index, width in enumerate(self.kernel_sizes):
            # Each unit draws two blocks (seed offsets o, o + 1): a step of 2 keeps seeded
            # kernels distinct.
            branch = GatedConvUnit(
                self.units,
                kernel_size=width,
                kernel_initializer=fresh_initializer(self.kernel_initializer, offset=2 * index),
                bias_initializer=self.bias_initializer,
                dtype=self.dtype_policy,
                name=f"gated_conv_width{width}_{index}",
            )
            branch.build(input_shape)
            self.branches.append(branch)

    def call(self, inputs, mask=None):
        return ops.concatenate([branch(inputs, mask=mask) for branch in self.branches], axis=-1)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (len(self.kernel_sizes) * self.units,)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "kernel_sizes": list(self.kernel_sizes),
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
            }
        )
        return config
