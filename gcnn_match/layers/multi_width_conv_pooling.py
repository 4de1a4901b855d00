"""Convolutions of several widths, each max-pooled over time (Kim 2014's sentence CNN)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask, masked_max


@keras.saving.register_keras_serializable(package="gcnn_match")
class MultiWidthConvPooling(ExplicitMaskLayer):
    """One convolution per filter width, max-over-time pooling, the pooled maps concatenated.

    For each width h of `kernel_sizes`, `filters` feature maps over the text x_0 .. x_{n-1}
    (x_t = 0 outside it):

    ```
    c^h_j = f(W_h [x_{j-h+1}; ...; x_j] + b_h)     j = 0 .. n + h - 2   (wide convolution)
    ĉ^h   = max_j c^h_j                             (B, filters)
    out   = [ĉ^{h_1}; ĉ^{h_2}; ...]                 (B, len(kernel_sizes) * filters)
    ```

    Kim (2014, §2) writes the narrow convolution, j = h - 1 .. n - 1; his released code pads
    every sentence with zero vectors in front and behind, so windows that hang over either
    end enter the max as well. The wide convolution keeps every window that holds at least
    one word, and a text shorter than h still has windows (docs/attconv.md#multichannelcnn).
    With several input channels the channels are concatenated on the feature axis before
    the layer: each filter then has its own weights for each channel and their results add,
    as in Kim's multichannel model.

    Args:
        filters: int, feature maps per width (Kim: 100).
        kernel_sizes: the filter widths (Kim: 3, 4, 5).
        activation: f (Kim: "relu").
        kernel_initializer: initializer of each width's kernel (drawn separately per width).
        bias_initializer: initializer of the biases.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, d).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.

    Returns:
        A float tensor (B, len(kernel_sizes) * filters).

    Masking:
        Explicit mask. The input is zeroed at padding, so a window reads zeros wherever it
        leaves the text, and the max runs over the windows that hold at least one real
        token: padding never changes the output. A row without any real token pools to 0.

    Example:

    >>> x = keras.random.normal((2, 7, 16))
    >>> tuple(MultiWidthConvPooling(filters=4)(x, mask=keras.ops.ones((2, 7))).shape)
    (2, 12)

    References:
        Kim, "Convolutional Neural Networks for Sentence Classification", EMNLP 2014, §2 and
        §3.1 (widths 3, 4, 5 with 100 maps each, ReLU); ATTCONV's "MultichannelCNN (Kim)"
        baseline (Yin and Schütze, TACL 2018, Table 3).
    """

    def __init__(
        self,
        filters=100,
        kernel_sizes=(3, 4, 5),
        activation="relu",
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.filters = int(filters)
        self.kernel_sizes = tuple(int(k) for k in kernel_sizes)
        if not self.kernel_sizes or min(self.kernel_sizes) < 1:
            raise ValueError(f"kernel_sizes must be positive widths, got {kernel_sizes!r}.")
        self.activation = keras.activations.get(activation)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)

    def build(self, input_shape):
        self.convs = []
        for index, width in enumerate(self.kernel_sizes):
            conv = keras.layers.Conv1D(
                self.filters,
                width,
                padding="valid",
                activation=self.activation,
                kernel_initializer=fresh_initializer(self.kernel_initializer, index),
                bias_initializer=self.bias_initializer,
                dtype=self.dtype_policy,
                name=f"conv_width{width}",
            )
            conv.build((input_shape[0], None, input_shape[-1]))
            self.convs.append(conv)

    def call(self, inputs, mask=None):
        if mask is None:
            mask = ops.ones(ops.shape(inputs)[:2], inputs.dtype)
        inputs = apply_mask(inputs, mask)
        pooled = []
        for conv, width in zip(self.convs, self.kernel_sizes):
            margin = ((0, 0), (width - 1, width - 1))
            maps = conv(ops.pad(inputs, margin + ((0, 0),)))
            # A window is real when it holds a real token: the max of its mask values.
            in_window = ops.max_pool(
                ops.expand_dims(ops.pad(mask, margin), -1), width, strides=1, padding="valid"
            )
            pooled.append(masked_max(maps, ops.squeeze(in_window, -1), axis=1))
        return ops.concatenate(pooled, axis=-1)

    def compute_output_shape(self, input_shape):
        return (input_shape[0], len(self.kernel_sizes) * self.filters)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "filters": self.filters,
                "kernel_sizes": list(self.kernel_sizes),
                "activation": keras.activations.serialize(self.activation),
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
            }
        )
        return config
