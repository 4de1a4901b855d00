"""Steady-state timing of functions over batches, fair between functions on a shared machine."""

import time

import numpy as np

# Recorded step times keep 1e-5 s: far below a step's run-to-run spread, and short in JSON.
RECORDED_DIGITS = 5


def _features(batch):
    return batch[0] if isinstance(batch, tuple) else batch


def batch_shapes(batch):
    """A hashable key of the shapes of `batch`'s features (each shape compiles once)."""
    return tuple(sorted((name, value.shape) for name, value in _features(batch).items()))


def timed(fns, batches, warmup, max_seconds=None):
    """({name: seconds of each timed call}, {name: warm-up seconds}) of the functions `fns`
    ({name: fn(batch)}) on the same batches.

    Each function first runs on `batches[:warmup]` and on one batch of every shape among the
    rest not seen yet; then `batches[warmup:]` are timed interleaved (every function on a
    batch before the next batch), so that a change of load on a shared machine hits all of
    them alike and their ratios stay fair. Timing stops early, after at least two batches,
    once `max_seconds` have passed (slow models).
    """
    warm = {}
    for name, fn in fns.items():
        start, seen = time.perf_counter(), set()
        for i, batch in enumerate(batches):
            key = batch_shapes(batch)
            if i < warmup or key not in seen:
                fn(batch)
                seen.add(key)
        warm[name] = time.perf_counter() - start
    times = {name: [] for name in fns}
    began = time.perf_counter()
    for i, batch in enumerate(batches[warmup:]):
        if max_seconds is not None and i >= 2 and time.perf_counter() - began > max_seconds:
            break
        for name, fn in fns.items():
            start = time.perf_counter()
            fn(batch)
            times[name].append(time.perf_counter() - start)
    return {name: np.asarray(t) for name, t in times.items()}, warm


def recorded_seconds(times):
    """Each timed call's seconds as a JSON list, rounded to `RECORDED_DIGITS` decimals: what
    the claims report resamples for a ratio's interval (docs/design.md#claims)."""
    return [round(float(t), RECORDED_DIGITS) for t in times]
