"""Explicit masks shared by every layer: the base layer and the masked reductions.

Masks are float tensors, 1.0 on real tokens and 0.0 on padding, shaped like the sequence
without its feature axis: (B, L). They are passed explicitly as the `mask` call argument and
never travel as implicit Keras masks. All functions are written with `keras.ops` so they run
under any backend and compile with XLA.
"""

import keras
from keras import ops

# Large enough to vanish in a float32 softmax, small enough not to overflow when summed.
NEG_INF = -1e9


class ExplicitMaskLayer(keras.layers.Layer):
    """Base of the layers that take their float masks explicitly and emit no Keras mask.

    Every layer of the package consumes its `mask` call argument itself (zeroing padding,
    excluding padded keys from softmaxes and reductions) and returns outputs that are
    already zero at padding, so no implicit mask follows its outputs. Overriding
    `compute_mask` also tells Keras the layer supports masking, which keeps it from warning
    that an explicitly passed mask is "destroyed".

    Args:
        **kwargs: base `keras.layers.Layer` arguments.

    Masking:
        Explicit masks in, no Keras mask out: `compute_mask` returns None whatever the
        inputs and masks (pairs included).

    References:
        Keras 3 `keras.layers.Layer.compute_mask` and `supports_masking`.
    """

    def compute_mask(self, inputs, mask=None):
        return None


def unpack_pair_mask(mask):
    """`[mask_a, mask_b]` of a pair of inputs as a pair; None gives `(None, None)`."""
    return (None, None) if mask is None else mask


def shared_position_mask(mask):
    """The one mask of inputs that share their positions: the first input's mask.

    Keras fills `mask` per input (`[None, None]` without implicit masks), so a list or
    tuple gives its first entry; a single mask or None is returned as it is.
    """
    return mask[0] if isinstance(mask, (list, tuple)) else mask


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


def masked_sum(x, mask, axis=1):
    """Sum over the real positions of `x` (B, L, D) -> (B, D)."""
    return ops.sum(apply_mask(x, mask), axis=axis)


def masked_mean(x, mask, axis=1):
    """Sum over the real positions divided by the true length (B, L, D) -> (B, D)."""
    if mask is None:
        return ops.mean(x, axis=axis)
    m = ops.cast(ops.expand_dims(mask, -1), x.dtype)
    length = ops.maximum(ops.sum(m, axis=axis), 1.0)
    return masked_sum(x, mask, axis) / length
