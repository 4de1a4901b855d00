"""The attentive context of ATTCONV (Yin & Schütze, TACL 2018, Eq. 1-4)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import (
    ExplicitMaskLayer,
    apply_mask,
    masked_softmax,
    unpack_pair_mask,
)

MATCHING_FUNCTIONS = ("dot", "bilinear", "additive")


@keras.saving.register_keras_serializable(package="gcnn_match")
class AttentiveContext(ExplicitMaskLayer):
    """For every position of a source text, the attention-weighted average of a focus text.

    With source states s_i (the attention source, h^x_i in light ATTCONV) and focus states
    f_j (the attention focus, h^y_j):

    ```
    e_ij = s_i . f_j                         matching="dot"       (Eq. 1)
    e_ij = s_i W_e f_j                       matching="bilinear"  (Eq. 2), W_e (d_s, d_f)
    e_ij = v_e . tanh(W_e s_i + U_e f_j)     matching="additive"  (Eq. 3), no biases
    c_i  = sum_j softmax_j(e_i.) f_j                                (Eq. 4)
    ```

    The paper does not say which matching function its experiments used; the authors' code
    and Table 7's parameter counts point to the dot product (docs/attconv.md#open-choices), the
    default. Intra-context attention (Yelp, t_y = t_x) passes the same tensor and mask twice; the
    diagonal j = i is kept, as in the authors' self-attention helper
    (docs/attconv.md#attentive-context).

    Args:
        matching: "dot", "bilinear" or "additive".
        attention_units: width of W_e, U_e and v_e for "additive"; None means the focus
            dimension (the paper's W_e, U_e in R^{d x d}). Ignored by the other functions.
        code_faithful: reproduce the authors' Theano code instead of proper masking (see
            Masking).
        return_attention: also return the attention weights.
        kernel_initializer: initializer of W_e, U_e and v_e.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[source, focus]`, float tensors (B, L_x, d_s) and (B, L_y, d_f);
            "dot" needs d_s == d_f.
        mask: optional list `[mask_x, mask_y]`, float tensors (B, L_x) and (B, L_y).

    Returns:
        The context C (B, L_x, d_f); with `return_attention=True`, `(C, weights)` where
        weights (B, L_x, L_y) is softmax_j(e_i.).

    Masking:
        Both inputs are zeroed at padding first. By default padded focus positions get a
        -1e9 logit (float32) and exactly zero weight; rows of padded source positions are 0,
        so the context is 0 there, and an all-padding focus gives zeros, never NaN.
        `code_faithful=True` reproduces `Attentive_Conv_for_Pair(_easy_version)` of the
        authors' code (docs/attconv.md#code-faithful-mode): padded focus positions keep the score 0
        and take part in the softmax over the full padded length (each takes weight e^0 / Z) while
        contributing zero vectors, so the result depends on how much padding a batch has.

    Example:

    >>> x, y = keras.random.normal((2, 5, 8)), keras.random.normal((2, 7, 8))
    >>> c = AttentiveContext()([x, y], mask=[keras.ops.ones((2, 5)), keras.ops.ones((2, 7))])
    >>> tuple(c.shape)
    (2, 5, 8)

    References:
        Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
        Mechanisms", TACL 2018, Sec. 3.1, Eq. 1-4.
    """

    def __init__(
        self,
        matching="dot",
        attention_units=None,
        code_faithful=False,
        return_attention=False,
        kernel_initializer="glorot_uniform",
        **kwargs,
    ):
        super().__init__(**kwargs)
        if matching not in MATCHING_FUNCTIONS:
            raise ValueError(f"matching must be one of {MATCHING_FUNCTIONS}, got {matching!r}.")
        self.matching = matching
        self.attention_units = None if attention_units is None else int(attention_units)
        self.code_faithful = bool(code_faithful)
        self.return_attention = bool(return_attention)
        self.kernel_initializer = keras.initializers.get(kernel_initializer)

    def build(self, inputs_shape):
        source_dim, focus_dim = inputs_shape[0][-1], inputs_shape[1][-1]
        if self.matching == "dot" and source_dim != focus_dim:
            raise ValueError(
                f"dot matching needs equal dimensions, got {source_dim} and "
                f"{focus_dim}; use 'bilinear' or 'additive'."
            )
        if self.matching == "bilinear":
            self.bilinear_kernel = self.add_weight(
                shape=(source_dim, focus_dim),
                name="bilinear_kernel",
                initializer=fresh_initializer(self.kernel_initializer),
            )
        if self.matching == "additive":
            units = self.attention_units or focus_dim
            self.source_kernel = self.add_weight(
                shape=(source_dim, units),
                name="source_kernel",
                initializer=fresh_initializer(self.kernel_initializer, offset=0),
            )
            self.focus_kernel = self.add_weight(
                shape=(focus_dim, units),
                name="focus_kernel",
                initializer=fresh_initializer(self.kernel_initializer, offset=1),
            )
            self.score_vector = self.add_weight(
                shape=(units, 1),
                name="score_vector",
                initializer=fresh_initializer(self.kernel_initializer, offset=2),
            )

    def scores(self, source, focus):
        """Matching scores e (B, L_x, L_y) of already masked inputs."""
        if self.matching == "dot":
            return ops.matmul(source, ops.transpose(focus, (0, 2, 1)))
        if self.matching == "bilinear":
            return ops.matmul(
                ops.matmul(source, self.bilinear_kernel), ops.transpose(focus, (0, 2, 1))
            )
        hidden = ops.tanh(
            ops.expand_dims(ops.matmul(source, self.source_kernel), 2)
            + ops.expand_dims(ops.matmul(focus, self.focus_kernel), 1)
        )
        return ops.squeeze(ops.matmul(hidden, self.score_vector), -1)

    def call(self, inputs, mask=None):
        source, focus = inputs
        mask_x, mask_y = unpack_pair_mask(mask)
        source = apply_mask(source, mask_x)
        focus = apply_mask(focus, mask_y)
        scores = self.scores(source, focus)
        key_mask = None if mask_y is None else ops.expand_dims(ops.cast(mask_y, scores.dtype), 1)
        if self.code_faithful:
            # The code's padded keys have score 0 (zero vectors) and stay in the softmax.
            if key_mask is not None:
                scores = scores * key_mask
            weights = ops.softmax(ops.cast(scores, "float32"), axis=-1)
        else:
            weights = masked_softmax(scores, key_mask, axis=-1)
        weights = apply_mask(ops.cast(weights, focus.dtype), mask_x)
        context = ops.matmul(weights, focus)
        if self.return_attention:
            return context, weights
        return context

    def compute_output_shape(self, inputs_shape):
        source_shape, focus_shape = (tuple(s) for s in inputs_shape)
        context_shape = source_shape[:-1] + (focus_shape[-1],)
        if self.return_attention:
            return context_shape, source_shape[:-1] + (focus_shape[1],)
        return context_shape

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "matching": self.matching,
                "attention_units": self.attention_units,
                "code_faithful": self.code_faithful,
                "return_attention": self.return_attention,
                "kernel_initializer": keras.initializers.serialize(self.kernel_initializer),
            }
        )
        return config
