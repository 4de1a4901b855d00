"""Advanced attentive convolution (Yin & Schütze, TACL 2018, Sec. 3.2, Eq. 7-13)."""

import keras

from gcnn_match.layers.attentive_conv import AttentiveConv
from gcnn_match.layers.gated_conv_unit import GatedConvUnit
from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, unpack_pair_mask
from gcnn_match.layers.multi_granular import MultiGranular


@keras.saving.register_keras_serializable(package="gcnn_match")
class AdvancedAttentiveConv(ExplicitMaskLayer):
    """Attentive convolution with learned attention source, focus and beneficiary.

    ```
    source       S = f_mgran(H^x)    (Eq. 10-12, `MultiGranular`, 2d features)
    focus        F = f_mgran(H^y)    ("the same architecture" as the source)
    beneficiary  B = f_bene(H^x) = f_gconv(H^x), width 1   (Eq. 13: Eq. 10's h^x_uni)
    c_i     = sum_j softmax_j(S_i . F_j) F_j                           (2d features)
    h_i,new = tanh(W1 [B_{i-1}; B_i; B_{i+1}] + W2 c_i + b)             (`AttentiveConv`)
    ```

    The paper gives no code for this version; this is the reading of
    docs/attconv.md#advanced-attconv. Two sharing choices are flags: the focus shares the
    source's f_mgran weights (`share_focus_weights=True`, "the same architecture"; the released
    code shares its gated layer between the two sentences), and the beneficiary is the width-1
    branch of the source's f_mgran (`share_beneficiary_weights=True`: Eq. 13,
    f_bene(h^x_i) = f_gconv(h^x_i), is Eq. 10's h^x_uni,i = f_gconv(h^x_i) over the same input;
    False gives f_bene a unigram gated convolution of its own; docs/attconv.md#open-choices).
    With d = 300 the default has 8d^2 (f_mgran) + 3d^2 (W1) + 2d^2 (W2) = 13 d^2 = 1.17M
    weights, 15 d^2 = 1.35M with a separate f_bene; **Table 7 reports 900K** = 10 d^2, which
    only W_h = W_g inside every f_gconv (against Eq. 7-8) with a separate f_bene gives
    (docs/attconv.md#known-mismatches).

    Args:
        units: output hidden size (300).
        kernel_size: width of the attentive convolution over the beneficiary (3).
        granularities: widths of f_mgran's gated convolutions, (1, 3) in the paper.
        share_focus_weights: one f_mgran for source and focus.
        share_beneficiary_weights: the beneficiary is the width-1 branch of the source's
            f_mgran (needs 1 in `granularities`; the default, Eq. 13 = Eq. 10) instead of a
            separate f_gconv.
        matching: matching function of the attention ("dot", "bilinear", "additive").
        code_faithful: the attention softmax keeps padded focus positions with score 0 and
            the beneficiary is convolved unmasked, as in the released light code (see
            `AttentiveConv`).
        return_attention: also return the attention weights.
        kernel_initializer: initializer of every kernel.
        bias_initializer: initializer of every bias.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[x, y]`, float (B, L_x, d) the text being modelled and (B, L_y, d)
            its context; intra-context use passes x twice.
        mask: optional list `[mask_x, mask_y]`, float (B, L_x) and (B, L_y).

    Returns:
        (B, L_x, units); with `return_attention=True`, `(h_new, weights)` with weights
        (B, L_x, L_y).

    Masking:
        Every gated convolution zeroes its input at padding and outputs 0 there; the
        attention gives padded focus positions zero weight (unless `code_faithful`); the
        output is 0 at padding.

    Example:

    >>> x, y = keras.random.normal((2, 5, 8)), keras.random.normal((2, 7, 8))
    >>> layer = AdvancedAttentiveConv(6)
    >>> tuple(layer([x, y], mask=[keras.ops.ones((2, 5)), keras.ops.ones((2, 7))]).shape)
    (2, 5, 6)

    References:
        Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
        Mechanisms", TACL 2018, Sec. 3.2, Eq. 7-13, Fig. 4(b).
    """

    def __init__(
        self,
        units,
        kernel_size=3,
        granularities=(1, 3),
        share_focus_weights=True,
        share_beneficiary_weights=True,
        matching="dot",
        code_faithful=False,
        return_attention=False,
        kernel_initializer="glorot_uniform",
        bias_initializer="zeros",
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.units = int(units)
        self.kernel_size = int(kernel_size)
        self.granularities = tuple(int(k) for k in granularities)
        self.share_focus_weights = bool(share_focus_weights)
        self.share_beneficiary_weights = bool(share_beneficiary_weights)
        if self.share_beneficiary_weights and 1 not in self.granularities:
            raise ValueError("share_beneficiary_weights needs granularity 1 in f_mgran.")
        self.matching = matching
        self.code_faithful = bool(code_faithful)
        self.return_attention = bool(return_attention)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.bias_initializer = keras.initializers.get(bias_initializer)

    def _initializer(self, offset):
        # Sub-layers draw several kernels each; steps of 10 keep seeded draws distinct.
        return fresh_initializer(self.kernel_initializer, offset=10 * offset)

    def _multi_granular(self, name, offset, input_shape):
        # f_gconv keeps the input size d (Eq. 9 mixes the output with the input).
        layer = MultiGranular(
            input_shape[-1],
            self.granularities,
            kernel_initializer=self._initializer(offset),
            bias_initializer=self.bias_initializer,
            dtype=self.dtype_policy,
            name=name,
        )
        layer.build(input_shape)
        return layer

    def build(self, inputs_shape):
        x_shape, y_shape = (tuple(s) for s in inputs_shape)
        self.source = self._multi_granular("source", 0, x_shape)
        self.focus = (
            self.source if self.share_focus_weights else self._multi_granular("focus", 1, y_shape)
        )
        if self.share_beneficiary_weights:
            self.beneficiary = None
        else:
            self.beneficiary = GatedConvUnit(
                x_shape[-1],
                kernel_size=1,
                kernel_initializer=self._initializer(2),
                bias_initializer=self.bias_initializer,
                dtype=self.dtype_policy,
                name="beneficiary",
            )
            self.beneficiary.build(x_shape)
        granular_shape = x_shape[:-1] + (len(self.granularities) * x_shape[-1],)
        self.attentive_conv = AttentiveConv(
            self.units,
            kernel_size=self.kernel_size,
            matching=self.matching,
            code_faithful=self.code_faithful,
            return_attention=True,
            kernel_initializer=self._initializer(3),
            bias_initializer=self.bias_initializer,
            dtype=self.dtype_policy,
            name="attentive_conv",
        )
        self.attentive_conv.build(
            [x_shape, y_shape[:-1] + (granular_shape[-1],)], source_shape=granular_shape
        )

    def call(self, inputs, mask=None):
        x, y = inputs
        mask_x, mask_y = unpack_pair_mask(mask)
        source = self.source(x, mask=mask_x)
        focus = self.focus(y, mask=mask_y)
        if self.beneficiary is None:
            dim = x.shape[-1]
            start = self.granularities.index(1) * dim
            beneficiary = source[..., start : start + dim]
        else:
            beneficiary = self.beneficiary(x, mask=mask_x)
        hidden, weights = self.attentive_conv(
            [beneficiary, focus], mask=[mask_x, mask_y], source=source
        )
        if self.return_attention:
            return hidden, weights
        return hidden

    def compute_output_shape(self, inputs_shape):
        x_shape, y_shape = (tuple(s) for s in inputs_shape)
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
                "granularities": list(self.granularities),
                "share_focus_weights": self.share_focus_weights,
                "share_beneficiary_weights": self.share_beneficiary_weights,
                "matching": self.matching,
                "code_faithful": self.code_faithful,
                "return_attention": self.return_attention,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "bias_initializer": keras.initializers.serialize(self.bias_initializer),
            }
        )
        return config
