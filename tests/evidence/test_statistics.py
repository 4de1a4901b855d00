"""Claims about two rows: the seed-and-test-set interval and its verdict."""

import functools
import math
import subprocess
import sys

import numpy as np
import pytest
import threadpoolctl
from scipy.special import ndtr

from gcnn_match.evidence.statistics import (
    compare_ratio,
    compare_rows,
    compare_vote,
    one_sided_p,
    side,
    unit_terms,
    verdict,
)
from gcnn_match.training.metrics import f1


def _normal_cdf(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _experiment(
    rng,
    means,
    units,
    seeds,
    seed_sd,
    example_sd=1.5,
    row_example_sd=0.5,
    unit_sd=1.0,
    experiments=None,
):
    """0/1 correctness (seeds, units) of each row: correct when a latent score is above 0.

    The latent score of (row, seed, example) is the row's mean + the example's difficulty
    (shared by both rows, as a test set is) + a row-specific difficulty + the seed's offset +
    unit noise (sd `unit_sd`, the seed-by-example interaction), so a row's expected accuracy
    over seeds and test sets is exactly Φ(mean / total sd). With `experiments`, each row is
    (experiments, seeds, units): that many independent experiments at once.
    """
    lead = () if experiments is None else (experiments,)
    difficulty = rng.normal(0.0, example_sd, (*lead, 1, units))
    rows = []
    for mean in means:
        latent = (
            mean
            + difficulty
            + rng.normal(0.0, row_example_sd, (*lead, 1, units))
            + rng.normal(0.0, seed_sd, (*lead, seeds, 1))
            + rng.normal(0.0, unit_sd, (*lead, seeds, units))
        )
        rows.append((latent > 0).astype(np.float64))
    total_sd = math.sqrt(example_sd**2 + row_example_sd**2 + seed_sd**2 + unit_sd**2)
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


# The few-seeds simulations: rows whose per-example correctness is nearly fixed (as a trained
# model's is) so that the seed noise of a row can be set from well below the test-set noise of Δ
# to well above it.
MEANS, UNITS = (1.2, 1.1), 300
NEARLY_FIXED = {"row_example_sd": 1.0, "unit_sd": 0.15}


def _noise_ratio(seeds, seed_sd, rng, experiments=200):
    """Seed noise against test-set noise: the sd over seeds of row A's per-seed accuracy over
    the test-set standard error of Δ (the sd over units of the seed-averaged per-unit difference
    A − B, over √units), each the root of its mean square over `experiments`."""
    (a, b), _ = _experiment(
        rng, MEANS, UNITS, seeds, seed_sd, experiments=experiments, **NEARLY_FIXED
    )
    seed_variance = a.mean(axis=2).var(axis=1, ddof=1).mean()
    difference = a.mean(axis=1) - b.mean(axis=1)
    test_variance = difference.var(axis=1, ddof=1).mean() / UNITS
    return math.sqrt(seed_variance / test_variance)


def _seed_sd(seeds, ratio, rng):
    """The latent seed sd at which `_noise_ratio` is `ratio`, interpolated on a grid."""
    grid = np.array([0.0, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3, 0.45, 0.6, 0.8])
    ratios = np.maximum.accumulate([_noise_ratio(seeds, sd, rng) for sd in grid])
    assert ratios[0] < ratio < ratios[-1], f"noise ratio {ratio} is out of reach: {ratios}"
    return float(np.interp(ratio, ratios, grid))


def _percentile_bootstrap(a, b, resamples, seed):
    """The 95% percentile interval of the two-factor bootstrap that also resamples seeds: each
    replicate draws the seeds of A and of B with replacement and one set of units for both."""
    rng = np.random.default_rng(seed)
    units = _draw_weights(rng, a.shape[1], resamples)
    rows = [(_draw_weights(rng, len(r), resamples) * (units @ r.T)).sum(1) for r in (a, b)]
    return np.quantile(rows[0] - rows[1], [0.025, 0.975])


def _draw_weights(rng, count, resamples):
    """(resamples, count): the share of each of `count` items in a draw of as many with
    replacement."""
    picked = rng.integers(0, count, (resamples, count)) + count * np.arange(resamples)[:, None]
    return np.bincount(picked.ravel(), minlength=resamples * count).reshape(-1, count) / count


@functools.lru_cache(maxsize=None)
def _coverage(seeds, ratio, draws, resamples=400):
    """(seed_sd, coverage, mean width) of the 95% interval over `draws` experiments of `seeds`
    seeds a row at noise ratio `ratio` (`_noise_ratio`); coverage and width hold `compare_rows`
    first, the percentile bootstrap over seeds and units (`_percentile_bootstrap`) second."""
    rng = np.random.default_rng(seeds * 100 + int(10 * ratio))
    seed_sd = _seed_sd(seeds, ratio, rng)
    (a, b), true_delta = _experiment(
        rng, MEANS, UNITS, seeds, seed_sd, experiments=draws, **NEARLY_FIXED
    )
    intervals = []
    # Many small matrix products: one BLAS thread each, or threads contend on a busy machine.
    with threadpoolctl.threadpool_limits(1):
        for draw in range(draws):
            result = compare_rows(a[draw], b[draw], resamples=resamples, seed=draw)
            old = _percentile_bootstrap(a[draw], b[draw], resamples, draw)
            intervals.append([[result.low, result.high], old])
    low, high = np.moveaxis(np.array(intervals), 2, 0)
    covered = (low <= true_delta) & (true_delta <= high)
    return seed_sd, covered.mean(axis=0), (high - low).mean(axis=0)


def print_coverage_table(draws=1000, resamples=400):
    """Print coverage and mean width of the 95% interval per seeds a row and noise ratio, for
    `compare_rows` and for the percentile bootstrap over seeds and units. From the repository
    root: `PYTHONPATH=$PWD:tests/evidence python -c "import test_statistics as t;
    t.print_coverage_table()"`."""
    print("seeds  ratio  seed_sd  coverage: t  percentile  width: t  percentile")
    for seeds in (3, 5, 10):
        for ratio in (0.5, 1.0, 4.0):
            seed_sd, coverage, width = _coverage(seeds, ratio, draws, resamples)
            print(
                f"{seeds:5d}  {ratio:5.1f}  {seed_sd:7.3f}  {coverage[0]:11.3f}  "
                f"{coverage[1]:10.3f}  {width[0]:8.4f}  {width[1]:10.4f}"
            )


@pytest.mark.slow
@pytest.mark.parametrize("seeds", [3, 5, 10])
def test_the_interval_covers_at_few_seeds_when_seed_noise_is_4x_the_test_set_noise(seeds):
    _, coverage, _ = _coverage(seeds, 4.0, draws=500)
    assert coverage[0] >= 0.94


@pytest.mark.slow
def test_a_percentile_bootstrap_over_5_seeds_undercovers_where_the_interval_does_not():
    _, coverage, width = _coverage(5, 4.0, draws=500)
    assert coverage[1] < 0.92 and width[1] < width[0]


@pytest.mark.slow
def test_with_little_seed_noise_the_interval_is_no_wider_than_the_percentile_bootstrap():
    _, coverage, width = _coverage(5, 0.5, draws=500)
    assert 0.93 <= coverage[0] <= 0.97
    assert width[0] <= 1.1 * width[1]


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


VOTE_MEAN = 1.0  # members right about 70% of the time (`_member_votes`)


def _member_votes(rng, seeds, units, seed_sd, unit_sd, experiments=None):
    """(predicted, gold): class ids of a vote's members, (seeds, units) (with `experiments`, a
    leading axis of them), on binary gold labels, right where row A of `_experiment` is."""
    (correct, _), _ = _experiment(
        rng,
        (VOTE_MEAN, VOTE_MEAN),
        units,
        seeds,
        seed_sd,
        unit_sd=unit_sd,
        experiments=experiments,
    )
    gold = rng.integers(0, 2, (*correct.shape[:-2], units))
    return np.where(correct == 1, gold[..., None, :], 1 - gold[..., None, :]), gold


def _true_vote_gain(seeds, seed_sd, unit_sd, draws=200_000):
    """The expected accuracy over seeds and test sets of the vote of `seeds` members of
    `_member_votes` (an odd number) minus a member's: given a unit's difficulty and the seeds'
    offsets, each member is right with probability Φ((mean + difficulty + offset) / unit_sd),
    independently, and the vote when most of them are."""
    rng = np.random.default_rng(0)
    difficulty = rng.normal(0.0, math.hypot(1.5, 0.5), (draws, 1))
    right = ndtr((VOTE_MEAN + difficulty + rng.normal(0.0, seed_sd, (draws, seeds))) / unit_sd)
    count = np.zeros((draws, seeds + 1))  # the distribution of the number of members right
    count[:, 0] = 1.0
    for member in right.T[:, :, None]:
        count = count * (1 - member) + np.pad(count[:, :-1], ((0, 0), (1, 0))) * member
    return count[:, seeds // 2 + 1 :].sum(axis=1).mean() - right.mean()


def test_a_vote_that_mends_every_member_error_gains_their_error_rate():
    # Seed s is wrong on block s of the units only (a tenth of them each, half the units in no
    # block): every vote of three seeds or more is right throughout, so the gain is the members'
    # error rate, 0.1, with no seed variance; on drawn units it is a fifth of the drawn units'
    # share in the blocks, 0.1 ± 1.96 · 0.5 / √2000 / 5.
    units = 2000
    gold = np.arange(units) % 2
    predicted = np.tile(gold, (5, 1))
    for s in range(5):
        block = slice(s * units // 10, (s + 1) * units // 10)
        predicted[s, block] = 1 - gold[block]
    result = compare_vote(predicted, gold, resamples=2000)
    assert result.estimate == pytest.approx(0.1)
    half_width = 1.96 * 0.5 / math.sqrt(units) / 5
    assert (result.low, result.high) == pytest.approx(
        (0.1 - half_width, 0.1 + half_width), abs=4e-4
    )


def test_a_vote_s_interval_holds_each_vote_of_one_seed_fewer():
    # Six members with seed-level noise: each vote of five of them (the vote of six with ties
    # going to class 0 has the same expected accuracy on balanced labels) lies in the interval,
    # and its own interval is about as wide.
    predicted, gold = _member_votes(np.random.default_rng(8), 6, 2000, 0.4, 1.0)
    full = compare_vote(predicted, gold, resamples=2000)
    assert full.low < full.estimate < full.high and full.verdict == "confirmed"
    for left_out in range(6):
        fewer = compare_vote(np.delete(predicted, left_out, axis=0), gold, resamples=2000)
        assert full.low <= fewer.estimate <= full.high
        assert 0.5 <= (fewer.high - fewer.low) / (full.high - full.low) <= 2.0


def test_a_vote_needs_four_seeds():
    with pytest.raises(ValueError, match="needs 4 seeds at least"):
        compare_vote(np.zeros((3, 10), int), np.zeros(10, int))


@pytest.mark.slow
def test_a_vote_s_interval_covers_its_expected_gain():
    seeds, seed_sd, unit_sd, draws = 5, 0.4, 0.5, 300
    true_gain = _true_vote_gain(seeds, seed_sd, unit_sd)
    predicted, gold = _member_votes(
        np.random.default_rng(9), seeds, 1000, seed_sd, unit_sd, experiments=draws
    )
    with threadpoolctl.threadpool_limits(1):
        results = [
            compare_vote(p, g, resamples=400, seed=d)
            for d, (p, g) in enumerate(zip(predicted, gold))
        ]
    low, high = np.array([(r.low, r.high) for r in results]).T
    assert np.mean((low <= true_gain) & (true_gain <= high)) >= 0.94
    # Conservative (the jackknife over subsets of seeds), within twice the width the spread of
    # the estimates calls for.
    assert np.mean(high - low) <= 2 * 2 * 1.96 * np.std([r.estimate for r in results])
