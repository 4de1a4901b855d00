"""Is row A of a results table really better than row B? An interval and a verdict.

A claim compares two rows on one metric in an expected direction ("A beats B on test
accuracy", "A trains 3x faster than B"). Our estimate of Δ = metric_A − metric_B varies for
two reasons: the test set is a sample of examples, and a trained model is a sample of random
seeds. `compare_rows` puts both into one 95% interval, from replicates of Δ that add the two:

- a row's metric is a mean of per-unit scores: per test example 0/1 correctness for
  accuracy (`length_groups.run_correct`), per question the average precision, reciprocal rank
  or top-1 hit for MAP / MRR / P@1; or a ratio of two per-unit sums, F1 of a class
  (`unit_terms`: 2·TP over 2·TP + FP + FN), recomputed on each replicate's units;
- test set: each replicate draws one set of test units with replacement that every seed of
  both rows shares (the rows were scored on the same examples: the paired bootstrap of Koehn
  2004 and Berg-Kirkpatrick et al. 2012) and recomputes Δ of the rows' seed-averaged metrics;
- seeds: to each replicate it adds √V · T, with V = Σ_k v_k, v_k = s_k² / S_k over the rows
  of two seeds or more (s_k the sample standard deviation of row k's per-seed metric on all
  units, S_k its seeds; seeds are not paired across rows; `compare_contrast` weighs v_k by
  the square of the row's weight) and T a Student t on the Welch–Satterthwaite degrees of
  freedom V² / Σ_k v_k² / (S_k − 1) (Welch 1947, Satterthwaite 1946);
- the interval is the percentile interval of the replicates (Efron & Tibshirani 1993, ch. 13),
  and the fraction of them on the wrong side of 0 the one-sided p (`one_sided_p`).

The test-set level is resampled, the seed level drawn from its parametric model: a hybrid of
the nonparametric and the parametric bootstrap (Davison & Hinkley 1997), for the crossed
design of seeds and examples (every seed sees every example). Bouthillier et al. (2021,
"Accounting for variance in machine learning benchmarks") show why the seed level matters.
The seeds are not resampled: a bootstrap over a few seeds understates their spread (the
bootstrap variance of a mean of S values is (S − 1)/S of the usual estimate, and a percentile
interval has no small-sample widening like Student's t). In simulations (`print_coverage_table`
in tests/evidence/test_statistics.py: 1000 experiments a cell, rows whose per-example
correctness barely changes with the seed, the noise ratio being the sd of a row's per-seed
accuracy over the test-set standard error of Δ) the 95% interval covers the true Δ in 94-97%
of experiments at 3, 5 and 10 seeds a row and noise ratios 0.5, 1 and 4, where a two-factor
bootstrap that also resamples the seeds covers 84%, 91% and 93% at ratio 4. The price of t at
3 seeds and ratio 4 is an interval 1.9 times as wide; with little seed noise (ratio 0.5) it
is 0-12% wider. The seed-by-example interaction enters both s_k² and the test-set
bootstrap, as in Owen's (2007) pigeonhole bootstrap, so the interval is conservative where that
interaction makes up most of a row's per-seed spread (coverage 97-98% in such simulations at
3, 5 and 10 seeds and noise ratios 2 and 4). With one seed in a row that row's seed
variance is left out entirely, and the result says so (`Comparison.seed_variance`).

`compare_vote` treats Δ = metric of the majority vote of a row's seeds − their mean metric in
the same way, the vote of all seeds scored as a row of its own on the same units; its seed
level is √V · T on S − 1 degrees of freedom with V the delete-d jackknife variance (Shao & Wu
1989) of Δ over the subsets of the seeds of the largest odd size below S: each vote of a
subset has an odd number of voters (two classes never tie). Seeds are not drawn with
replacement: a seed drawn twice leaves fewer distinct voters than the vote stands for, which
pulls the replicates below the estimate (in simulations at 5 seeds and 5000 test units, with an
odd number of draws and no re-centring, about one interval in eight misses the true gain from
below while over 3 times as wide as the spread of the estimates calls for). A jackknife variance
errs on the large side (Efron & Stein 1981): in simulations (5 seeds, 1000 and 5000 test
units) the 95% interval covers the expected gain of the vote in 99% of experiments, about 1.5
times as wide as the spread of the estimates calls for.

`compare_ratio` handles speed claims: the ratio of mean timings (or other positive
quantities) of A and B, with the percentile interval of a bootstrap that resamples each row's
repeats (timed steps or batches) independently. That is the bootstrap for two independent
samples (Efron & Tibshirani 1993, §8.3): right when A and B were timed in separate runs, as the
benchmarks time rows. In simulations (tests/evidence/test_statistics.py) it covers the true
ratio in about 93-95% of experiments from 10 repeats a row on, and in about 85% with 5 (a
percentile interval has no small-sample widening). Where both rows ran on the same batches,
the step-to-step variation of the batches' lengths is common to both and is counted twice: the
interval is then conservative (coverage about 97-99%).

The verdict: "confirmed" when the interval excludes no-difference on the claimed side,
"contradicted" when it excludes it on the other side, "inconclusive" otherwise. Replicates come
from a fixed RNG seed, so a report recomputes to the same digits.

References: P. Koehn, Statistical significance tests for machine translation evaluation,
EMNLP 2004. T. Berg-Kirkpatrick, D. Burkett, D. Klein, An empirical investigation of
statistical significance in NLP, EMNLP-CoNLL 2012. B. Efron, R. Tibshirani, An Introduction to
the Bootstrap, 1993. A. C. Davison, D. V. Hinkley, Bootstrap Methods and their Application,
1997. B. L. Welch, The generalization of "Student's" problem when several different population
variances are involved, Biometrika 34, 1947. F. E. Satterthwaite, An approximate distribution
of estimates of variance components, Biometrics Bulletin 2(6), 1946. A. B. Owen, The pigeonhole
bootstrap, Annals of Applied Statistics 1(2), 2007. J. Shao, C. F. J. Wu, A general theory for
jackknife variance estimation, Annals of Statistics 17(3), 1989. B. Efron, C. Stein, The
jackknife estimate of variance, Annals of Statistics 9(3), 1981. X. Bouthillier et al.,
Accounting for variance in machine learning benchmarks, MLSys 2021.
"""

import dataclasses
import itertools
import math

import numpy as np

EXPECTED = ("greater", "less")  # the claim: A's value above B's, or below it
RESAMPLES = 10_000  # Monte Carlo error of a 2.5% tail: about ±0.3% (two standard errors)
CONFIDENCE = 0.95
SEED = 0
# Replicates within TIE of a threshold count as equal to it. Exact ties are common (a Δ of
# counts over the same units is often exactly 0), and float rounding would otherwise put
# them on either side by chance.
TIE = 1e-9
_CHUNK_VALUES = 2**22  # bootstrap values held at once (32 MB of float64)
VOTE_SEEDS = 4  # the fewest seeds a vote's seed variance can be read from (`compare_vote`)


@dataclasses.dataclass(frozen=True)
class Comparison:
    """A claim's estimate, interval and verdict.

    Attributes:
        estimate: Δ = mean over seeds of metric_A − metric_B (`compare_rows`), or the ratio
            mean_A / mean_B (`compare_ratio`).
        low, high: the percentile interval of the replicates.
        null: the no-difference value: 0 for a difference, 1 for a ratio.
        expected: the claimed side of A against B, "greater" or "less".
        verdict: "confirmed", "contradicted" or "inconclusive".
        seeds_a, seeds_b: seeds (or repeats, for a ratio) of each row.
        units: test examples or questions per seed (0 for a ratio).
        seed_variance: whether the interval holds the seed variance of both rows; False when
            a row has only one seed, and the interval reflects test-set sampling only.
        confidence, resamples: the interval's level and number of replicates.
        replicates: the replicates themselves (for a difference, a test-set bootstrap
            replicate plus a seed-level draw each), for one-sided p values (`one_sided_p`).
    """

    estimate: float
    low: float
    high: float
    null: float
    expected: str
    verdict: str
    seeds_a: int
    seeds_b: int
    units: int
    seed_variance: bool
    confidence: float
    resamples: int
    replicates: np.ndarray = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def note(self):
        """What the interval leaves out, or "" when it covers both sources of variation."""
        if self.seed_variance:
            return ""
        return "one seed in a row: the interval reflects test-set sampling only"

    def describe(self):
        """One line for a report, e.g. `Δ = +0.0123 [+0.0051, +0.0190] (95%, 5 vs 5 seeds,
        10000 units): confirmed`."""
        if self.null == 0:
            values = f"Δ = {self.estimate:+.4f} [{self.low:+.4f}, {self.high:+.4f}]"
            sample = f"{self.seeds_a} vs {self.seeds_b} seeds, {self.units} units"
        else:
            values = f"A/B = {self.estimate:.3f} [{self.low:.3f}, {self.high:.3f}]"
            sample = f"{self.seeds_a} vs {self.seeds_b} repeats"
        line = f"{values} ({self.confidence:.0%}, {sample}): {self.verdict}"
        return f"{line}; {self.note}" if self.note else line


def verdict(low, high, null, expected):
    """Where [low, high] lies against `null`: "confirmed", "contradicted" or "inconclusive"."""
    _check_expected(expected)
    above, below = side(low, null) > 0, side(high, null) < 0
    if not (above or below):
        return "inconclusive"
    return "confirmed" if above == (expected == "greater") else "contradicted"


def one_sided_p(replicates, null, expected):
    """The fraction of bootstrap replicates on the wrong side of `null` for the claim
    `expected` ("greater": at or below it; "less": at or above it; within TIE is at it): the
    one-sided bootstrap p. The 95% percentile interval excludes `null` on the claimed side
    when it is below 0.025."""
    _check_expected(expected)
    sides = side(replicates, null)
    wrong = sides <= 0 if expected == "greater" else sides >= 0
    return float(np.mean(wrong))


def side(values, threshold):
    """Where `values` sit against `threshold`: 1 above, -1 below, 0 within TIE of it (an int
    for a scalar, an array of them for an array)."""
    difference = np.asarray(values, dtype=np.float64) - threshold
    if np.isnan(difference).any():
        raise ValueError(f"no side of {threshold} for NaN (values {values!r})")
    sides = np.where(np.abs(difference) <= TIE, 0, np.sign(difference)).astype(np.int64)
    return int(sides) if sides.ndim == 0 else sides


def compare_rows(
    scores_a,
    scores_b,
    expected="greater",
    resamples=RESAMPLES,
    confidence=CONFIDENCE,
    seed=SEED,
    denominators=None,
):
    """Δ of two rows' metric with a seed-and-test-set interval (module docstring).

    Args:
        scores_a: (seeds, units) per-unit scores of row A, one row per seed (a 1-D array is one
            seed): 0/1 correctness per test example, or per-question AP / RR / top-1 hit. The
            row's metric on a seed is the mean over units (without `denominators`).
        scores_b: the same for row B, on the same units in the same order; its seeds are
            unrelated to A's and may differ in number.
        expected: the claim, "greater" (A above B) or "less".
        resamples: bootstrap replicates.
        confidence: the interval's level.
        seed: the RNG seed of the replicates.
        denominators: for a metric that is a ratio of sums over units rather than a mean
            (F1: `unit_terms`), the per-unit denominators of A and B, shaped as their scores;
            a seed's metric on a set of units is then Σ scores / Σ denominators.

    Returns:
        A `Comparison` of Δ against 0.
    """
    a, b = _seed_matrix(scores_a, "scores_a"), _seed_matrix(scores_b, "scores_b")
    if a.shape[1] != b.shape[1]:
        raise ValueError(
            f"row A has {a.shape[1]} test units per seed and row B {b.shape[1]}: both rows "
            "must be scored on the same test examples (or questions), in the same order"
        )
    return compare_contrast(
        [a, b], [1.0, -1.0], expected, resamples, confidence, seed, denominators
    )


def compare_contrast(
    scores,
    weights,
    expected="greater",
    resamples=RESAMPLES,
    confidence=CONFIDENCE,
    seed=SEED,
    denominators=None,
):
    """Σ_k weights[k] · metric_k over rows scored on the same units, with the seed-and-test-set
    interval of `compare_rows` (its case [A, B] with weights [1, −1]): each replicate draws one
    set of units that all rows share, and its seed-level draw holds every row's seed variance,
    weighted by the square of the row's weight.

    A learning curve's change of gap, (A − B at the largest size) − (A − B at the smallest), is
    the contrast of four rows with weights [1, −1, −1, 1]: a row trained on another subset is
    another row, scored on the same test units.

    Args:
        scores: per row, its (seeds, units) per-unit scores (as `compare_rows`' scores_a).
        weights: one coefficient per row.
        expected, resamples, confidence, seed: as for `compare_rows`.
        denominators: None for means, or per row its per-unit denominators (`compare_rows`).

    Returns:
        A `Comparison` of the contrast against 0; `seeds_a` and `seeds_b` are the fewest seeds
        among the rows with positive and with negative weights.
    """
    rows = [_seed_matrix(s, f"scores[{k}]") for k, s in enumerate(scores)]
    if len(rows) != len(weights) or not rows:
        raise ValueError(f"{len(rows)} rows of scores and {len(weights)} weights")
    units = rows[0].shape[1]
    if any(row.shape[1] != units for row in rows):
        raise ValueError(
            f"the rows have {[row.shape[1] for row in rows]} test units per seed: all rows "
            "must be scored on the same test examples (or questions), in the same order"
        )
    pers = _denominators(denominators, rows)
    _check_settings(expected, resamples, confidence)
    rng = np.random.default_rng(seed)
    contrasts = _unit_replicates(rng, rows, pers, weights, resamples)
    whole = np.ones((1, units))
    per_seed = [_drawn_metric(whole, row, per)[0] for row, per in zip(rows, pers)]
    several = [(w, metric) for w, metric in zip(weights, per_seed) if len(metric) > 1]
    contrasts += _seed_errors(
        rng,
        [w**2 * metric.var(ddof=1) / len(metric) for w, metric in several],
        [len(metric) - 1 for _, metric in several],
        resamples,
    )
    estimate = sum(weight * metric.mean() for weight, metric in zip(weights, per_seed))
    seeds_a = min((len(r) for w, r in zip(weights, rows) if w > 0), default=0)
    seeds_b = min((len(r) for w, r in zip(weights, rows) if w < 0), default=0)
    return _comparison(estimate, contrasts, 0.0, expected, confidence, seeds_a, seeds_b, units)


def compare_vote(
    predicted,
    gold,
    expected="greater",
    resamples=RESAMPLES,
    confidence=CONFIDENCE,
    seed=SEED,
    positive=None,
):
    """The metric of the majority vote of a row's seeds minus the seeds' mean metric, with the
    interval of the module docstring: each replicate draws one set of test units that the vote
    of all seeds and every seed share, and adds a Student t draw on seeds − 1 degrees of freedom
    scaled by the jackknife standard error of Δ over subsets of the seeds, each of an odd size
    (`_vote_seed_variance`). A vote is a function of the seeds, so a fixed vote row would leave
    its seed variance out. Ties go to the lowest class id (an odd number of voters over two
    classes never ties).

    Args:
        predicted: (seeds, units) predicted class ids of the member seeds.
        gold: (units,) gold class ids.
        expected, resamples, confidence, seed: as for `compare_rows`.
        positive: None for accuracy; a class id for the F1 of that class (`unit_terms`).

    Returns:
        A `Comparison` of Δ = vote metric − mean member metric against 0.
    """
    predicted = np.asarray(predicted, dtype=np.int64)
    gold = np.asarray(gold, dtype=np.int64)
    if predicted.ndim != 2 or predicted.shape[1] != gold.shape[0] or predicted.size == 0:
        raise ValueError(
            f"predicted {predicted.shape} must be (seeds, units) over the {gold.shape[0]} units"
        )
    seeds, units = predicted.shape
    if seeds < VOTE_SEEDS:
        raise ValueError(
            f"a vote of {seeds} seeds: its seed variance is read from the votes of subsets of "
            f"odd size 3 at least, which needs {VOTE_SEEDS} seeds at least"
        )
    _check_settings(expected, resamples, confidence)
    classes = max(predicted.max(), gold.max()) + 1
    voted = unit_terms(_vote(predicted, classes)[None, :], gold, positive)
    members = unit_terms(predicted, gold, positive)
    rng = np.random.default_rng(seed)
    contrasts = _unit_replicates(
        rng, [voted[0], members[0]], [voted[1], members[1]], [1.0, -1.0], resamples
    )
    variance = _vote_seed_variance(predicted, gold, classes, positive)
    contrasts += _seed_errors(rng, [variance], [seeds - 1], resamples)
    estimate = _vote_gain(predicted, gold, classes, positive)
    return _comparison(estimate, contrasts, 0.0, expected, confidence, seeds, seeds, units)


def _vote(predicted, classes):
    """(units,) the class most of the seeds of `predicted` (seeds, units) chose; a tie goes to
    the lowest class id."""
    return np.eye(classes)[predicted].sum(axis=0).argmax(axis=1)


def _vote_gain(predicted, gold, classes, positive):
    """The metric of the vote of `predicted` (seeds, units) minus its seeds' mean metric."""
    whole = np.ones((1, predicted.shape[1]))
    voted = _drawn_metric(whole, *unit_terms(_vote(predicted, classes)[None, :], gold, positive))
    return voted.item() - _drawn_metric(whole, *unit_terms(predicted, gold, positive)).mean()


def _vote_seed_variance(predicted, gold, classes, positive):
    """The delete-d jackknife variance (Shao & Wu 1989) of `_vote_gain` over the seeds: the
    gain recomputed on every subset of the seeds of the largest odd size below their number."""
    seeds = len(predicted)
    size = seeds - 1 if seeds % 2 == 0 else seeds - 2
    gains = [
        _vote_gain(predicted[list(kept)], gold, classes, positive)
        for kept in itertools.combinations(range(seeds), size)
    ]
    return size / (seeds - size) * np.var(gains)


def unit_terms(predicted, gold, positive=None):
    """Per-unit (scores, denominators) of a classification metric of predicted class ids (any
    leading shape, units last): for accuracy (`positive` None) 0/1 correctness and None, a
    mean; for the F1 of class `positive`, 2·TP and 2·TP + FP + FN per unit, whose sums over any
    set of units give that set's F1 as their ratio."""
    predicted, gold = np.asarray(predicted), np.asarray(gold)
    hit = predicted == gold
    if positive is None:
        return hit.astype(np.float64), None
    true_positive = hit & (gold == positive)
    wrong = ~hit & ((predicted == positive) | (gold == positive))
    return 2.0 * true_positive, 2.0 * true_positive + wrong


def compare_ratio(
    values_a,
    values_b,
    expected="less",
    resamples=RESAMPLES,
    confidence=CONFIDENCE,
    seed=SEED,
):
    """mean(values_a) / mean(values_b) with a bootstrap interval over the repeats of each.

    For speed claims: per-repeat timings of A and B (seconds per training step, per
    batch...), "less" claiming that A takes less time. The repeats of the two rows are
    resampled independently (module docstring); each row needs two at least, since a single one
    says nothing about its spread.
    The percentile interval of the ratio is that of the log-ratio, mapped back.

    Args:
        values_a, values_b: 1-D positive values, one per repeat.
        expected: the claim, "less" (A's values below B's) or "greater".
        resamples, confidence, seed: as for `compare_rows`.

    Returns:
        A `Comparison` of the ratio against 1.
    """
    a, b = _repeats(values_a, "values_a"), _repeats(values_b, "values_b")
    _check_settings(expected, resamples, confidence)
    rng = np.random.default_rng(seed)
    ratios = (_resample_weights(rng, len(a), resamples) @ a) / (
        _resample_weights(rng, len(b), resamples) @ b
    )
    return _comparison(
        a.mean() / b.mean(), ratios, 1.0, expected, confidence, len(a), len(b), units=0
    )


def _comparison(estimate, replicates, null, expected, confidence, seeds_a, seeds_b, units):
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(replicates, [tail, 1.0 - tail])
    return Comparison(
        estimate=float(estimate),
        low=float(low),
        high=float(high),
        null=null,
        expected=expected,
        verdict=verdict(low, high, null, expected),
        seeds_a=seeds_a,
        seeds_b=seeds_b,
        units=units,
        seed_variance=min(seeds_a, seeds_b) > 1,
        confidence=confidence,
        resamples=len(replicates),
        replicates=replicates,
    )


def _unit_replicates(rng, rows, pers, weights, resamples):
    """(resamples,) Σ_k weights[k] · the mean over row k's seeds of their metric on one draw of
    the test units with replacement, a draw that every row shares (the paired bootstrap)."""
    contrasts = np.empty(resamples)
    for start, counts in _unit_draws(rng, rows[0].shape[1], resamples):
        contrasts[start : start + len(counts)] = sum(
            weight * _drawn_metric(counts, row, per).mean(axis=1)
            for weight, row, per in zip(weights, rows, pers)
        )
    return contrasts


def _seed_errors(rng, variances, dfs, resamples):
    """(resamples,) draws of the seed-level error of an estimate whose seed variance is the sum
    of `variances`, each estimated with its `dfs` degrees of freedom: √Σ variances times
    Student's t on the Welch–Satterthwaite degrees of freedom; zeros when the sum is 0."""
    total = float(sum(variances))
    if total <= 0.0:
        return np.zeros(resamples)
    df = total**2 / sum(v**2 / d for v, d in zip(variances, dfs))
    return math.sqrt(total) * rng.standard_t(df, resamples)


def _unit_draws(rng, units, resamples):
    """(start, counts) for chunks of the replicates: counts[r, u] is how often replicate
    start + r draws test unit u, the units drawn with replacement, one draw that every row of a
    comparison shares."""
    chunk = max(1, _CHUNK_VALUES // units)
    for start in range(0, resamples, chunk):
        size = min(chunk, resamples - start)
        picked = rng.integers(0, units, size=(size, units)) + units * np.arange(size)[:, None]
        counts = np.bincount(picked.ravel(), minlength=size * units).astype(np.float64)
        yield start, counts.reshape(size, units)


def _drawn_metric(counts, scores, denominators=None):
    """Each seed's metric on each replicate's drawn units (`counts`, (replicates, units)): the
    mean of its `scores` (seeds, units), or with `denominators` the ratio of the two sums (F1 of
    a set with no positive prediction or gold label is 0). Returns (replicates, seeds)."""
    totals = counts @ scores.T
    if denominators is None:
        return totals / counts.sum(axis=1, keepdims=True)
    return _ratio(totals, counts @ denominators.T)


def _ratio(totals, below):
    return np.divide(totals, below, out=np.zeros_like(totals, dtype=np.float64), where=below > 0)


def _denominators(denominators, rows):
    """Per row its checked (seeds, units) denominators, or None per row for means."""
    if denominators is None:
        return [None] * len(rows)
    pers = [_seed_matrix(d, f"denominators[{k}]") for k, d in enumerate(denominators)]
    if [d.shape for d in pers] != [row.shape for row in rows]:
        raise ValueError(
            f"denominators {[d.shape for d in pers]} must be shaped as the scores "
            f"{[row.shape for row in rows]}"
        )
    return pers


def _resample_weights(rng, count, resamples):
    """(resamples, count): how often each item is drawn in a replicate, over `count`."""
    return rng.multinomial(count, np.full(count, 1.0 / count), size=resamples) / count


def _seed_matrix(scores, name):
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim == 1:
        scores = scores[None, :]
    if scores.ndim != 2 or scores.size == 0:
        raise ValueError(
            f"{name}: expected (seeds, units) scores with at least one of each, got shape "
            f"{scores.shape}"
        )
    if not np.isfinite(scores).all():
        raise ValueError(f"{name}: scores must be finite (a NaN is a missing prediction)")
    return scores


def _repeats(values, name):
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or values.size < 2:
        raise ValueError(
            f"{name}: expected a 1-D array of at least 2 repeats, got shape {values.shape}"
        )
    if not (np.isfinite(values).all() and (values > 0).all()):
        raise ValueError(f"{name}: a ratio needs finite positive values")
    return values


def _check_expected(expected):
    if expected not in EXPECTED:
        raise ValueError(f"expected must be one of {EXPECTED}, got {expected!r}")


def _check_settings(expected, resamples, confidence):
    _check_expected(expected)
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
