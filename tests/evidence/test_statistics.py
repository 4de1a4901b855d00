"""Claims about two rows: the seed-and-test-set bootstrap interval and its verdict."""

import math
import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.evidence.statistics import (
    compare_ratio,
    compare_rows,
    one_sided_p,
    side,
    unit_terms,
    verdict,
)
from gcnn_match.training.metrics import f1


def _normal_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _experiment(rng, means, units, seeds, seed_sd, example_sd=1.5, row_example_sd=0.5):
    """0/1 correctness (seeds, units) of each row: correct when a latent score is above 0.

    The latent score of (row, seed, example) is the row's mean + the example's difficulty
    (shared by both rows, as a test set is) + a row-specific difficulty + the seed's offset +
    unit noise, so a row's expected accuracy over seeds and test sets is exactly
    Φ(mean / total sd).
    """
    difficulty = rng.normal(0.0, example_sd, units)
    rows = []
    for mean in means:
        latent = (
            mean
            + difficulty
            + rng.normal(0.0, row_example_sd, units)
            + rng.normal(0.0, seed_sd, (seeds, 1))
            + rng.normal(0.0, 1.0, (seeds, units))
        )
        rows.append((latent > 0).astype(np.float64))
    total_sd = math.sqrt(example_sd**2 + row_example_sd**2 + seed_sd**2 + 1.0)
    true_delta = _normal_cdf(means[0] / total_sd) - _normal_cdf(means[1] / total_sd)
    return rows, true_delta


@pytest.mark.slow
@pytest.mark.parametrize(
    "seeds,seed_sd",
    [
        (4, 0.15),  # seed noise of Δ about as large as its test-set noise
        (1, 0.0),  # one seed, no seed noise: test-set sampling only
    ],
)
def test_the_95_percent_interval_covers_the_true_delta_about_95_percent_of_the_time(seeds, seed_sd):
    rng = np.random.default_rng(2024)
    draws, covered = 300, 0
    for draw in range(draws):
        (a, b), true_delta = _experiment(rng, (1.2, 1.1), 300, seeds, seed_sd)
        result = compare_rows(a, b, resamples=400, seed=draw)
        covered += result.low <= true_delta <= result.high
    assert 0.90 <= covered / draws <= 0.99


def test_the_estimate_is_the_mean_over_seeds_of_the_row_metric_difference():
    rng = np.random.default_rng(0)
    a, b = rng.random((5, 200)) < 0.8, rng.random((3, 200)) < 0.7
    result = compare_rows(a, b)
    assert result.estimate == pytest.approx(
        np.mean([s.mean() for s in a]) - np.mean([s.mean() for s in b])
    )
    assert result.low < result.estimate < result.high
    assert (result.seeds_a, result.seeds_b, result.units) == (5, 3, 200)


@pytest.mark.parametrize(
    "means,expected,outcome",
    [
        ((1.5, 0.5), "greater", "confirmed"),
        ((0.5, 1.5), "greater", "contradicted"),
        ((0.5, 1.5), "less", "confirmed"),
        ((1.0, 1.0), "greater", "inconclusive"),
    ],
)
def test_verdicts(means, expected, outcome):
    (a, b), _ = _experiment(np.random.default_rng(7), means, 1000, 5, 0.1)
    assert compare_rows(a, b, expected=expected).verdict == outcome


def test_identical_rows_are_inconclusive():
    scores = np.random.default_rng(0).random((3, 100)) < 0.5
    single = compare_rows(scores[0], scores[0])
    assert (single.estimate, single.low, single.high) == (0.0, 0.0, 0.0)
    # Seeds are not paired across rows, so the same seeds resampled twice still spread.
    several = compare_rows(scores, scores)
    assert several.estimate == 0.0 and several.low < 0.0 < several.high
    assert single.verdict == several.verdict == "inconclusive"


@pytest.mark.parametrize(
    "low,high,expected,outcome",
    [
        (0.1, 0.3, "greater", "confirmed"),
        (0.1, 0.3, "less", "contradicted"),
        (-0.3, -0.1, "less", "confirmed"),
        (-0.1, 0.3, "greater", "inconclusive"),
        (0.0, 0.3, "greater", "inconclusive"),  # touching 0 does not exclude it
    ],
)
def test_verdict_reads_the_interval_against_no_difference(low, high, expected, outcome):
    assert verdict(low, high, 0.0, expected) == outcome


def test_one_seed_in_a_row_is_flagged_as_test_sampling_only():
    rng = np.random.default_rng(0)
    one_seed = compare_rows(rng.random(300) < 0.8, rng.random((5, 300)) < 0.6)
    assert one_seed.seeds_a == 1 and not one_seed.seed_variance
    assert "test-set sampling only" in one_seed.note
    assert one_seed.note in one_seed.describe()
    several = compare_rows(rng.random((2, 300)) < 0.8, rng.random((5, 300)) < 0.6)
    assert several.seed_variance and several.note == ""
    assert several.describe().endswith(": confirmed")


def test_the_fixed_seed_makes_the_interval_reproducible():
    rng = np.random.default_rng(0)
    a, b = rng.random((5, 500)) < 0.8, rng.random((5, 500)) < 0.78
    assert compare_rows(a, b) == compare_rows(a, b)
    assert compare_rows(a, b, seed=1) != compare_rows(a, b)


def test_rows_on_different_test_examples_are_rejected():
    with pytest.raises(ValueError, match="row A has 100 test units per seed and row B 99"):
        compare_rows(np.ones((3, 100)), np.ones((3, 99)))


@pytest.mark.parametrize(
    "a,kwargs,message",
    [
        (np.full((2, 10), np.nan), {}, "finite"),
        (np.ones((2, 10, 1)), {}, "expected \\(seeds, units\\)"),
        (np.ones((0, 10)), {}, "expected \\(seeds, units\\)"),
        (np.ones((2, 10)), {"expected": "better"}, "expected must be one of"),
        (np.ones((2, 10)), {"confidence": 95}, "confidence"),
        (np.ones((2, 10)), {"resamples": 0}, "resamples"),
    ],
)
def test_bad_inputs_say_what_is_wrong(a, kwargs, message):
    with pytest.raises(ValueError, match=message):
        compare_rows(a, np.ones((2, 10)), **kwargs)


def test_a_ratio_of_timings_with_its_verdict():
    rng = np.random.default_rng(0)
    fast, slow = rng.lognormal(0.0, 0.05, 10), 3.0 * rng.lognormal(0.0, 0.05, 10)
    result = compare_ratio(fast, slow, expected="less")
    assert result.estimate == pytest.approx(fast.mean() / slow.mean())
    assert result.low < 1 / 3 < result.high
    assert (result.null, result.verdict) == (1.0, "confirmed")
    assert result.describe().startswith("A/B = 0.3")
    assert compare_ratio(fast, slow, expected="greater").verdict == "contradicted"
    assert compare_ratio(fast, fast * 1.001).verdict == "inconclusive"


def _step_seconds(rng, seconds, lengths):
    """Timed steps of a row whose step takes `seconds` on a batch of mean length 1: the time
    grows with the batch's length factor (`lengths`) and a step's own noise, both log-normal.
    With the same noise in both rows, the true ratio of two rows' mean step times is the ratio
    of their `seconds`."""
    return seconds * lengths * rng.lognormal(0.0, 0.2, len(lengths))


@pytest.mark.parametrize(
    "steps,same_batches,low,high",
    [
        (20, False, 0.90, 0.99),  # separate runs on their own batches, as in results/bench.json
        (5, False, 0.78, 0.92),  # few steps: the percentile interval is too narrow
        (10, True, 0.95, 1.00),  # same batches, resampled independently: conservative
    ],
)
def test_the_95_percent_interval_of_a_time_ratio_covers_the_true_ratio(
    steps, same_batches, low, high
):
    rng = np.random.default_rng(5)
    draws, covered = 300, 0
    for draw in range(draws):
        lengths_a = rng.lognormal(0.0, 0.3, steps)
        lengths_b = lengths_a if same_batches else rng.lognormal(0.0, 0.3, steps)
        a, b = _step_seconds(rng, 3.0, lengths_a), _step_seconds(rng, 1.0, lengths_b)
        result = compare_ratio(a, b, expected="greater", resamples=400, seed=draw)
        covered += result.low <= 3.0 <= result.high
    assert low <= covered / draws <= high


@pytest.mark.parametrize(
    "values,message", [([1.0], "at least 2 repeats"), ([1.0, -1.0], "positive")]
)
def test_a_ratio_needs_two_positive_repeats_per_row(values, message):
    with pytest.raises(ValueError, match=message):
        compare_ratio(values, [1.0, 1.1])


@pytest.mark.slow
def test_the_module_imports_without_tensorflow():
    code = (
        "import sys, gcnn_match.evidence.statistics; "
        "assert not {'tensorflow', 'keras', 'jax', 'torch'} & set(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_f1_terms_sum_to_the_f1_of_any_set_of_units():
    rng = np.random.default_rng(3)
    gold, predicted = rng.integers(0, 3, 500), rng.integers(0, 3, 500)
    scores, below = unit_terms(predicted, gold, positive=1)
    for units in (np.arange(500), np.arange(37), rng.integers(0, 500, 500)):
        assert scores[units].sum() / below[units].sum() == pytest.approx(
            f1(gold[units], predicted[units], positive=1)
        )
    assert unit_terms(predicted, gold)[1] is None  # accuracy: a mean
    scores, below = unit_terms([[1, 0, 1]], [1, 0, 0], positive=1)  # lists too
    assert scores.tolist() == [[2.0, 0.0, 0.0]] and below.tolist() == [[2.0, 0.0, 1.0]]


def test_a_ratio_metric_whose_denominators_are_one_is_the_mean():
    rng = np.random.default_rng(4)
    a, b = ((rng.random((5, 400)) < p).astype(float) for p in (0.8, 0.7))
    mean = compare_rows(a, b, resamples=500)
    ratio = compare_rows(a, b, resamples=500, denominators=(np.ones_like(a), np.ones_like(b)))
    assert (ratio.estimate, ratio.low, ratio.high) == pytest.approx(
        (mean.estimate, mean.low, mean.high)
    )


def _f1_terms_of_seeds(rng, gold, accuracy, seeds=5):
    """Per seed, predictions right with probability `accuracy`, as F1 terms of class 1."""
    right = rng.random((seeds, len(gold))) < accuracy
    return unit_terms(np.where(right, gold, 1 - gold), gold, positive=1)


def test_an_f1_difference_is_the_mean_over_seeds_of_each_seed_s_f1():
    rng = np.random.default_rng(5)
    gold = rng.integers(0, 2, 2000)
    (score_a, below_a), (score_b, below_b) = (
        _f1_terms_of_seeds(rng, gold, accuracy) for accuracy in (0.9, 0.7)
    )
    result = compare_rows(score_a, score_b, resamples=2000, denominators=(below_a, below_b))
    per_seed = [s.sum(axis=1) / d.sum(axis=1) for s, d in ((score_a, below_a), (score_b, below_b))]
    assert result.estimate == pytest.approx(per_seed[0].mean() - per_seed[1].mean())
    assert result.low < result.estimate < result.high and result.verdict == "confirmed"


def test_replicates_at_no_difference_up_to_rounding_are_ties():
    replicates = np.array([1e-17, -1e-17, 0.5, -0.5])
    assert one_sided_p(replicates, 0.0, "greater") == 0.75
    assert one_sided_p(replicates, 0.0, "less") == 0.75


def test_an_interval_ending_at_no_difference_up_to_rounding_resolves_nothing():
    assert verdict(1e-17, 0.3, 0.0, "greater") == "inconclusive"
    assert verdict(-0.3, -1e-17, 0.0, "greater") == "inconclusive"


def test_a_value_within_the_tie_of_a_threshold_sits_at_it():
    assert [side(value, 0.5) for value in (0.5 + 1e-12, 0.5 - 1e-12, 0.6, 0.4)] == [0, 0, 1, -1]
    assert side(np.array([1.0, 1.0 + 2e-9, 1.0 - 2e-9]), 1.0).tolist() == [0, 1, -1]
    with pytest.raises(ValueError, match="NaN"):
        side(np.array([0.1, np.nan]), 0.0)
