"""The context-aware cross-attention of COIN (Hu et al., EMNLP 2021, Eq. 4, 2, 3)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import (
    ExplicitMaskLayer,
    apply_mask,
    masked_softmax,
    unpack_pair_mask,
)
from gcnn_match.layers.self_alignment_context import SelfAlignmentContext


@keras.saving.register_keras_serializable(package="gcnn_match")
class ContextCrossAttention(ExplicitMaskLayer):
    """Aligns two sequences with attention scores computed from words plus their contexts.

    For block inputs H_a (B, m, D) and H_b (B, n, D):

    ```
    C_a, C_b = SelfAlignmentContext(H_a), SelfAlignmentContext(H_b)   (Eq. 5-6, shared W_c)
    Q_a = F1(H_a + C_a),  Q_b = F1(H_b + C_b)      F1 = Dense(units, ReLU), shared  (Eq. 4)
    E   = Q_a Q_bᵀ                                 (B, m, n), unscaled              (Eq. 4)
    H'_a = softmax_j(E) H_b,   H'_b = softmax_i(E)ᵀ H_a                             (Eq. 2-3)
    ```

    The aligned values are the block inputs H, not H + C (Eq. 3). With
    `use_context=False` the layer is the plain cross-attention of Eq. 1, E = F1(H_a)
    F1(H_b)ᵀ, without the self-alignment and its weights: the paper's "w/o context"
    ablation (Table 3).

    Unstated choices (docs/coin.md#open-choices [U→S]): F1 is one ReLU layer with bias, the
    same for both sentences; d_f = d_c = d; dropout (RE2 placement) on the input of F1.

    Args:
        units: int, d_f, the width of F1.
        context_units: int, d_c, the width of the self-alignment projection W_c; None
            means `units`. Ignored when `use_context=False`.
        use_context: bool, add the self-alignment contexts before F1 (Eq. 4) or not (Eq. 1).
        dropout: float, dropout rate on the input of F1 (0 adds no dropout).
        return_attention: bool, also return the two attention weight matrices.
        kernel_initializer: initializer of F1 and W_c.
        kernel_regularizer: optional regularizer of the F1 and W_c kernels.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[h_a, h_b]`, float tensors (B, m, D) and (B, n, D).
        mask: optional list `[mask_a, mask_b]`, float tensors (B, m) and (B, n), 1 on real
            tokens and 0 on padding.
        training: bool, enables the dropout.

    Returns:
        `(aligned_a, aligned_b)`: H'_a (B, m, D) and H'_b (B, n, D). With
        `return_attention=True`, `(aligned_a, aligned_b, weights_a, weights_b)` where
        weights_a (B, m, n) is softmax_j(E_i.) and weights_b (B, n, m) is softmax_i(E_.j)ᵀ
        (each row sums to 1 over the real positions of the other sentence).

    Masking:
        Explicit masks. Inputs are zeroed at padding, padded keys get a -1e9 logit (in
        float32) and zero weight in both the self-alignment and the cross-attention, and
        outputs and weight rows are 0 at padded query positions. Keys that are all padding
        give zeros, never NaN.

    Example:

    >>> a, b = keras.random.normal((2, 5, 8)), keras.random.normal((2, 3, 8))
    >>> masks = [keras.ops.ones((2, 5)), keras.ops.ones((2, 3))]
    >>> aligned_a, aligned_b = ContextCrossAttention(units=4)([a, b], mask=masks)
    >>> tuple(aligned_a.shape), tuple(aligned_b.shape)
    ((2, 5, 8), (2, 3, 8))

    References:
        Hu, Fu, Yin and de Melo, "Context-Aware Interaction Network for Question Matching",
        EMNLP 2021, Sec. 2.2.1-2.2.2, Eq. 1-6; ablation "w/o context" in Sec. 3.3 / Table 3.
    """

    def __init__(
        self,
        units,
        context_units=None,
        use_context=True,
        dropout=0.0,
        return_attention=False,
        kernel_initializer="glorot_uniform",
        kernel_regularizer=None,
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.units = int(units)
        self.context_units = None if context_units is None else int(context_units)
        self.use_context = bool(use_context)
        self.dropout = float(dropout)
        self.return_attention = bool(return_attention)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def build(self, input_shape):
        shape_a = tuple(input_shape[0])
        self.context = None
        if self.use_context:
            self.context = SelfAlignmentContext(
                self.context_units or self.units,
                kernel_initializer=fresh_initializer(self.kernel_initializer, offset=1),
                kernel_regularizer=self.kernel_regularizer,
                dtype=self.dtype_policy,
                name="context",
            )
            self.context.build(shape_a)
        self.dropout_layer = (
            keras.layers.Dropout(self.dropout, dtype=self.dtype_policy, name="dropout")
            if self.dropout > 0
            else None
        )
        self.feed_forward = keras.layers.Dense(
            self.units,
            activation="relu",
            kernel_initializer=fresh_initializer(self.kernel_initializer, offset=0),
            kernel_regularizer=self.kernel_regularizer,
            dtype=self.dtype_policy,
            name="feed_forward",
        )
        self.feed_forward.build(shape_a)

    def _queries(self, hidden, mask, training):
        if self.context is not None:
            hidden = hidden + self.context(hidden, mask=mask)
        if self.dropout_layer is not None:
            hidden = self.dropout_layer(hidden, training=training)
        return self.feed_forward(hidden)

    def call(self, inputs, mask=None, training=None):
        h_a, h_b = inputs
        mask_a, mask_b = unpack_pair_mask(mask)
        h_a = apply_mask(h_a, mask_a)
        h_b = apply_mask(h_b, mask_b)
        q_a = self._queries(h_a, mask_a, training)
        q_b = self._queries(h_b, mask_b, training)
        scores = ops.matmul(q_a, ops.transpose(q_b, (0, 2, 1)))  # (B, m, n)
        key_mask_b = None if mask_b is None else ops.expand_dims(mask_b, 1)
        key_mask_a = None if mask_a is None else ops.expand_dims(mask_a, 2)
        weights_a = ops.cast(masked_softmax(scores, key_mask_b, axis=2), h_a.dtype)
        weights_b = ops.cast(masked_softmax(scores, key_mask_a, axis=1), h_a.dtype)
        weights_a = apply_mask(weights_a, mask_a)
        weights_b = apply_mask(ops.transpose(weights_b, (0, 2, 1)), mask_b)  # (B, n, m)
        aligned_a = ops.matmul(weights_a, h_b)
        aligned_b = ops.matmul(weights_b, h_a)
        if self.return_attention:
            return aligned_a, aligned_b, weights_a, weights_b
        return aligned_a, aligned_b

    def compute_output_shape(self, inputs_shape):
        shape_a, shape_b = (tuple(s) for s in inputs_shape)
        aligned_a = shape_a[:-1] + (shape_b[-1],)
        aligned_b = shape_b[:-1] + (shape_a[-1],)
        if not self.return_attention:
            return aligned_a, aligned_b
        return aligned_a, aligned_b, shape_a[:-1] + (shape_b[1],), shape_b[:-1] + (shape_a[1],)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "context_units": self.context_units,
                "use_context": self.use_context,
                "dropout": self.dropout,
                "return_attention": self.return_attention,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
                "kernel_regularizer": keras.regularizers.serialize(self.kernel_regularizer),
            }
        )
        return config
