"""NumPy re-computations of the ATTCONV equations (Yin & Schütze 2018, Eq. 1-13) from a
layer's own weights, shared by the ATTCONV layer tests."""

import numpy as np
from harness import np_conv1d_same, sigmoid, to_numpy


def np_softmax(logits, key_mask=None):
    """Softmax over the last axis; with `key_mask`, padded keys get exactly zero weight."""
    logits = logits.astype("float64")
    if key_mask is not None:
        logits = np.where(key_mask > 0, logits, -np.inf)
    top = np.max(np.where(np.isfinite(logits), logits, -1e30), axis=-1, keepdims=True)
    weights = np.exp(logits - top)
    total = weights.sum(-1, keepdims=True)
    return np.divide(weights, total, out=np.zeros_like(weights), where=total > 0)


def np_scores(layer, source, focus):
    """Eq. 1-3 for an `AttentiveContext` layer."""
    if layer.matching == "dot":
        return np.einsum("bid,bjd->bij", source, focus)
    if layer.matching == "bilinear":
        return np.einsum("bid,de,bje->bij", source, to_numpy(layer.bilinear_kernel), focus)
    hidden = np.tanh(
        (source @ to_numpy(layer.source_kernel))[:, :, None, :]
        + (focus @ to_numpy(layer.focus_kernel))[:, None, :, :]
    )
    return (hidden @ to_numpy(layer.score_vector))[..., 0]


def np_attentive_context(layer, source, focus, mask_x, mask_y):
    """Eq. 4: (context, weights); the code-faithful softmax keeps pads with score 0."""
    source = source * mask_x[..., None]
    focus = focus * mask_y[..., None]
    scores = np_scores(layer, source, focus)
    if layer.code_faithful:
        weights = np_softmax(scores * mask_y[:, None, :])
    else:
        weights = np_softmax(scores, mask_y[:, None, :])
    weights = weights * mask_x[:, :, None]
    return weights @ focus, weights


def np_attentive_conv(layer, x, y, mask_x, mask_y, source=None):
    """Eq. 5-6 for an `AttentiveConv` layer: (h_new, weights)."""
    source = x if source is None else source
    context, weights = np_attentive_context(layer.attention, source, y, mask_x, mask_y)
    conv_input = x if layer.code_faithful else x * mask_x[..., None]
    pre = (
        np_conv1d_same(conv_input, to_numpy(layer.conv.kernel))
        + context @ to_numpy(layer.context_projection.kernel)
        + to_numpy(layer.bias)
    )
    return np.tanh(pre) * mask_x[..., None], weights


def np_gated_conv_unit(layer, x, mask):
    """Eq. 7-9 for a `GatedConvUnit`."""
    x = x * mask[..., None]
    pre = np_conv1d_same(x, to_numpy(layer.conv.kernel), to_numpy(layer.conv.bias))
    candidate, gate = np.split(pre, 2, axis=-1)
    gate = sigmoid(gate)
    unigram = x if layer.projection is None else x @ to_numpy(layer.projection.kernel)
    return (gate * unigram + (1.0 - gate) * np.tanh(candidate)) * mask[..., None]


def np_multi_granular(layer, x, mask):
    """Eq. 10-12 for a `MultiGranular`."""
    return np.concatenate([np_gated_conv_unit(b, x, mask) for b in layer.branches], axis=-1)


def np_advanced_attentive_conv(layer, x, y, mask_x, mask_y):
    """Eq. 7-13 for an `AdvancedAttentiveConv`: (h_new, weights)."""
    source = np_multi_granular(layer.source, x, mask_x)
    focus = np_multi_granular(layer.focus, y, mask_y)
    if layer.beneficiary is None:
        start = layer.granularities.index(1) * x.shape[-1]
        beneficiary = source[..., start : start + x.shape[-1]]
    else:
        beneficiary = np_gated_conv_unit(layer.beneficiary, x, mask_x)
    return np_attentive_conv(layer.attentive_conv, beneficiary, focus, mask_x, mask_y, source)
