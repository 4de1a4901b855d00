"""Dynamic p x q max-pooling of a pair grid over its true n x m region (C-LSTMs §4.3)."""

import keras
from keras import ops

from gcnn_match.layers.masking import NEG_INF, ExplicitMaskLayer, unpack_pair_mask


def region_membership(mask, num_regions):
    """(B, R, L) float: 1 where position l falls in region r of its sequence's real part.

    Region r covers positions floor(r * n / R) ... floor((r + 1) * n / R) - 1 of the true
    length n; when n < R a region would be empty, so it takes the row at its start instead
    (repeating rows, as Socher et al. 2011 do for short sentences) [U→S,
    docs/clstm.md#output-layers].
    """
    length = ops.sum(ops.cast(mask, "int32"), axis=1)[:, None]  # (B, 1)
    regions = ops.arange(num_regions, dtype="int32")[None, :]  # (1, R)
    start = (regions * length) // num_regions
    end = ops.maximum(((regions + 1) * length) // num_regions, start + 1)
    end = ops.minimum(end, ops.maximum(length, 1))
    positions = ops.arange(ops.shape(mask)[1], dtype="int32")[None, None, :]
    inside = ops.logical_and(positions >= start[..., None], positions < end[..., None])
    real = ops.cast(mask, "bool")[:, None, :]
    return ops.cast(ops.logical_and(inside, real), "float32")


@keras.saving.register_keras_serializable(package="gcnn_match")
class DynamicPooling(ExplicitMaskLayer):
    """Max-pools each feature of an n x m grid into p x q roughly equal regions.

    The rows (sentence X) of the true n x m region are split into p non-overlapping parts
    and the columns (sentence Y) into q, from each pair's TRUE lengths (see
    `region_membership`); each feature's maximum in each of the p x q regions is kept. The
    result is flattened region by region (row region major), p * q * d values. The paper
    uses (p, q) = (1, 1) (a global max over the real cells) for RTE and (2, 1) for MQA.

    Args:
        pool_size: (p, q), regions along the row (X) and column (Y) axes.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, n, m, d), e.g. the output of `CoupledLSTM`.
        mask: optional list `[mask_x, mask_y]`, float (B, n) and (B, m), 1 on real tokens.
            Padding must be at the end.

    Returns:
        Float tensor (B, p * q * d).

    Masking:
        Cells outside the real n x m region get -1e9 before the max, so padding never wins;
        a pair with an empty sentence gives zeros. No Keras mask is propagated.

    Example:

    >>> grid = keras.random.normal((2, 5, 4, 6))
    >>> tuple(DynamicPooling((2, 1))(grid).shape)
    (2, 12)

    References:
        Liu, Qiu, Zhou, Chen and Huang, EMNLP 2016, §4.3 and Table 1 (pooling sizes), after
        the dynamic pooling of Socher, Huang, Pennington, Ng and Manning, NIPS 2011.
    """

    def __init__(self, pool_size=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.pool_size = tuple(int(v) for v in pool_size)
        if len(self.pool_size) != 2 or min(self.pool_size) < 1:
            raise ValueError(f"pool_size must be two positive ints, got {pool_size}")

    def call(self, inputs, mask=None):
        mask_x, mask_y = unpack_pair_mask(mask)
        shape = ops.shape(inputs)
        if mask_x is None:
            mask_x = ops.ones(shape[:2], dtype=inputs.dtype)
        if mask_y is None:
            mask_y = ops.ones((shape[0], shape[2]), dtype=inputs.dtype)
        p, q = self.pool_size
        rows = ops.cast(region_membership(mask_x, p), inputs.dtype)  # (B, p, n)
        cols = ops.cast(region_membership(mask_y, q), inputs.dtype)  # (B, q, m)
        # The regions are products of a row set and a column set, so the max over a region
        # is the max over its rows of the max over its columns.
        per_col_region = ops.max(
            inputs[:, :, None] + (1.0 - cols[:, None, :, :, None]) * NEG_INF, axis=3
        )
        pooled = ops.max(per_col_region[:, None] + (1.0 - rows[..., None, None]) * NEG_INF, axis=2)
        nonempty = ops.max(rows, axis=2)[:, :, None] * ops.max(cols, axis=2)[:, None, :]
        pooled = pooled * nonempty[..., None]  # (B, p, q, d)
        return ops.reshape(pooled, (shape[0], p * q * inputs.shape[-1]))

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.pool_size[0] * self.pool_size[1] * input_shape[-1])

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": list(self.pool_size)})
        return config
