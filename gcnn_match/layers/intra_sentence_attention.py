"""Intra-sentence attention with distance-sensitive biases (Parikh et al., EMNLP 2016, §3.4)."""

import keras
from keras import ops

from gcnn_match.layers.masking import (
    ExplicitMaskLayer,
    apply_mask,
    masked_softmax,
    shared_position_mask,
)


@keras.saving.register_keras_serializable(package="gcnn_match")
class IntraSentenceAttention(ExplicitMaskLayer):
    """Each position of a sentence attends over the sentence itself, biased by distance.

    ```
    f_ij  = k_i . k_j
    a'_i  = sum_j softmax_j(f_ij + d(i - j)) v_j
    d(n)  = bias[clip(n, -(c + 1), c + 1)]       c = max_distance, signed_distance=True
    d(n)  = bias[min(|n|, c + 1)]                                  signed_distance=False
    ```

    The keys k are F_intra(a), the sentence through a feed-forward network that the model
    owns, and the values v are the sentence a itself; the model then reads [a_i; a'_i]. "All
    distances greater than 10 words share a bucket": each distance up to max_distance has its
    own scalar bias and every greater one shares one more, so 2 * max_distance + 3 biases when
    the sign of i - j counts (the bias can then tell a word before from a word after),
    max_distance + 2 when it does not. The paper writes d_{i-j}; whether the sign counts is
    not said (docs/attconv.md#decomp-att). Biases start at 0.

    Args:
        max_distance: the greatest distance with a bucket of its own; all greater ones share
            one (10, the paper's).
        signed_distance: one bucket per signed distance (True) or per absolute one.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[keys, values]`, float tensors (B, L, k) and (B, L, d).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.

    Returns:
        A float tensor (B, L, d): a'.

    Masking:
        Explicit mask. Padded keys get exactly zero weight, padded values are zeroed and the
        output is 0 at padded positions, so padding never changes a real position's output.

    Example:

    >>> keys, values = keras.random.normal((2, 5, 4)), keras.random.normal((2, 5, 8))
    >>> tuple(IntraSentenceAttention()([keys, values], mask=keras.ops.ones((2, 5))).shape)
    (2, 5, 8)

    References:
        Parikh, Täckström, Das and Uszkoreit, "A Decomposable Attention Model for Natural
        Language Inference", EMNLP 2016, §3.4 (Eq. 6-7).
    """

    def __init__(self, max_distance=10, signed_distance=True, **kwargs):
        super().__init__(**kwargs)
        if int(max_distance) < 0:
            raise ValueError(f"max_distance must be >= 0, got {max_distance}.")
        self.max_distance = int(max_distance)
        self.signed_distance = bool(signed_distance)

    @property
    def shared_bucket(self):
        """The distance whose bucket every greater distance shares."""
        return self.max_distance + 1

    def build(self, input_shape):
        buckets = (2 if self.signed_distance else 1) * self.shared_bucket + 1
        self.distance_bias = self.add_weight(
            name="distance_bias", shape=(buckets,), initializer="zeros"
        )

    def _buckets(self, length):
        """(L, L) bucket index of each offset i - j."""
        positions = ops.arange(length)
        offsets = positions[:, None] - positions[None, :]
        shared = self.shared_bucket
        if self.signed_distance:
            return ops.clip(offsets, -shared, shared) + shared
        return ops.minimum(ops.abs(offsets), shared)

    def call(self, inputs, mask=None):
        keys, values = inputs
        mask = shared_position_mask(mask)
        keys = apply_mask(keys, mask)
        values = apply_mask(values, mask)
        scores = ops.matmul(keys, ops.transpose(keys, (0, 2, 1)))  # (B, L, L)
        bias = ops.take(self.distance_bias, self._buckets(ops.shape(keys)[1]))
        scores = scores + ops.cast(bias, scores.dtype)[None]
        key_mask = None if mask is None else ops.expand_dims(mask, 1)
        weights = ops.cast(masked_softmax(scores, key_mask, axis=2), values.dtype)
        return apply_mask(ops.matmul(weights, values), mask)

    def compute_output_shape(self, inputs_shape):
        keys_shape, values_shape = (tuple(s) for s in inputs_shape)
        return keys_shape[:-1] + (values_shape[-1],)

    def get_config(self):
        config = super().get_config()
        config.update({"max_distance": self.max_distance, "signed_distance": self.signed_distance})
        return config
