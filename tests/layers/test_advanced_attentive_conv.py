"""AdvancedAttentiveConv (ATTCONV Eq. 7-13): harness checks, NumPy re-computation, counts."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_advanced_attentive_conv

from gcnn_match.layers.advanced_attentive_conv import AdvancedAttentiveConv

B, LX, LY, D, UNITS = 3, 5, 4, 4, 3
CASES = {
    "default": {},
    "separate_focus": {"share_focus_weights": False},
    "separate_beneficiary": {"share_beneficiary_weights": False},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_harness_and_numpy(case):
    rng = np.random.default_rng(0)
    x, mask_x = random_inputs(rng, B, LX, D)
    y, mask_y = random_inputs(rng, B, LY, D)
    result = run_layer_test(
        lambda: AdvancedAttentiveConv(UNITS, return_attention=True, **CASES[case]),
        args=[[Seq(x, "x"), Seq(y, "y")]],
        kwargs={"mask": [Mask(mask_x, "x"), Mask(mask_y, "y")]},
        output_axes=[("x",), ("x", "y")],
    )
    want = np_advanced_attentive_conv(result["layer"], x, y, mask_x, mask_y)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "case,blocks,biases",
    [
        # f_mgran 8 d^2 (4 biases of d), whose unigram branch is f_bene (Eq. 13 = Eq. 10),
        # + W1 3 d^2 + W2 2 d^2 (1 bias): 13 d^2 (docs/attconv.md#the-beneficiary-eq-13).
        ("default", 13, 5),
        # f_bene with its own unigram f_gconv: + 2 d^2 (2 biases).
        ("separate_beneficiary", 15, 7),
        # A second f_mgran for the focus: 21 d^2.
        ("separate_focus", 21, 9),
    ],
)
def test_weight_counts_do_not_reach_table_7(case, blocks, biases):
    d = 300
    layer = AdvancedAttentiveConv(d, **CASES[case])
    layer.build([(None, None, d), (None, None, d)])
    assert layer.count_params() == blocks * d * d + biases * d
    # Table 7 says 900K = 10 d^2 for advanced: only W_h = W_g inside f_gconv (against
    # Eq. 7-8) with a separate f_bene gives it.
    assert blocks * d * d != 900_000


def test_shared_beneficiary_needs_a_unigram_branch():
    with pytest.raises(ValueError, match="granularity 1"):
        AdvancedAttentiveConv(4, granularities=(3,))
    AdvancedAttentiveConv(4, granularities=(3,), share_beneficiary_weights=False)
