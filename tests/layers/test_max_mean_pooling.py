"""MaxMeanPooling: masked max, mean and sum over positions, in any order."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test

from gcnn_match.layers import MaxMeanPooling

B, L, D = 3, 6, 4


def np_pool(x, mask, order):
    out = []
    for name in order:
        rows = []
        for b in range(x.shape[0]):
            real = x[b][mask[b] > 0]
            if len(real) == 0:
                rows.append(np.zeros(x.shape[-1]))
            else:
                rows.append(getattr(real, name)(axis=0))
        out.append(np.stack(rows))
    return np.concatenate(out, axis=-1)


@pytest.mark.parametrize("order", [("max", "mean"), ("mean", "max"), ("max",), ("sum",)])
def test_harness_and_numpy(order):
    x, mask = random_inputs(np.random.default_rng(0), B, L, D)
    x = x - 5.0  # all negative: a max that counted zeroed padding would return 0
    result = run_layer_test(
        lambda: MaxMeanPooling(order=order),
        args=[Seq(x)],
        kwargs={"mask": Mask(mask)},
        output_axes=[()],
    )
    assert result["outputs"][0].shape == (B, len(order) * D)
    np.testing.assert_allclose(result["outputs"][0], np_pool(x, mask, order), rtol=1e-5, atol=1e-5)


def test_all_padding_row_pools_to_zero():
    x, mask = random_inputs(np.random.default_rng(1), B, L, D)
    mask[1] = 0.0
    out = np.asarray(MaxMeanPooling()(x, mask=mask))
    assert np.all(np.isfinite(out))
    np.testing.assert_array_equal(out[1], 0.0)


@pytest.mark.parametrize("order", [(), ("max", "max"), ("min",)])
def test_invalid_order(order):
    with pytest.raises(ValueError):
        MaxMeanPooling(order=order)
