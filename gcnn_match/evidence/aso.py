"""Almost stochastic order of two rows' per-seed scores: a second opinion on a claim.

`statistics.compare_rows` asks whether row A's mean over seeds is above row B's. Almost
stochastic order (ASO; del Barrio et al. 2018, as Dror et al. 2019 apply it to deep models)
asks whether the distribution of A's per-seed scores lies above B's. Its violation ratio is the
share of the squared Wasserstein-2 distance between the two distributions' quantile functions
that lies where B's quantile is above A's: 0 when every quantile of A is at or above B's
(stochastic order), 1 when every one is below. ε_min is an upper confidence bound on it from a
bootstrap of the scores:

- ε_min < 0.5: A is almost stochastically dominant over B, "better" in the test's sense;
  Dror et al. (2019) take ε_min < τ = 0.2 as their threshold for claiming it;
- ε_min ≥ 0.5: no such dominance; near 1 when B dominates A. Two samples from one distribution
  give a violation ratio about 0.5, and being an upper bound ε_min lies above it, the more so
  the fewer the seeds.

`epsilon_min` calls deepsig's implementation (`deepsig.aso`, Ulmer et al. 2022) with a fixed
seed, fewer bootstrap iterations than its default and a coarser integration step, which keeps
5 against 5 scores to a fraction of a second.

References: E. del Barrio, J. A. Cuesta-Albertos, C. Matrán, An optimal transportation approach
for assessing almost stochastic order, in The Mathematics of the Uncertain, 2018. R. Dror,
S. Shlomov, R. Reichart, Deep dominance - how to properly compare deep neural models, ACL 2019.
D. Ulmer, C. Hardmeier, J. Frellsen, deep-significance: easy and meaningful statistical
significance testing in the age of neural networks, arXiv:2204.06815, 2022.
"""

import sys
import warnings

import numpy as np

THRESHOLD = 0.2  # Dror et al.'s τ: ε_min below it claims A better than B
BOOTSTRAP_ITERATIONS = 200  # deepsig: 1000; its σ estimate then within about ±5% (1 s.e.)
DT = 0.01  # integration step over quantile levels (deepsig: 0.005)
_FRAMEWORKS = ("torch", "tensorflow", "jax")  # what deepsig probes for on import


def epsilon_min(
    scores_a,
    scores_b,
    seed=0,
    confidence=0.95,
    bootstrap_iterations=BOOTSTRAP_ITERATIONS,
    dt=DT,
):
    """deepsig's ε_min of A over B: below 0.5, A is almost stochastically dominant over B.

    Args:
        scores_a: 1-D per-seed scores of row A (higher is better).
        scores_b: the same for row B; the counts may differ.
        seed: the seed of deepsig's bootstrap.
        confidence: the level of ε_min's upper bound on the violation ratio.
        bootstrap_iterations: bootstrap samples for the violation ratio's spread.
        dt: the integration step over quantile levels.

    Returns:
        ε_min in [0, 1].
    """
    a, b = _scores(scores_a, "scores_a"), _scores(scores_b, "scores_b")
    aso = _deepsig_aso()
    state = np.random.get_state()  # deepsig seeds NumPy's global generator
    try:
        with warnings.catch_warnings():
            # Two equal samples have no distance to divide by: deepsig counts the ratio 0.5.
            warnings.filterwarnings("ignore", "Division by zero encountered in violation ratio")
            return float(
                aso(
                    a,
                    b,
                    confidence_level=confidence,
                    num_bootstrap_iterations=bootstrap_iterations,
                    dt=dt,
                    num_jobs=1,
                    show_progress=False,
                    seed=seed,
                )
            )
    finally:
        np.random.set_state(state)


def _deepsig_aso():
    """deepsig's `aso`, imported without the array frameworks it probes for.

    On import deepsig tries PyTorch, TensorFlow and JAX to accept their tensors; here scores are
    NumPy arrays, and importing TensorFlow takes seconds. Each framework not loaded yet is
    marked missing while deepsig imports (`sys.modules[name] = None` makes its import fail) and
    unmarked after. deepsig also sets joblib's loky pickler; the previous one is put back.
    """
    import scipy.stats  # noqa: F401 (first: on import it reads sys.modules for torch itself)
    from joblib.externals.loky import set_loky_pickler
    from joblib.externals.loky.backend.reduction import get_loky_pickler_name

    pickler = get_loky_pickler_name()
    hidden = [name for name in _FRAMEWORKS if name not in sys.modules]
    sys.modules.update(dict.fromkeys(hidden, None))
    try:
        from deepsig import aso
    finally:
        for name in hidden:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
        set_loky_pickler(pickler)
    return aso


def _scores(scores, name):
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim != 1 or scores.size == 0 or not np.isfinite(scores).all():
        raise ValueError(f"{name}: expected a 1-D array of finite scores, got {scores!r}")
    return scores
