"""ATTCONV Figure 5: equal-size length groups in ascending order and their accuracies."""

import numpy as np
import pytest

from gcnn_match.reporting.length_groups import (
    group_accuracies,
    length_groups,
    plot_length_groups,
    run_correct,
)


def test_groups_are_equal_size_ascending_and_keep_file_order_on_ties():
    lengths = np.array([5, 1, 3, 3, 9, 1, 7])
    groups = length_groups(lengths, groups=3)
    assert [g.tolist() for g in groups] == [[1, 5, 2], [3, 0], [6, 4]]
    assert [len(g) for g in length_groups(np.arange(25), groups=10)] == [3] * 5 + [2] * 5


def test_group_accuracies_match_a_loop_over_the_sorted_examples():
    rng = np.random.RandomState(0)
    lengths, correct = rng.randint(1, 40, size=200), rng.rand(200) < 0.6
    order = sorted(range(200), key=lambda i: (lengths[i], i))
    expected = [np.mean([correct[i] for i in order[g * 20 : (g + 1) * 20]]) for g in range(10)]
    np.testing.assert_allclose(group_accuracies(correct, length_groups(lengths)), expected)


def test_more_groups_than_examples_is_an_error():
    with pytest.raises(ValueError, match="cannot split 3 examples into 10"):
        length_groups([1, 2, 3])


@pytest.mark.slow
def test_plot_is_a_png_with_the_difference_curve(tmp_path):
    lengths = np.arange(40)
    groups = length_groups(lengths, groups=4)
    curves = {"light": [0.5, 0.6, 0.7, 0.8], "Bi-CNN": [0.5, 0.5, 0.6, 0.6]}
    path = plot_length_groups(
        lengths, groups, curves, tmp_path / "f5.png", difference=("light", "Bi-CNN"), title="t"
    )
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000


def test_predictions_are_read_and_unlabelled_ones_refused(tmp_path):
    (tmp_path / "predictions").mkdir()
    header = "uid\tgold\tpredicted\tp_yes\tp_no\n"
    (tmp_path / "predictions" / "test.tsv").write_text(
        header + "f:1\tyes\tyes\t0.9\t0.1\nf:2\tno\tyes\t0.6\t0.4\n"
    )
    uids, correct = run_correct(tmp_path, "test")
    assert uids == ["f:1", "f:2"] and correct.tolist() == [True, False]
    (tmp_path / "predictions" / "dev.tsv").write_text(header + "f:1\t\tyes\t0.9\t0.1\n")
    with pytest.raises(ValueError, match="unlabelled"):
        run_correct(tmp_path, "dev")
    with pytest.raises(FileNotFoundError, match="no predictions on extra"):
        run_correct(tmp_path, "extra")
