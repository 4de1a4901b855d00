"""MultiGranular (ATTCONV f_mgran, Eq. 10-12): harness checks and a NumPy re-computation."""

import numpy as np
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_multi_granular

from gcnn_match.layers.multi_granular import MultiGranular

B, L, D = 3, 6, 4


def test_harness_and_numpy():
    x, mask = random_inputs(np.random.default_rng(0), B, L, D)
    result = run_layer_test(
        lambda: MultiGranular(D, (1, 3)), args=[Seq(x)], kwargs={"mask": Mask(mask)}
    )
    layer = result["layer"]
    assert result["outputs"][0].shape == (B, L, 2 * D)
    np.testing.assert_allclose(
        result["outputs"][0], np_multi_granular(layer, x, mask), rtol=1e-5, atol=1e-5
    )
    # The unigram and trigram branches are independent weights.
    assert [b.kernel_size for b in layer.branches] == [1, 3]


def test_weight_count_is_eight_blocks():
    layer = MultiGranular(300, (1, 3))
    layer.build((None, None, 300))
    assert layer.count_params() == 8 * 300 * 300 + 4 * 300
