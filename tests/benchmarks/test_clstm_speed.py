"""The per-cell reference loop computes exactly what the wavefront layer computes."""

import numpy as np
import pytest
import tensorflow as tf

from gcnn_match.benchmarks.clstm_speed import (
    NaiveCoupledLSTM,
    SpeedConfig,
    copy_weights,
    growth_exponents,
    measure,
    render_markdown,
)
from gcnn_match.layers.coupled_lstm import CoupledLSTM


@pytest.mark.parametrize("cell", ["tight", "loose"])
def test_naive_loop_matches_wavefront_on_a_padded_grid(cell):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.normal(size=(2, 3, 5)).astype("float32"))
    y = tf.constant(rng.normal(size=(2, 4, 5)).astype("float32"))
    mask = [
        tf.constant([[1, 1, 1], [1, 1, 0]], "float32"),
        tf.constant([[1, 1, 1, 1], [1, 1, 1, 0]], "float32"),
    ]
    wavefront = CoupledLSTM(4, cell=cell, num_layers=2)
    expected = wavefront([x, y], mask=mask)
    naive = NaiveCoupledLSTM(4, cell=cell, num_layers=2)
    copy_weights(wavefront, naive, x, y, mask)
    np.testing.assert_allclose(naive([x, y], mask=mask).numpy(), expected.numpy(), atol=1e-5)
    compiled = tf.function(lambda: naive([x, y], mask=mask))()  # as measured: in a graph
    np.testing.assert_allclose(compiled.numpy(), expected.numpy(), atol=1e-5)
    assert np.abs(expected.numpy()[1, :, 3]).max() == 0 and np.abs(expected.numpy()).max() > 0


def test_measure_and_render_on_a_tiny_grid():
    config = SpeedConfig(
        cells=("tight",),
        grids=((2, 2), (3, 3), (3, 1)),
        batches=(2,),
        units=3,
        dim=4,
        repeats=1,
        naive_max_cells=4,
    )
    rows = measure(config, log=lambda *_: None)
    assert [(r["n"], r["m"], "naive_ms" in r) for r in rows] == [
        (2, 2, True),
        (3, 3, False),
        (3, 1, True),
    ]
    assert [r["updates"] for r in rows] == [2 * 3, 3 * 5, 1 * 3]
    assert rows[0]["naive_over_wavefront"] == rows[0]["naive_ms"] / rows[0]["wavefront_ms"]
    assert 0 < rows[0]["naive_cpu_ms"] and 0 < rows[1]["wavefront_cpu_ms"]
    assert set(growth_exponents(rows, "wavefront_cpu_ms")) == {"tight, batch 2"}
    assert set(growth_exponents(rows, "naive_cpu_ms")) == {"tight, batch 2"}
    env = {"cpu": "cpu", "cpu_count": 2, "tensorflow": tf.__version__}
    table = render_markdown(rows, config, env, "cmd")
    assert "| tight | 2 | 3 × 3 | 9 | 15 |" in table and "skipped" in table


def test_growth_exponent_of_a_linear_cost_is_one():
    rows = [
        {"cell": "loose", "batch": 1, "cells": c, "wavefront_ms": 0.5 * c} for c in (64, 256, 1024)
    ]
    assert growth_exponents(rows, "wavefront_ms") == {"loose, batch 1": pytest.approx(1.0)}
    rows = [dict(row, updates=row["cells"] ** 2) for row in rows]
    assert growth_exponents(rows, "wavefront_ms", "updates") == {
        "loose, batch 1": pytest.approx(0.5)
    }
