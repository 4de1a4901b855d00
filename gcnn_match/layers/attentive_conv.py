"""Attentive convolution, the layer of ATTCONV (Yin & Schütze, TACL 2018, Eq. 1-6)."""

import keras
from keras import ops

from gcnn_match.layers.attentive_context import AttentiveContext
from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask, unpack_pair_mask


@keras.saving.register_keras_serializable(package="gcnn_match")
class AttentiveConv(ExplicitMaskLayer):
    """A convolution whose window also holds an attentive context from another text.

    With the beneficiary states b_i, the attention source s_i and the attention focus f_j:

    ```
    c_i     = sum_j softmax_j(match(s_i, f_j)) f_j                   (Eq. 1-4, AttentiveContext)
    h_i,new = tanh(W1 [b_{i-k//2}; ...; b_{i+k//2}] + W2 c_i + b)   (Eq. 5-6)
    ```

    W1 is an ordinary bias-free width-`kernel_size` 'same' convolution (R^{units x k d_b}),
    W2 a bias-free width-1 convolution of the context (R^{units x d_f}), and b the one bias.
    Light ATTCONV (Sec. 3.1) is `[x, y]` with source = beneficiary = x: with d = 300 and
    k = 3 it has 3d^2 + d^2 = 360K weights plus d biases (Table 7). Advanced ATTCONV passes
    its own source and beneficiary (see `AdvancedAttentiveConv`). Intra-context use (Yelp)
    passes the same tensor and mask as x and y.

    Args:
        units: output hidden size (300 in the paper).
        kernel_size: convolution width over the beneficiary (3 in the paper).
        matching: "dot" (default, see `AttentiveContext`), "bilinear" or "additive".
        attention_units: width of the additive matching function; None: the focus size.
        code_faithful: reproduce the authors' code instead of proper masking (see Masking).
        return_attention: also return the attention weights.
        kernel_initializer: initializer of W1, W2 and the matching weights.
        bias_initializer: initializer of b.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[x, y]`: x (B, L_x, d_b) the beneficiary (the text being modelled),
            y (B, L_y, d_f) the attention focus (its context).
        mask: optional list `[mask_x, mask_y]`, float (B, L_x) and (B, L_y).
        source: optional (B, L_x, d_s) attention source; None means x (light ATTCONV).
            It shares x's mask.

    Returns:
        (B, L_x, units); with `return_attention=True`, `(h_new, weights)` where weights
        (B, L_x, L_y) is the softmax of the matching scores.

    Masking:
        By default every input is zeroed at padding before the convolution and the matching,
        padded focus positions get zero attention weight, and the output is 0 at padding, so
        padding never changes the real positions. `code_faithful=True` reproduces
        `Attentive_Conv_for_Pair_easy_version` of the authors' code
        (docs/attconv.md#code-faithful-mode): the convolution input is not masked (padded tokens'
        states enter the windows of the boundary tokens) and padded focus positions stay in the
        softmax with score 0 (see `AttentiveContext`); the output is still 0 at padding. Left
        padding, the other behaviour of that code, is a property of the input batches, not of this
        layer.

    Example:

    >>> x, y = keras.random.normal((2, 5, 8)), keras.random.normal((2, 7, 8))
    >>> h = AttentiveConv(6)([x, y], mask=[keras.ops.ones((2, 5)), keras.ops.ones((2, 7))])
    >>> tuple(h.shape)
    (2, 5, 6)

    References:
        Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
        Mechanisms", TACL 2018, Sec. 3.1, Eq. 1-6, Fig. 4(a).
    """

    def __init__(
        self,
        units,
        kernel_size=3,
        matching="dot",
        attention_units=None,
        code_faithful=False,
        return_attention=False,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.units = int(units)
        self.kernel_size = int(kernel_size)
        self.matching = matching
        self.attention_units = None if attention_units is None else int(attention_units)
        self.code_faithful = bool(code_faithful)
        self.return_attention = bool(return_attention)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)

    def build(self, inputs_shape, source_shape=None):
        x_shape, y_shape = (tuple(s) for s in inputs_shape[:2])
        source_shape = x_shape if source_shape is None else tuple(source_shape)
        self.attention = AttentiveContext(
            matching=self.matching,
            attention_units=self.attention_units,
            code_faithful=self.code_faithful,
            return_attention=True,
            kernel_initializer=fresh_initializer(self.kernel_initializer, offset=2),
            dtype=self.dtype_policy,
            name="attention",
        )
        self.attention.build([source_shape, y_shape])
        self.conv = keras.layers.Conv1D(
            self.units,
            self.kernel_size,
            padding="same",
            use_bias=False,
            kernel_initializer=fresh_initializer(self.kernel_initializer, offset=0),
            dtype=self.dtype_policy,
            name="conv",
        )
        self.conv.build(x_shape)
        self.context_projection = keras.layers.Dense(
            self.units,
            use_bias=False,
            kernel_initializer=fresh_initializer(self.kernel_initializer, offset=1),
            dtype=self.dtype_policy,
            name="context_projection",
        )
        self.context_projection.build(x_shape[:-1] + (y_shape[-1],))
        self.bias = self.add_weight(
            shape=(self.units,), name="bias", initializer=self.bias_initializer
        )

    def call(self, inputs, mask=None, source=None):
        x, y = inputs
        mask_x, mask_y = unpack_pair_mask(mask)
        context, weights = self.attention(
            [x if source is None else source, y], mask=[mask_x, mask_y]
        )
        conv_input = x if self.code_faithful else apply_mask(x, mask_x)
        hidden = ops.tanh(self.conv(conv_input) + self.context_projection(context) + self.bias)
        hidden = apply_mask(hidden, mask_x)
        if self.return_attention:
            return hidden, weights
        return hidden

    def compute_output_shape(self, inputs_shape, source_shape=None):
        x_shape, y_shape = (tuple(s) for s in inputs_shape[:2])
        hidden_shape = x_shape[:-1] + (self.units,)
        if self.return_attention:
            return hidden_shape, x_shape[:-1] + (y_shape[1],)
        return hidden_shape

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "kernel_size": self.kernel_size,
                "matching": self.matching,
                "attention_units": self.attention_units,
                "code_faithful": self.code_faithful,
                "return_attention": self.return_attention,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
            }
        )
        return config
