"""Wavefront vs cell-by-cell speed of the coupled LSTM layer, and how its cost grows with n·m.

`CoupledLSTM` updates all cells of one anti-diagonal at once: n + m - 1 sequential steps, each
over min(n, m) + 1 slots (the diagonal held along the shorter sentence, plus one slot off the
grid). The reference here, `NaiveCoupledLSTM`, is the same layer with the same weights and the
same cell arithmetic (`CoupledLSTM._cell`), but visits the n·m cells one at a time in a
`tf.while_loop` (row-major, each step batched only over examples and directions). Both run as
`tf.function` graphs without XLA, as training does (`ExperimentConfig.jit_compile` is off by
default), and are timed forward + backward (gradients of a scalar of the output with respect to
every weight and both inputs): the work of one training step, without the optimizer update.

With `rematerialize`, the same layer with `rematerialize=True` (each block's scan recomputed in
the backward pass) is timed beside it, and the peak resident memory of each is recorded: the
process' high-water mark over its warm-up and timed calls, TensorFlow's own footprint
included. Memory that the allocator keeps after one measurement would inflate the next, so
such a measurement covers one grid, cell and batch per process, the rematerialized layer (the
smaller) first.
"""

import dataclasses
import os
import time

import keras
import numpy as np
import tensorflow as tf

from gcnn_match.benchmarks.naive_coupled_lstm import NaiveCoupledLSTM
from gcnn_match.benchmarks.peak_memory import PeakMemory
from gcnn_match.layers.coupled_lstm import CoupledLSTM


def grid_inputs(batch, n, m, dim, seed=0):
    """Random (x, y) of shapes (batch, n, dim), (batch, m, dim) and all-ones masks."""
    rng = np.random.default_rng(seed)
    x = tf.constant(rng.normal(size=(batch, n, dim)).astype("float32"))
    y = tf.constant(rng.normal(size=(batch, m, dim)).astype("float32"))
    return x, y, [tf.ones((batch, n)), tf.ones((batch, m))]


def copy_weights(source, target, x, y, mask):
    """Builds `target` on (x, y) and gives it `source`'s weights."""
    target([x, y], mask=mask)
    target.set_weights(source.get_weights())


def training_step_fn(layer):
    """A compiled forward + backward pass of `layer` (no XLA), returning the loss and the
    gradients: a graph prunes what none of its outputs needs, so gradients computed and
    dropped would leave the backward pass untimed."""

    @tf.function
    def step(x, y, mask):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            loss = tf.reduce_sum(layer([x, y], mask=mask))
        return loss, tape.gradient(loss, [x, y] + layer.trainable_weights)

    return step


def best_times(fn, args, repeats, warmup=1):
    """Fastest wall and process-CPU seconds of `fn(*args)` over `repeats` calls, after
    `warmup` calls (the first traces the graph).

    The minimum is the call least disturbed by other work on a shared machine; CPU time (all
    threads) does not count waiting for a core, so it compares implementations under load.
    """
    for _ in range(warmup):
        fn(*args)
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        fn(*args)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


# The implementations timed beside the wavefront: name -> layer class with its arguments.
_COMPARED = {
    "rematerialized": lambda **kwargs: CoupledLSTM(**kwargs, rematerialize=True),
    "naive": NaiveCoupledLSTM,
}


@dataclasses.dataclass(frozen=True)
class SpeedConfig:
    """What is measured.

    Attributes:
        cells: cell types ("loose", "tight").
        grids: grid shapes (n, m); square ones show the growth with n·m, oblong ones that
            the wavefront's work follows (min(n, m) + 1)·(n + m - 1), not n·(n + m - 1).
        batches: sentence pairs per batch: 32 (the rows' batch, compute-bound) and 1 (where
            the number of sequential steps dominates).
        units, dim: hidden size k and word-vector size e (the paper's 50 and 100).
        num_layers: stacked blocks (one: cost per block; stacks multiply it).
        directions: scan directions (the paper's four).
        repeats: timed calls per measurement (the fastest is reported).
        naive_max_cells: the per-cell loop is skipped above this n·m (too slow to wait for).
        rematerialize: also time the layer with each block rematerialized, and show the
            peak memory of each implementation (one grid, cell and batch only).
    """

    cells: tuple[str, ...] = ("loose", "tight")
    grids: tuple[tuple[int, int], ...] = ((8, 8), (16, 16), (32, 32), (32, 8), (8, 32))
    batches: tuple[int, ...] = (32, 1)
    units: int = 50
    dim: int = 100
    num_layers: int = 1
    directions: tuple[int, ...] = (1, 2, 3, 4)
    repeats: int = 3
    naive_max_cells: int = 1024
    rematerialize: bool = False

    def compared(self, cells=1):
        """The implementations timed beside the wavefront on a grid of `cells` (n·m)."""
        return (["rematerialized"] if self.rematerialize else []) + (
            ["naive"] if cells <= self.naive_max_cells else []
        )


def measure(config: SpeedConfig, log=print) -> list[dict]:
    """One row per (cell, batch, grid): ms per batch of each implementation, their ratios to
    the wavefront, and the 1-minute load average of the machine when it was measured."""
    if config.rematerialize and len(config.cells) * len(config.batches) * len(config.grids) > 1:
        raise ValueError(
            "peak memory is clean for one grid, cell and batch per process; give one of each "
            "(--grids, --cells, --batches) per invocation"
        )
    rows = []
    for cell in config.cells:
        for batch in config.batches:
            for n, m in config.grids:
                rows.append(_measure_one(config, cell, batch, n, m))
                log(
                    ", ".join(
                        f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                        for k, v in rows[-1].items()
                    )
                )
                keras.backend.clear_session()
    return rows


def wavefront_updates(n, m):
    """Cell slots the wavefront computes: n + m - 1 diagonals of min(n, m) + 1 slots."""
    return (min(n, m) + 1) * (n + m - 1)


def _measure_one(config, cell, batch, n, m):
    x, y, mask = grid_inputs(batch, n, m, config.dim)
    kwargs = dict(
        units=config.units, cell=cell, num_layers=config.num_layers, directions=config.directions
    )
    wavefront = CoupledLSTM(**kwargs)
    wavefront([x, y], mask=mask)
    row = {
        "cell": cell,
        "batch": batch,
        "n": n,
        "m": m,
        "cells": n * m,
        "updates": wavefront_updates(n, m),
    }
    layers = {name: _COMPARED[name](**kwargs) for name in config.compared(n * m)}
    layers["wavefront"] = wavefront  # after the rematerialized layer (module docstring)
    for name, layer in layers.items():
        if layer is not wavefront:
            copy_weights(wavefront, layer, x, y, mask)
        with PeakMemory() as memory:
            wall, cpu = best_times(training_step_fn(layer), (x, y, mask), config.repeats)
        row[f"{name}_ms"], row[f"{name}_cpu_ms"] = 1000 * wall, 1000 * cpu
        if memory.peak_bytes is not None:
            row[f"{name}_peak_mib"] = memory.peak_bytes / 2**20
    for name in config.compared(n * m):
        row[f"{name}_over_wavefront"] = row[f"{name}_ms"] / row["wavefront_ms"]
        row[f"{name}_over_wavefront_cpu"] = row[f"{name}_cpu_ms"] / row["wavefront_cpu_ms"]
    row["load_average"] = os.getloadavg()[0]
    return row
