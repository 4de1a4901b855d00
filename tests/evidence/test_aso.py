"""ε_min of almost stochastic order over two rows' per-seed scores (deepsig)."""

import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.evidence.aso import THRESHOLD, epsilon_min

# Five seeds' accuracies of a row.
SCORES = 0.80 + 0.01 * np.random.default_rng(0).standard_normal(5)


def test_scores_above_all_of_the_other_row_s_are_stochastically_dominant():
    assert epsilon_min(SCORES + 0.03, SCORES) == 0.0 < THRESHOLD


def test_scores_below_all_of_the_other_row_s_are_dominated():
    assert epsilon_min(SCORES, SCORES + 0.03) > 0.95


def test_identical_scores_show_no_dominance_either_way():
    # The violation ratio of equal samples is 0.5; ε_min bounds it from above.
    assert epsilon_min(SCORES, SCORES.copy()) >= 0.5


def test_the_seed_reproduces_it_and_numpy_s_global_generator_is_left_alone():
    overlapping = SCORES + np.array([0.02, -0.01, 0.015, 0.0, 0.01])
    np.random.seed(3)
    expected_draw = np.random.random()
    np.random.seed(3)
    first = epsilon_min(overlapping, SCORES, seed=1, bootstrap_iterations=50)
    assert np.random.random() == expected_draw
    assert 0.0 < first < 1.0
    assert epsilon_min(overlapping, SCORES, seed=1, bootstrap_iterations=50) == first


@pytest.mark.parametrize("scores", [[], [[0.8, 0.9]], [0.8, np.nan]])
def test_scores_must_be_a_finite_1d_array(scores):
    with pytest.raises(ValueError, match="1-D array of finite scores"):
        epsilon_min(scores, SCORES)


@pytest.mark.slow
def test_deepsig_is_called_without_importing_an_array_framework():
    code = (
        "import sys; from gcnn_match.evidence.aso import epsilon_min; "
        "epsilon_min([0.8, 0.9], [0.7, 0.75]); "
        "assert not {'tensorflow', 'keras', 'jax', 'torch'} & set(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
