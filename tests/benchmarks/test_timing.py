"""Timing warms every batch shape first, interleaves the functions and keeps to its budget."""

import time

import numpy as np

from gcnn_match.benchmarks.timing import recorded_seconds, timed


def test_timing_warms_every_shape_then_interleaves_and_keeps_to_its_budget():
    calls = []
    batches = [{"x": np.zeros((2, n))} for n in (3, 3, 5, 3, 5, 7)]
    fns = {name: (lambda b, name=name: calls.append((name, b["x"].shape[1]))) for name in "ab"}
    times, warm = timed(fns, batches, warmup=1)
    # Warm-up: the first batch, then the first batch of each new shape (5, 7), per function.
    assert calls[:6] == [("a", 3), ("a", 5), ("a", 7), ("b", 3), ("b", 5), ("b", 7)]
    assert calls[6:] == [(name, n) for n in (3, 5, 3, 5, 7) for name in "ab"]
    assert len(times["a"]) == len(times["b"]) == 5 and set(warm) == {"a", "b"}
    slow = {"a": lambda b: time.sleep(0.02)}
    assert len(timed(slow, batches, warmup=1, max_seconds=0.01)[0]["a"]) == 2


def test_recorded_seconds_are_a_compact_json_list():
    seconds = recorded_seconds(np.array([0.0123456789, 1.5, 2e-7]))
    assert seconds == [0.01235, 1.5, 0.0] and all(type(s) is float for s in seconds)
