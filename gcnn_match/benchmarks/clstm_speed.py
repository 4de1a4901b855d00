"""Wavefront vs cell-by-cell speed of the coupled LSTM layer, and how its cost grows with n·m.

`CoupledLSTM` updates all cells of one anti-diagonal at once: n + m - 1 sequential steps, each
over min(n, m) slots (the diagonal held along the shorter sentence). The
reference here, `NaiveCoupledLSTM`, is the same layer with the same weights and the same cell
arithmetic (`CoupledLSTM._cell`), but visits the n·m cells one at a time in a `tf.while_loop`
(row-major, each step batched only over examples and directions). Both run as `tf.function`
graphs without XLA, as training does (`ExperimentConfig.jit_compile` is off by default), and
are timed forward + backward (gradients of a scalar of the output with respect to every
weight and both inputs): the work of one training step, without the optimizer update.
"""

import dataclasses
import os
import time

import keras
import numpy as np
import tensorflow as tf

from gcnn_match.layers.coupled_lstm import CoupledLSTM


class NaiveCoupledLSTM(CoupledLSTM):
    """`CoupledLSTM` computed one cell at a time: the speed reference for the wavefront scan.

    A `tf.while_loop` visits the n·m cells of each block in row-major order (for every
    direction at once, which the parent stacks on the batch axis). The column predecessor
    (i, j - 1) is the cell of the previous step; the row predecessor (i - 1, j) is read back
    from the `TensorArray` of finished cells, m steps earlier. Masking, directions, stacking
    and weights are the parent's, so outputs match it to float rounding.

    Args:
        As `CoupledLSTM`.
    """

    def _scan(self, block, row_term, col_term, grid_term, mask_x, mask_y):
        width = self.num_streams * self.units
        batch, n, m = tf.shape(mask_x)[0], tf.shape(mask_x)[1], tf.shape(mask_y)[1]
        dtype = mask_x.dtype
        zeros = tf.zeros((batch, 1, width), dtype)

        def body(index, h_left, c_left, cells):
            i, j = index // m, index % m
            first_column = tf.equal(j, 0)  # (i, 0) has the zero boundary on its left
            col_pred = tuple(tf.where(first_column, zeros, s) for s in (h_left, c_left))
            above = tf.cond(
                i > 0,
                lambda: cells.read(tf.maximum(index - m, 0))[:, None],
                lambda: tf.zeros((batch, 1, 2 * width), dtype),
            )
            row_pred = (above[..., :width], above[..., width:])
            if grid_term is None:
                pre_in = row_term[:, i][:, None] + col_term[:, j][:, None]
            else:
                pre_in = self._grid_input(block, grid_term[:, i, j][:, None])
            valid = (mask_x[:, i] * mask_y[:, j])[:, None]
            h, c = self._cell(block, pre_in, col_pred, row_pred, valid)
            cells = cells.write(index, tf.concat([h, c], axis=-1)[:, 0])
            return index + 1, h, c, cells

        cells = tf.TensorArray(
            dtype, size=n * m, clear_after_read=False, element_shape=(None, 2 * width)
        )
        _, _, _, cells = tf.while_loop(
            lambda index, *_: index < n * m, body, (tf.constant(0), zeros, zeros, cells)
        )
        by_cell = tf.transpose(cells.stack()[..., :width], (1, 0, 2))  # (B', n·m, width)
        return tf.reshape(by_cell, (batch, n, m, width))


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
    """A compiled forward + backward pass of `layer` (no XLA), returning the loss."""

    @tf.function
    def step(x, y, mask):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            loss = tf.reduce_sum(layer([x, y], mask=mask))
        tape.gradient(loss, [x, y] + layer.trainable_weights)
        return loss

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


@dataclasses.dataclass(frozen=True)
class SpeedConfig:
    """What is measured.

    Attributes:
        cells: cell types ("loose", "tight").
        grids: grid shapes (n, m); square ones show the growth with n·m, oblong ones that
            the wavefront's work follows min(n, m)·(n + m - 1), not n·(n + m - 1).
        batches: sentence pairs per batch: 32 (the rows' batch, compute-bound) and 1 (where
            the number of sequential steps dominates).
        units, dim: hidden size k and word-vector size e (the paper's 50 and 100).
        num_layers: stacked blocks (one: cost per block; stacks multiply it).
        directions: scan directions (the paper's four).
        repeats: timed calls per measurement (the fastest is reported).
        naive_max_cells: the per-cell loop is skipped above this n·m (too slow to wait for).
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


def measure(config: SpeedConfig, log=print) -> list[dict]:
    """One row per (cell, batch, grid): ms per batch of both implementations, their ratio,
    and the 1-minute load average of the machine when it was measured."""
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
    """Cell slots the wavefront computes: n + m - 1 diagonals of min(n, m) slots."""
    return min(n, m) * (n + m - 1)


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
    layers = {"wavefront": wavefront}
    if n * m <= config.naive_max_cells:
        layers["naive"] = NaiveCoupledLSTM(**kwargs)
        copy_weights(wavefront, layers["naive"], x, y, mask)
    for name, layer in layers.items():
        wall, cpu = best_times(training_step_fn(layer), (x, y, mask), config.repeats)
        row[f"{name}_ms"], row[f"{name}_cpu_ms"] = 1000 * wall, 1000 * cpu
    if "naive" in layers:
        row["naive_over_wavefront"] = row["naive_ms"] / row["wavefront_ms"]
        row["naive_over_wavefront_cpu"] = row["naive_cpu_ms"] / row["wavefront_cpu_ms"]
    row["load_average"] = os.getloadavg()[0]
    return row


# The work each implementation's time is fitted against (row key, formula): slot updates of
# the wavefront, cells of the per-cell loop.
WORK = {"wavefront": ("updates", "min(n, m)·(n + m - 1)"), "naive": ("cells", "n·m")}


def growth_exponents(rows, key, work="cells"):
    """ "cell, batch B" -> slope of log(time `key`) against log(`work`), "cells" (n·m) or
    "updates" (the wavefront's slots); 1: time proportional to that work."""
    exponents = {}
    for cell, batch in dict.fromkeys((r["cell"], r["batch"]) for r in rows):
        points = [
            (np.log(r[work]), np.log(r[key]))
            for r in rows
            if (r["cell"], r["batch"]) == (cell, batch) and key in r
        ]
        if len(points) >= 2:
            exponents[f"{cell}, batch {batch}"] = float(np.polyfit(*zip(*points), 1)[0])
    return exponents


def render_markdown(rows, config: SpeedConfig, environment, command):
    """The table, the fitted growth exponents and how the numbers were made."""
    directions = "four" if len(config.directions) == 4 else str(len(config.directions))
    lines = [
        f"Produced by `{command}` on {environment['cpu']} ({environment['cpu_count']} "
        f"cores), TensorFlow {environment['tensorflow']}, no XLA. {config.num_layers} "
        f"block(s) of {directions} directions, k = {config.units}, e = {config.dim}; "
        f"forward + backward, fastest of {config.repeats} calls: wall ms (process CPU "
        "ms, all threads, which waiting for a busy core does not inflate). The wavefront "
        "takes n + m - 1 sequential steps of min(n, m) slots (its updates), the per-cell "
        "loop n·m steps of one cell.",
        "",
        "| cell | batch | n × m | n·m | wavefront updates | wavefront ms (CPU) "
        "| naive ms (CPU) | naive / wavefront (CPU) | load avg |",
        "|" + "---|" * 9,
    ]
    for r in rows:
        naive = "naive_ms" in r
        cells = [
            r["cell"],
            r["batch"],
            f"{r['n']} × {r['m']}",
            r["cells"],
            r["updates"],
            f"{r['wavefront_ms']:.1f} ({r['wavefront_cpu_ms']:.1f})",
            f"{r['naive_ms']:.1f} ({r['naive_cpu_ms']:.1f})" if naive else "skipped",
            f"{r['naive_over_wavefront']:.1f}x ({r['naive_over_wavefront_cpu']:.1f}x)"
            if naive
            else "–",
            f"{r['load_average']:.1f}",
        ]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    lines.append("")
    for name, (work, formula) in WORK.items():
        exponents = growth_exponents(rows, f"{name}_cpu_ms", work)
        if exponents:
            fitted = "; ".join(f"{group}: {slope:.2f}" for group, slope in exponents.items())
            lines.append(
                f"- {name}: CPU time ∝ ({formula})^a, fitted a = {fitted} "
                "(a = 1: linear in that work)."
            )
    return "\n".join(lines) + "\n"
