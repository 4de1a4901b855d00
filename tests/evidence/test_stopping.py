"""Early stopping replayed on a dev curve stops where the training monitor would, and a
minimum number of epochs holds it off."""

from gcnn_match.evidence import stopping

# Noise early, a later rise: patience 5 stops at epoch 7 on the epoch-2 peak.
CURVE = [0.50, 0.55, 0.54, 0.53, 0.52, 0.54, 0.51, 0.56, 0.58, 0.57, 0.60, 0.59]


def test_patience_stops_that_many_epochs_after_the_last_improvement():
    assert stopping.replay(CURVE, patience=5) == stopping.Stop(7, 2, 0.55)


def test_a_tie_is_no_improvement():
    assert stopping.replay([0.5, 0.5, 0.5], patience=2) == stopping.Stop(3, 1, 0.5)


def test_a_minimum_epoch_count_holds_stopping_off_until_it_is_reached():
    assert stopping.replay(CURVE, patience=5, min_epochs=10) == stopping.Stop(12, 11, 0.60)
    assert stopping.replay(CURVE, patience=3, min_epochs=9) == stopping.Stop(12, 11, 0.60)


def test_a_curve_never_stopped_ends_at_its_last_epoch_on_its_best():
    assert stopping.replay(CURVE, patience=20) == stopping.Stop(12, 11, 0.60)


def test_check_compares_the_whole_schedule_s_best_with_the_registered_stop():
    checked = stopping.check(CURVE, patience=5, rules=[(10, 0)])
    assert (checked["best_epoch"], checked["best_value"]) == (11, 0.60)
    assert checked["patience_stop_epoch"] == 7
    assert checked["patience_selected_epoch"] == 2
    assert checked["rules"] == [
        {
            "patience": 10,
            "min_epochs": 0,
            "stop_epoch": 12,
            "selected_epoch": 11,
            "selected_value": 0.60,
        }
    ]


def test_a_row_needs_a_check_when_most_seeds_stopped_on_patience_within_ten_epochs():
    assert stopping.needs_check(100, 5, [2, 3, 1], [7, 8, 6])
    # Two of three ran into a cap of 6 before patience could end them.
    assert not stopping.needs_check(20, 5, [2, 4, 4], [7, 6, 6])
    # One seed ran beyond 10 epochs.
    assert not stopping.needs_check(100, 5, [2, 6, 1], [7, 11, 6])
    # A schedule below 20 epochs is not checked.
    assert not stopping.needs_check(15, 5, [2, 3], [7, 8])
    assert not stopping.needs_check(20, 5, [], [])


def test_the_highest_value_after_the_stop_and_whether_the_best_comes_later():
    checked = stopping.check(CURVE, patience=5)
    assert stopping.best_after_stop(checked)
    assert stopping.highest_after_stop(checked) == (11, 0.60)
    flat = stopping.check([0.6, 0.5, 0.5, 0.4], patience=2)
    assert not stopping.best_after_stop(flat)
    assert stopping.highest_after_stop(flat) == (4, 0.4)
    assert stopping.highest_after_stop(stopping.check([0.5, 0.6], patience=2)) is None
