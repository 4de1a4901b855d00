"""ConvEncoder: stacks of one conv variant, memory carried across GCNN layers."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_gcnn, np_glu, np_residual_conv

from gcnn_match.layers import GCNN, GLU, ConvEncoder, ResidualConv

B, L, UNITS = 3, 6, 4
VARIANTS = ["gcnn", "gcnn_no_forget", "gcnn_no_output", "glu", "cnn"]


def np_encoder(encoder, x, mask):
    """The stack in NumPy, carrying (H, C) from layer to layer for the GCNN variants."""
    hidden, memory = x, None
    for layer in encoder.conv_layers:
        if isinstance(layer, GCNN):
            hidden, memory = np_gcnn(layer, hidden, mask, memory)
        elif isinstance(layer, GLU):
            hidden = np_glu(layer, hidden, mask)
        else:
            hidden = np_residual_conv(layer, hidden, mask)
    return hidden


@pytest.mark.parametrize("variant", VARIANTS)
def test_harness_and_numpy(variant):
    x, mask = random_inputs(np.random.default_rng(0), B, L, 5)
    result = run_layer_test(
        lambda: ConvEncoder(variant, num_layers=2, units=UNITS),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    encoder = result["layer"]
    assert len(encoder.conv_layers) == 2
    np.testing.assert_allclose(
        result["outputs"][0], np_encoder(encoder, x, mask), rtol=1e-5, atol=1e-5
    )


def test_harness_with_dropout_and_projection_memory():
    x, mask = random_inputs(np.random.default_rng(1), B, L, 5)
    result = run_layer_test(
        lambda: ConvEncoder("gcnn", 3, UNITS, initial_memory="projection", dropout=0.5),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    encoder = result["layer"]
    # Inference: dropout is off and the stack equals its NumPy re-computation.
    np.testing.assert_allclose(
        result["outputs"][0], np_encoder(encoder, x, mask), rtol=1e-5, atol=1e-5
    )
    trained = np.asarray(encoder(x, mask=mask, training=True))
    assert not np.allclose(trained, result["outputs"][0])
    assert np.all(trained * (1.0 - mask[..., None]) == 0.0)


def test_memory_is_carried_between_layers():
    x, mask = random_inputs(np.random.default_rng(2), B, L, UNITS)
    encoder = ConvEncoder("gcnn", 2, UNITS)
    out = np.asarray(encoder(x, mask=mask))
    first, second = encoder.conv_layers
    h1, c1 = first(x, mask=mask)
    carried, _ = second(h1, memory=c1, mask=mask)
    restarted, _ = second(h1, mask=mask)
    np.testing.assert_allclose(out, np.asarray(carried), rtol=1e-6, atol=1e-6)
    assert not np.allclose(out, np.asarray(restarted))


def test_variant_table_and_projection_only_in_first_layer():
    classes = {
        "gcnn": GCNN,
        "gcnn_no_forget": GCNN,
        "gcnn_no_output": GCNN,
        "glu": GLU,
        "cnn": ResidualConv,
    }
    for variant, cls in classes.items():
        encoder = ConvEncoder(variant, 3, UNITS)
        encoder.build((None, None, 7))
        assert all(type(layer) is cls for layer in encoder.conv_layers)
        if cls is not GLU:
            projections = [layer.projection is not None for layer in encoder.conv_layers]
            assert projections == [True, False, False]
    assert not ConvEncoder("gcnn_no_forget", 1, UNITS).conv_layers[0].forget_gate
    assert not ConvEncoder("gcnn_no_output", 1, UNITS).conv_layers[0].output_gate
    with pytest.raises(ValueError):
        ConvEncoder("lstm", 2, UNITS)


def _count(variant, num_layers, input_dim):
    encoder = ConvEncoder(variant, num_layers, 300)
    encoder.build((None, None, input_dim))
    return encoder.count_params()


def test_paper_gcnn_parameter_count():
    # GCNN paper, Sec. 3.2: 300-d inputs, 4 context layers, 2 aggregation layers over the
    # 1200-d comparison vectors, hidden 300, kernel width k = 3 (embeddings and MLP excluded).
    # One GCNN layer m_in -> n: three gate convolutions k*m_in*n + three biases n, plus the
    # bias-free projection W_p (m_in*n) when m_in != n.
    # Context layer (300 -> 300): 3*(3*300*300) + 3*300 = 810,000 + 900 = 810,900
    #   x 4 layers                                                       = 3,243,600
    # Aggregation layer 1 (1200 -> 300): 3*(3*1200*300) + 3*300 + 1200*300
    #                                  = 3,240,000 + 900 + 360,000       = 3,600,900
    # Aggregation layer 2 (300 -> 300):                                  =   810,900
    #   aggregation total                                                = 4,411,800
    # Encoders total: 3,243,600 + 4,411,800                              = 7,655,400
    context = _count("gcnn", 4, 300)
    aggregation = _count("gcnn", 2, 1200)
    assert context == 3_243_600
    assert aggregation == 4_411_800
    assert context + aggregation == 7_655_400


def test_baseline_parameter_counts():
    # Same encoders for the other rows (k = 3, hidden 300):
    # CNN: conv 3*m*300 + 300 (+ 1200*300 projection in aggregation layer 1)
    #   4*270,300 + (1,080,300 + 360,000) + 270,300                      = 2,791,800
    # GLU: two convs 2*(3*m*300) + 600, no residual so no projection
    #   4*540,600 + 2,160,600 + 540,600                                  = 4,863,600
    # GCNN - forget gate / - output gate: two gate convs 2*(3*m*300) + 600 (+ projection)
    #   4*540,600 + (2,160,600 + 360,000) + 540,600                      = 5,223,600
    expected = {
        "cnn": 2_791_800,
        "glu": 4_863_600,
        "gcnn_no_forget": 5_223_600,
        "gcnn_no_output": 5_223_600,
    }
    for variant, count in expected.items():
        assert _count(variant, 4, 300) + _count(variant, 2, 1200) == count, variant
