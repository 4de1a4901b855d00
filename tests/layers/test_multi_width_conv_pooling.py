"""MultiWidthConvPooling (Kim 2014): harness checks and NumPy."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import to_numpy

from gcnn_match.layers.multi_width_conv_pooling import MultiWidthConvPooling

B, L, D, FILTERS = 3, 6, 4, 5


def np_multi_width_conv_pooling(layer, x, mask):
    """Each width h: ReLU of every window of h positions that holds a real token (the text
    zero-padded by h - 1 on both sides), max over those windows; the widths concatenated."""
    x = x.astype("float64") * mask[..., None]
    lengths = mask.sum(-1).astype(int)
    pooled = []
    for conv, width in zip(layer.convs, layer.kernel_sizes):
        kernel, bias = to_numpy(conv.kernel), to_numpy(conv.bias)
        padded = np.pad(x, ((0, 0), (width - 1, width - 1), (0, 0)))
        out = np.zeros((x.shape[0], FILTERS))
        for row, n in enumerate(lengths):
            windows = [
                np.maximum(np.einsum("td,tdf->f", padded[row, j : j + width], kernel) + bias, 0)
                for j in range(n + width - 1)  # windows j - h + 1 .. j with j in [0, n + h - 2]
            ]
            out[row] = np.max(windows, axis=0)
        pooled.append(out)
    return np.concatenate(pooled, axis=-1)


@pytest.mark.parametrize("kernel_sizes", [(3, 4, 5), (1, 2)])
def test_harness_and_numpy(kernel_sizes):
    rng = np.random.default_rng(0)
    x, mask = random_inputs(rng, B, L, D, min_length=2)
    mask[2, 2:] = 0  # a text shorter than every width but one
    result = run_layer_test(
        lambda: MultiWidthConvPooling(
            filters=FILTERS, kernel_sizes=kernel_sizes, bias_initializer="random_normal"
        ),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[()],
    )
    layer = result["layer"]
    np.testing.assert_allclose(
        result["outputs"][0], np_multi_width_conv_pooling(layer, x, mask), rtol=1e-5, atol=1e-5
    )
    assert layer.count_params() == sum(FILTERS * (k * D + 1) for k in kernel_sizes)


def test_kims_widths_give_300_features_and_an_empty_text_pools_to_zero():
    layer = MultiWidthConvPooling(bias_initializer="ones")
    x = np.ones((2, 7, 8), "float32")
    mask = np.array([[1.0] * 7, [0.0] * 7], "float32")
    out = np.asarray(layer(x, mask=mask))
    assert out.shape == (2, 300)
    assert np.all(out[0] > 0) and np.all(out[1] == 0)  # relu(1 + ...) > 0; no window: 0


def test_widths_must_be_positive():
    with pytest.raises(ValueError, match="kernel_sizes"):
        MultiWidthConvPooling(kernel_sizes=(3, 0))
