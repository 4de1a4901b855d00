"""The speed measurement times both implementations per grid and its rows render."""

import pytest
import tensorflow as tf

from gcnn_match.benchmarks.clstm_speed import SpeedConfig, measure
from gcnn_match.reporting.clstm_speed_report import growth_exponents, render_markdown


@pytest.mark.slow
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
    assert [r["updates"] for r in rows] == [3 * 3, 4 * 5, 2 * 3]
    assert rows[0]["naive_over_wavefront"] == rows[0]["naive_ms"] / rows[0]["wavefront_ms"]
    assert 0 < rows[0]["naive_cpu_ms"] and 0 < rows[1]["wavefront_cpu_ms"]
    assert set(growth_exponents(rows, "wavefront_cpu_ms")) == {"tight, batch 2"}
    assert set(growth_exponents(rows, "naive_cpu_ms")) == {"tight, batch 2"}
    env = {"cpu": "cpu", "cpu_count": 2, "tensorflow": tf.__version__}
    table = render_markdown(rows, config, env, "cmd")
    assert "| tight | 2 | 3 × 3 | 9 | 20 |" in table and "skipped" in table


@pytest.mark.slow
def test_rematerialized_layer_is_timed_and_its_memory_recorded():
    config = SpeedConfig(
        cells=("loose",),
        grids=((3, 2),),
        batches=(2,),
        units=3,
        dim=4,
        num_layers=2,
        repeats=1,
        naive_max_cells=0,
        rematerialize=True,
    )
    (row,) = measure(config, log=lambda *_: None)
    assert "naive_ms" not in row
    assert row["rematerialized_over_wavefront"] == row["rematerialized_ms"] / row["wavefront_ms"]
    # The high-water mark includes the process itself, so it is at least the interpreter's.
    assert row["rematerialized_peak_mib"] > 10 and row["wavefront_peak_mib"] > 10
    env = {"cpu": "cpu", "cpu_count": 2, "tensorflow": tf.__version__}
    table = render_markdown([row], config, env, "cmd")
    assert "| rematerialized ms (CPU) | rematerialized / wavefront (CPU) |" in table
    assert "naive" not in table and "wavefront peak MiB" in table
