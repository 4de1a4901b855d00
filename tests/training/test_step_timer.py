"""The step timer reports the mean of the steps after the warm-up, once."""

import pytest

from gcnn_match.training.step_timer import StepTimer


class _Clock:
    """A clock that the test advances by the durations of the steps it drives."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _drive(timer, clock, durations):
    """Runs one fit of training steps that take `durations` seconds each."""
    timer.on_train_begin()
    for seconds in durations:
        clock.now += seconds
        timer.on_train_batch_end(0)
    timer.on_train_end()


def test_the_warm_up_is_left_out_and_the_report_comes_once():
    clock, reports = _Clock(), []
    timer = StepTimer(50, lambda *r: reports.append(r), warmup=2, steps=3, clock=clock)
    _drive(timer, clock, [9.0, 5.0, 1.0, 2.0, 3.0, 100.0, 100.0])
    assert reports == [(pytest.approx(2.0), 50)]


def test_a_short_fit_reports_the_steps_it_timed():
    clock, reports = _Clock(), []
    timer = StepTimer(4, lambda *r: reports.append(r), warmup=1, steps=6, clock=clock)
    _drive(timer, clock, [9.0, 1.0, 3.0])
    assert reports == [(pytest.approx(2.0), 4)]


def test_a_fit_inside_the_warm_up_reports_an_over_estimate():
    clock, reports = _Clock(), []
    timer = StepTimer(2, lambda *r: reports.append(r), warmup=3, steps=6, clock=clock)
    _drive(timer, clock, [9.0, 1.0])
    assert reports == [(pytest.approx(5.0), 2)]
