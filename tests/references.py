"""NumPy re-computations of the layer equations, shared by the layer tests.

Each reference recomputes a layer's output in float64 from the layer's own weights, with
NumPy only, so that a test compares the Keras layer against the paper's equation written
out by hand. Layer-specific references used by one test file stay in that file.
"""

import numpy as np


def to_numpy(variable):
    """A weight (or any array) as float64 NumPy."""
    return np.asarray(variable, "float64")


def sigmoid(x):
    """The logistic function 1 / (1 + exp(-x))."""
    return 1.0 / (1.0 + np.exp(-x))


def np_masked_softmax(logits, mask=None, axis=-1):
    """Softmax over `axis` where mask-0 positions get zero weight (an all-masked row: zeros)."""
    logits = logits.astype("float64")
    if mask is None:
        mask = np.ones_like(logits)
    logits = np.where(mask > 0, logits, -np.inf)
    top = np.max(np.where(mask > 0, logits, -1e30), axis=axis, keepdims=True)
    weights = np.where(mask > 0, np.exp(logits - top), 0.0)
    total = weights.sum(axis=axis, keepdims=True)
    return np.divide(weights, total, out=np.zeros_like(weights), where=total > 0)


def np_conv1d_same(x, kernel, bias=None):
    """Keras' 'same' Conv1D: out_i = sum_t x_{i + t - (k - 1) // 2} kernel_t + b."""
    # x (B, L, m), kernel (k, m, n). Positions outside [0, L) count as zeros: Keras pads
    # (k - 1) // 2 on the left and the rest on the right.
    batch, length, _ = x.shape
    width, _, units = kernel.shape
    left = (width - 1) // 2
    out = np.zeros((batch, length, units), dtype="float64")
    for i in range(length):
        for t in range(width):
            j = i + t - left
            if 0 <= j < length:
                out[:, i, :] += x[:, j, :].astype("float64") @ kernel[t].astype("float64")
    if bias is not None:
        out += bias
    return out


# ---------------------------------------------------------------------------------------
# GCNN (Chen et al. 2018).


def np_gcnn(layer, x, mask, memory=None):
    """GCNN Eq. 2-3 for a `GCNN` layer: (H', C')."""
    m = mask[..., None]
    x = x * m
    kernel = to_numpy(layer.conv.kernel)
    bias = to_numpy(layer.conv.bias)
    pre = np_conv1d_same(x, kernel, bias)
    gates = dict(zip(layer.gate_names, np.split(pre, len(layer.gate_names), axis=-1)))
    if layer.projection is None:
        residual = x
    else:
        residual = x @ to_numpy(layer.projection.kernel)
    if layer.output_gate:
        new = sigmoid(gates["output"]) * np.tanh(gates["candidate"])
    else:
        new = np.maximum(gates["candidate"], 0.0)
    if layer.forget_gate:
        if memory is None:
            memory = residual if layer.initial_memory == "projection" else np.zeros_like(residual)
        f = sigmoid(gates["forget"])
        cell = f * memory + (1.0 - f) * residual
    else:
        cell = residual
    return (new + cell) * m, cell * m


def np_glu(layer, x, mask):
    """GCNN Eq. 1 for a `GLU` layer."""
    m = mask[..., None]
    pre = np_conv1d_same(x * m, to_numpy(layer.conv.kernel), to_numpy(layer.conv.bias))
    linear, gate = np.split(pre, 2, axis=-1)
    return linear * sigmoid(gate) * m


def np_residual_conv(layer, x, mask):
    """The GCNN paper's CNN baseline, ReLU(conv(H) + b) + P(H), for a `ResidualConv`."""
    m = mask[..., None]
    x = x * m
    conv = np_conv1d_same(x, to_numpy(layer.conv.kernel), to_numpy(layer.conv.bias))
    residual = x if layer.projection is None else x @ to_numpy(layer.projection.kernel)
    return (np.maximum(conv, 0.0) + residual) * m


# ---------------------------------------------------------------------------------------
# ATTCONV (Yin & Schütze 2018).


def np_scores(layer, source, focus):
    """ATTCONV Eq. 1-3 (the matching scores) for an `AttentiveContext` layer."""
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
    """ATTCONV Eq. 4: (context, weights); the code-faithful softmax keeps pads with score 0."""
    source = source * mask_x[..., None]
    focus = focus * mask_y[..., None]
    scores = np_scores(layer, source, focus)
    if layer.code_faithful:
        weights = np_masked_softmax(scores * mask_y[:, None, :])
    else:
        weights = np_masked_softmax(scores, mask_y[:, None, :])
    weights = weights * mask_x[:, :, None]
    return weights @ focus, weights


def np_attentive_conv(layer, x, y, mask_x, mask_y, source=None):
    """ATTCONV Eq. 5-6 for an `AttentiveConv` layer: (h_new, weights)."""
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
    """ATTCONV Eq. 7-9 for a `GatedConvUnit`."""
    x = x * mask[..., None]
    pre = np_conv1d_same(x, to_numpy(layer.conv.kernel), to_numpy(layer.conv.bias))
    candidate, gate = np.split(pre, 2, axis=-1)
    gate = sigmoid(gate)
    unigram = x if layer.projection is None else x @ to_numpy(layer.projection.kernel)
    return (gate * unigram + (1.0 - gate) * np.tanh(candidate)) * mask[..., None]


def np_multi_granular(layer, x, mask):
    """ATTCONV Eq. 10-12 for a `MultiGranular`."""
    return np.concatenate([np_gated_conv_unit(b, x, mask) for b in layer.branches], axis=-1)


def np_advanced_attentive_conv(layer, x, y, mask_x, mask_y):
    """ATTCONV Eq. 7-13 for an `AdvancedAttentiveConv`: (h_new, weights)."""
    source = np_multi_granular(layer.source, x, mask_x)
    focus = np_multi_granular(layer.focus, y, mask_y)
    if layer.beneficiary is None:
        start = layer.granularities.index(1) * x.shape[-1]
        beneficiary = source[..., start : start + x.shape[-1]]
    else:
        beneficiary = np_gated_conv_unit(layer.beneficiary, x, mask_x)
    return np_attentive_conv(layer.attentive_conv, beneficiary, focus, mask_x, mask_y, source)


# ---------------------------------------------------------------------------------------
# COIN (Hu et al. 2021).


def np_self_alignment(kernel, h, mask):
    """COIN Eq. 5-6: P = ReLU(H W_c), A = P Pᵀ, C = softmax_j(A) H (padding masked)."""
    h = h.astype("float64") * mask[..., None]
    p = np.maximum(h @ kernel, 0.0)
    a = np.einsum("bik,bjk->bij", p, p)
    weights = np_masked_softmax(a, mask[:, None, :], axis=2)
    return np.einsum("bij,bjd->bid", weights, h) * mask[..., None]
