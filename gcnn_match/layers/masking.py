"""Masked reductions shared by every layer.

Masks are float tensors, 1.0 on real tokens and 0.0 on padding, shaped like the sequence
without its feature axis: (B, L). All functions are written with `keras.ops` so they run
under any backend and compile with XLA.
"""

from keras import ops

# Large enough to vanish in a float32 softmax, small enough not to overflow when summed.
NEG_INF = -1e9


def sequence_mask(ids, dtype="float32"):
    """1.0 where `ids` is not the padding id 0."""
    return ops.cast(ops.not_equal(ids, 0), dtype)


def apply_mask(x, mask):
    """Zeroes the padded positions of a (B, L, D) tensor."""
    if mask is None:
        return x
    return x * ops.cast(ops.expand_dims(mask, -1), x.dtype)


def masked_softmax(logits, mask, axis=-1):
    """Softmax over `axis` that gives padded keys zero weight.

    `mask` broadcasts against `logits` (e.g. (B, 1, Lk) for logits (B, Lq, Lk)). Rows whose
    keys are all padding return zeros instead of a uniform distribution or NaN.
    """
    if mask is None:
        return ops.softmax(logits, axis=axis)
    mask = ops.cast(mask, "float32")
    logits = ops.cast(logits, "float32") + (1.0 - mask) * NEG_INF
    weights = ops.softmax(logits, axis=axis) * mask
    return weights


def masked_max(x, mask, axis=1):
    """Max over the real positions of `x` (B, L, D); all-padding rows give 0."""
    if mask is None:
        return ops.max(x, axis=axis)
    m = ops.cast(ops.expand_dims(mask, -1), x.dtype)
    out = ops.max(x + (1.0 - m) * NEG_INF, axis=axis)
    has_any = ops.cast(ops.max(m, axis=axis) > 0, x.dtype)
    return out * has_any


def masked_mean(x, mask, axis=1):
    """Sum over the real positions divided by the true length (B, L, D) -> (B, D)."""
    if mask is None:
        return ops.mean(x, axis=axis)
    m = ops.cast(ops.expand_dims(mask, -1), x.dtype)
    total = ops.sum(x * m, axis=axis)
    length = ops.maximum(ops.sum(m, axis=axis), 1.0)
    return total / length
