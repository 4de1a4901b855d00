"""The gate fusion layer of COIN (Hu et al., EMNLP 2021, Eq. 7-12)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask, shared_position_mask

_MODES = ("gate", "simple")


@keras.saving.register_keras_serializable(package="gcnn_match")
class GateFusion(ExplicitMaskLayer):
    """Blends a sequence with its aligned representation through a learned gate.

    For h (the block input) and h' (its alignment to the other sentence), both D wide:

    ```
    h1 = G1([h; h'])    h2 = G2([h; h - h'])    h3 = G3([h; h * h'])    G_k = Dense(units, ReLU)
                                                                                   (Eq. 7-9)
    h~ = ReLU(W_f [h1; h2; h3] + b_f)                        W_f: 3 units -> D     (Eq. 10)
    f  = sigmoid(W_1 h + W_2 h~ + b_g)                       W_1, W_2: D -> D      (Eq. 11)
    out = f * h + (1 - f) * h~                                                     (Eq. 12)
    ```

    W_1 has no bias of its own: b_g is the one bias of Eq. 11 (kept on W_2). With
    `mode="simple"` the layer is the paper's "simple fusion" ablation (Table 3): an FFN on
    the concatenation, out = ReLU(W [h; h'] + b) with W: 2D -> D, so the block width is
    preserved (docs/coin.md#gate-fusion [U→S], RE2's simple fusion).

    Unstated choices (docs/coin.md#open-choices [U→S]): d_g = d (`units`); dropout (RE2
    placement) on the inputs of G1-G3 and W_f (and of the simple FFN).

    Args:
        units: int, d_g, the width of G1-G3 (unused by `mode="simple"`).
        mode: "gate" (Eq. 7-12) or "simple" (the ablation).
        dropout: float, dropout rate on the inputs of the feed-forward layers.
        kernel_initializer: initializer of every kernel.
        kernel_regularizer: optional regularizer of every kernel.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[h, aligned]`, float tensors of the same shape (B, L, D).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding (a list
            `[mask_h, mask_aligned]` is also accepted; mask_h is used).
        training: bool, enables the dropout.

    Returns:
        A float tensor (B, L, D), the next block's input.

    Masking:
        Explicit mask. The layer is position-wise, so padding never reaches real positions;
        the output is zeroed at padding (docs/coin.md#open-choices [U→S]).

    Example:

    >>> h, aligned = keras.random.normal((2, 5, 8)), keras.random.normal((2, 5, 8))
    >>> tuple(GateFusion(units=4)([h, aligned], mask=keras.ops.ones((2, 5))).shape)
    (2, 5, 8)

    References:
        Hu, Fu, Yin and de Melo, "Context-Aware Interaction Network for Question Matching",
        EMNLP 2021, Sec. 2.2.3, Eq. 7-12; ablation "simple fusion" in Sec. 3.3 / Table 3.
    """

    def __init__(
        self,
        units,
        mode="gate",
        dropout=0.0,
        kernel_initializer="glorot_uniform",
        kernel_regularizer=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        if mode not in _MODES:
            raise ValueError(f"mode must be one of {_MODES}, got {mode!r}.")
        self.units = int(units)
        self.mode = mode
        self.dropout = float(dropout)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def _dense(self, units, input_dim, name, offset, activation=None, use_bias=True):
        # Each kernel gets its own draw: one initializer instance repeats its values.
        layer = keras.layers.Dense(
            units,
            activation=activation,
            use_bias=use_bias,
            kernel_initializer=fresh_initializer(self.kernel_initializer, offset=offset),
            kernel_regularizer=self.kernel_regularizer,
            dtype=self.dtype_policy,
            name=name,
        )
        layer.build((None, None, input_dim))
        return layer

    def build(self, input_shape):
        width = int(tuple(input_shape[0])[-1])
        self.dropout_layer = (
            keras.layers.Dropout(self.dropout, dtype=self.dtype_policy, name="dropout")
            if self.dropout > 0
            else None
        )
        if self.mode == "simple":
            self.fusion = self._dense(width, 2 * width, "fusion", 0, activation="relu")
            return
        self.comparisons = [
            self._dense(self.units, 2 * width, f"g{k}", k, activation="relu") for k in (1, 2, 3)
        ]
        self.fusion = self._dense(width, 3 * self.units, "fusion", 0, activation="relu")
        self.gate_input = self._dense(width, width, "gate_input", 4, use_bias=False)
        self.gate_fused = self._dense(width, width, "gate_fused", 5)

    def _drop(self, x, training):
        return x if self.dropout_layer is None else self.dropout_layer(x, training=training)

    def call(self, inputs, mask=None, training=None):
        h, aligned = inputs
        mask = shared_position_mask(mask)
        if self.mode == "simple":
            concat = ops.concatenate([h, aligned], axis=-1)
            return apply_mask(self.fusion(self._drop(concat, training)), mask)
        pairs = ([h, aligned], [h, h - aligned], [h, h * aligned])
        compared = [
            layer(self._drop(ops.concatenate(pair, axis=-1), training))
            for layer, pair in zip(self.comparisons, pairs)
        ]
        fused = self.fusion(self._drop(ops.concatenate(compared, axis=-1), training))
        gate = ops.sigmoid(self.gate_input(h) + self.gate_fused(fused))
        return apply_mask(gate * h + (1.0 - gate) * fused, mask)

    def compute_output_shape(self, inputs_shape):
        return tuple(inputs_shape[0])

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "mode": self.mode,
                "dropout": self.dropout,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "kernel_regularizer": keras.regularizers.serialize(self.kernel_regularizer),
            }
        )
        return config
