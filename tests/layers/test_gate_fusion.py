"""GateFusion (COIN Eq. 7-12) and its "simple fusion" ablation."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import sigmoid

from gcnn_match.layers.gate_fusion import GateFusion

B, L, D, UNITS = 3, 6, 5, 4


def _dense(layer, x, relu=False):
    out = x @ np.asarray(layer.kernel, "float64")
    if layer.bias is not None:
        out = out + np.asarray(layer.bias, "float64")
    return np.maximum(out, 0.0) if relu else out


def np_gate_fusion(layer, h, aligned, mask):
    h, aligned = h.astype("float64"), aligned.astype("float64")
    if layer.mode == "simple":
        out = _dense(layer.fusion, np.concatenate([h, aligned], -1), relu=True)
        return out * mask[..., None]
    pairs = ([h, aligned], [h, h - aligned], [h, h * aligned])  # Eq. 7-9
    compared = [
        _dense(g, np.concatenate(p, -1), relu=True) for g, p in zip(layer.comparisons, pairs)
    ]
    fused = _dense(layer.fusion, np.concatenate(compared, -1), relu=True)  # Eq. 10
    gate = sigmoid(_dense(layer.gate_input, h) + _dense(layer.gate_fused, fused))  # Eq. 11
    return (gate * h + (1.0 - gate) * fused) * mask[..., None]  # Eq. 12


@pytest.mark.parametrize("mode", ["gate", "simple"])
def test_harness_and_numpy(mode):
    rng = np.random.default_rng(0)
    h, mask = random_inputs(rng, B, L, D)
    aligned = rng.normal(size=h.shape).astype("float32")
    result = run_layer_test(
        lambda: GateFusion(UNITS, mode=mode, dropout=0.2),
        args=[[Seq(h), Seq(aligned)]],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    layer = result["layer"]
    np.testing.assert_allclose(
        result["outputs"][0], np_gate_fusion(layer, h, aligned, mask), rtol=1e-5, atol=1e-5
    )
    if mode == "gate":
        # G1-G3: 3 (2D * U + U); W_f: 3U * D + D; W_1: D * D (no bias); W_2: D * D + D (b_g).
        expected = 3 * (2 * D * UNITS + UNITS) + 3 * UNITS * D + D + D * D + D * D + D
        assert layer.gate_input.bias is None
    else:
        expected = 2 * D * D + D
    assert layer.count_params() == expected


def test_independent_initial_weights():
    layer = GateFusion(UNITS)
    layer.build([(None, None, D), (None, None, D)])
    g1, g2, _ = (np.asarray(g.kernel) for g in layer.comparisons)
    assert not np.allclose(g1, g2)


def test_list_mask_and_invalid_mode():
    rng = np.random.default_rng(1)
    h, mask = random_inputs(rng, B, L, D)
    layer = GateFusion(UNITS)
    np.testing.assert_allclose(
        np.asarray(layer([h, h], mask=[mask, mask])), np.asarray(layer([h, h], mask=mask))
    )
    with pytest.raises(ValueError):
        GateFusion(UNITS, mode="sum")
