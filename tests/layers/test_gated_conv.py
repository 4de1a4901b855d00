"""GCNN layer (Chen et al. 2018, Eq. 2-3): harness checks and a NumPy re-computation."""

import keras
import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_gcnn

from gcnn_match.layers import GCNN
from gcnn_match.layers.initializers import BlockInitializer

B, L, UNITS = 3, 6, 4


def _inputs(dim, seed=0):
    rng = np.random.default_rng(seed)
    return random_inputs(rng, B, L, dim)


CASES = {
    "identity": {"dim": UNITS, "kwargs": {}},
    "projection": {"dim": 5, "kwargs": {}},
    "projection_initial_memory": {"dim": 5, "kwargs": {"initial_memory": "projection"}},
    "no_forget_gate": {"dim": 5, "kwargs": {"forget_gate": False}},
    "no_output_gate": {"dim": UNITS, "kwargs": {"output_gate": False}},
    "no_gates_k5": {
        "dim": 5,
        "kwargs": {"forget_gate": False, "output_gate": False, "kernel_size": 5},
    },
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_harness_and_numpy(case):
    dim, kwargs = CASES[case]["dim"], CASES[case]["kwargs"]
    x, mask = _inputs(dim)
    result = run_layer_test(
        lambda: GCNN(UNITS, **kwargs),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",), ("x",)],
    )
    layer = result["layer"]
    assert (layer.projection is None) == (dim == UNITS)
    want_h, want_c = np_gcnn(layer, x, mask)
    np.testing.assert_allclose(result["outputs"][0], want_h, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(result["outputs"][1], want_c, rtol=1e-5, atol=1e-5)


def test_harness_with_memory_input():
    x, mask = _inputs(UNITS, seed=1)
    memory = np.random.default_rng(2).normal(size=(B, L, UNITS)).astype("float32")
    result = run_layer_test(
        lambda: GCNN(UNITS),
        args=[Seq(x)],
        kwargs={"memory": Seq(memory), "mask": Mask(mask)},
        output_axes=[("x",), ("x",)],
    )
    want_h, want_c = np_gcnn(result["layer"], x, mask, memory)
    np.testing.assert_allclose(result["outputs"][0], want_h, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(result["outputs"][1], want_c, rtol=1e-5, atol=1e-5)


def test_memory_carried_across_two_layers():
    x, mask = _inputs(5, seed=3)
    first, second = GCNN(UNITS), GCNN(UNITS)
    h1, c1 = first(x, mask=mask)
    h2, c2 = second(h1, memory=c1, mask=mask)
    np_h1, np_c1 = np_gcnn(first, x, mask)
    np_h2, np_c2 = np_gcnn(second, np_h1, mask, memory=np_c1)
    np.testing.assert_allclose(np.asarray(h2), np_h2, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(c2), np_c2, rtol=1e-5, atol=1e-5)
    # C^2 mixes the old memory in: it differs from a layer that restarts from C^0 = 0.
    _, c2_restart = second(h1, mask=mask)
    assert not np.allclose(np.asarray(c2), np.asarray(c2_restart))


def test_projection_initial_memory_makes_first_memory_the_projection():
    x, mask = _inputs(5, seed=4)
    layer = GCNN(UNITS, initial_memory="projection")
    _, cell = layer(x, mask=mask)
    projected = (x * mask[..., None]) @ np.asarray(layer.projection.kernel)
    np.testing.assert_allclose(np.asarray(cell), projected, rtol=1e-5, atol=1e-5)


def test_gate_layout_and_weight_count():
    for kwargs, gates in [
        ({}, ("output", "forget", "candidate")),
        ({"forget_gate": False}, ("output", "candidate")),
        ({"output_gate": False}, ("forget", "candidate")),
    ]:
        layer = GCNN(UNITS, **kwargs)
        layer.build((None, None, 5))
        assert layer.gate_names == gates
        n = len(gates)
        # fused kernel k*m*(n*units) + bias n*units + projection m*units
        assert layer.count_params() == 3 * 5 * n * UNITS + n * UNITS + 5 * UNITS


def test_block_initializer_matches_separate_kernels():
    init = BlockInitializer("glorot_uniform", 3)
    kernel = np.asarray(init((3, 60, 3 * 60)))
    blocks = np.split(kernel, 3, axis=-1)
    limit = np.sqrt(6.0 / (3 * 60 + 3 * 60))  # Glorot of one Conv1D(60) with k = 3, m = 60
    for block in blocks:
        assert np.abs(block).max() <= limit
        assert np.abs(block).max() > 0.9 * limit
    assert not np.allclose(blocks[0], blocks[1])
    seeded = BlockInitializer({"class_name": "GlorotUniform", "config": {"seed": 7}}, 2)
    np.testing.assert_array_equal(np.asarray(seeded((3, 4, 8))), np.asarray(seeded((3, 4, 8))))


def test_invalid_initial_memory():
    with pytest.raises(ValueError):
        GCNN(UNITS, initial_memory="ones")


def test_unfused_gate_convolutions_compute_the_same_layer():
    from gcnn_match.layers.conv_encoder import ConvEncoder
    from gcnn_match.layers.fused_conv import set_fused

    x, mask = _inputs(5)
    layer = GCNN(UNITS, fused=False)
    assert GCNN.from_config(layer.get_config()).fused is False
    inputs = keras.Input((None, 5))
    model = keras.Model(inputs, ConvEncoder("gcnn", 2, UNITS)(inputs))
    fused = np.asarray(model(x))
    assert set_fused(model, False) == 2  # both GCNN layers of the encoder
    np.testing.assert_allclose(np.asarray(model(x)), fused, rtol=1e-5, atol=1e-6)
    h, c = layer(x, mask=mask)
    want_h, want_c = np_gcnn(layer, x, mask)
    np.testing.assert_allclose(np.asarray(h), want_h, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(c), want_c, rtol=1e-5, atol=1e-5)
