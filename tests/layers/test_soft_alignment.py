"""SoftAlignment (GCNN Eq. 5-6) and MatchingFeatures (GCNN Eq. 7 / ESIM)."""

import numpy as np
import pytest
from harness import Mask, Seq, random_inputs, run_layer_test
from references import np_masked_softmax

from gcnn_match.layers import MatchingFeatures, SoftAlignment

B, LA, LB, D = 3, 6, 4, 5


def np_soft_alignment(a, b, mask_a, mask_b, values_a=None, values_b=None):
    """Eq. 5-6: e_ij = a_i . b_j; alpha from softmax over j, beta from softmax over i; the
    averages are of the values where given (Parikh et al. 2016, Eq. 2), else of b and a."""
    values_a = (a if values_a is None else values_a) * mask_a[..., None]
    values_b = (b if values_b is None else values_b) * mask_b[..., None]
    a = a * mask_a[..., None]
    b = b * mask_b[..., None]
    e = np.einsum("bid,bjd->bij", a.astype("float64"), b.astype("float64"))
    w_alpha = np_masked_softmax(e, mask_b[:, None, :], axis=2) * mask_a[:, :, None]
    w_beta = np_masked_softmax(e, mask_a[:, :, None], axis=1) * mask_b[:, None, :]
    alpha = np.einsum("bij,bjd->bid", w_alpha, values_b)
    beta = np.einsum("bij,bid->bjd", w_beta, values_a)
    return alpha, beta, w_alpha, np.transpose(w_beta, (0, 2, 1))


def _pair(seed=0):
    rng = np.random.default_rng(seed)
    a, mask_a = random_inputs(rng, B, LA, D)
    b, mask_b = random_inputs(rng, B, LB, D)
    return a, b, mask_a, mask_b


@pytest.mark.parametrize("return_attention", [False, True])
def test_harness_and_numpy(return_attention):
    a, b, mask_a, mask_b = _pair()
    axes = [("a",), ("b",)] + ([("a", "b"), ("b", "a")] if return_attention else [])
    result = run_layer_test(
        lambda: SoftAlignment(return_attention=return_attention),
        args=[[Seq(a, "a"), Seq(b, "b")]],
        kwargs={"mask": [Mask(mask_a, "a"), Mask(mask_b, "b")]},
        output_axes=axes,
    )
    want = np_soft_alignment(a, b, mask_a, mask_b)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
    assert result["layer"].count_params() == 0


@pytest.mark.parametrize("return_attention", [False, True])
def test_values_are_averaged_by_the_scores_of_a_and_b(return_attention):
    """The attend step of the decomposable attention: scores from F(a) and F(b), averages of
    a and b (here of other widths than the scores')."""
    a, b, mask_a, mask_b = _pair(seed=5)
    rng = np.random.default_rng(6)
    values_a = rng.normal(size=(B, LA, 3)).astype("float32")
    values_b = rng.normal(size=(B, LB, 2)).astype("float32")
    axes = [("a",), ("b",)] + ([("a", "b"), ("b", "a")] if return_attention else [])
    result = run_layer_test(
        lambda: SoftAlignment(return_attention=return_attention),
        args=[[Seq(a, "a"), Seq(b, "b"), Seq(values_a, "a"), Seq(values_b, "b")]],
        kwargs={"mask": [Mask(mask_a, "a"), Mask(mask_b, "b")]},
        output_axes=axes,
    )
    want = np_soft_alignment(a, b, mask_a, mask_b, values_a, values_b)
    assert result["outputs"][0].shape == (B, LA, 2) and result["outputs"][1].shape == (B, LB, 3)
    for got, ref in zip(result["outputs"], want):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_weights_are_distributions_over_real_keys():
    a, b, mask_a, mask_b = _pair(seed=1)
    _, _, w_alpha, w_beta = SoftAlignment(return_attention=True)([a, b], mask=[mask_a, mask_b])
    np.testing.assert_allclose(np.asarray(w_alpha).sum(-1), mask_a, atol=1e-5)
    np.testing.assert_allclose(np.asarray(w_beta).sum(-1), mask_b, atol=1e-5)


def test_all_padding_keys_give_zeros_not_nan():
    a, b, mask_a, mask_b = _pair(seed=2)
    mask_b[1] = 0.0  # row 1 of b is all padding: its a-queries have no key to attend to
    outputs = SoftAlignment(return_attention=True)([a, b], mask=[mask_a, mask_b])
    outputs = [np.asarray(o) for o in outputs]
    for out in outputs:
        assert np.all(np.isfinite(out))
    alpha, beta, w_alpha, w_beta = outputs
    np.testing.assert_array_equal(alpha[1], 0.0)
    np.testing.assert_array_equal(w_alpha[1], 0.0)
    np.testing.assert_array_equal(beta[1], 0.0)
    np.testing.assert_array_equal(w_beta[1], 0.0)
    for got, ref in zip(outputs, np_soft_alignment(a, b, mask_a, mask_b)):
        np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)


def test_unscaled_dot_product():
    # Two keys whose scores differ by exactly d: no 1/sqrt(d) scaling in Eq. 5.
    a = np.ones((1, 1, 4), "float32")
    b = np.stack([np.zeros(4), np.ones(4)])[None].astype("float32")
    _, _, w_alpha, _ = SoftAlignment(return_attention=True)([a, b])
    expected = np.exp([0.0, 4.0]) / np.exp([0.0, 4.0]).sum()
    np.testing.assert_allclose(np.asarray(w_alpha)[0, 0], expected, rtol=1e-6)


@pytest.mark.parametrize("difference", ["absolute", "signed"])
def test_matching_features(difference):
    rng = np.random.default_rng(3)
    x, mask = random_inputs(rng, B, LA, D)
    y = rng.normal(size=x.shape).astype("float32")
    result = run_layer_test(
        lambda: MatchingFeatures(difference=difference),
        args=[[Seq(x), Seq(y)]],
        kwargs={"mask": Mask(mask)},
        output_axes=[("x",)],
    )
    diff = np.abs(x - y) if difference == "absolute" else x - y
    want = np.concatenate([x, y, diff, x * y], axis=-1) * mask[..., None]
    np.testing.assert_allclose(result["outputs"][0], want, rtol=1e-6, atol=1e-6)
    with pytest.raises(ValueError):
        MatchingFeatures(difference="squared")


def test_matching_features_without_mask_and_with_list_mask():
    rng = np.random.default_rng(4)
    x, mask = random_inputs(rng, B, LA, D)
    y = rng.normal(size=x.shape).astype("float32")
    layer = MatchingFeatures()
    unmasked = np.asarray(layer([x, y]))
    np.testing.assert_allclose(unmasked[..., :D], x)
    masked = np.asarray(layer([x, y], mask=[mask, mask]))
    np.testing.assert_allclose(masked, unmasked * mask[..., None])
