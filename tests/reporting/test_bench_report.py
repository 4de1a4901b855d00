"""The benchmark report: time ratios, before/after ratios, failures and suggested defaults."""

import pytest

from gcnn_match.experiments import registry
from gcnn_match.reporting.bench_report import render, render_time_ratios, speedups
from tests.reporting.bench_environment import ENVIRONMENT


def test_time_ratios_come_from_side_by_side_throughput():
    results = [
        {
            "name": "gcnn/quora/gcnn",
            "row": "GCNN",
            "train_pairs_per_second_bucket": 100.0,
            "train_pairs_per_second_fixed": 50.0,
        },
        {
            "name": "gcnn/quora/cnn",
            "row": "CNN",
            "train_pairs_per_second_bucket": 200.0,
            "train_pairs_per_second_fixed": 75.0,
        },
        {
            "name": "gcnn/snli/cnn",
            "row": "CNN",
            "train_pairs_per_second_bucket": 1.0,
            "train_pairs_per_second_fixed": 1.0,
        },
    ]
    configs = registry.select(table="gcnn-quora")
    text = render_time_ratios(results, configs, registry.time_ratios("gcnn-quora"))
    assert "| GCNN / CNN | 1.32 | 2.00 | 1.50 |" in text  # the SNLI row is another table's
    assert "ESIM" not in text  # rows not benchmarked are left out
    assert (
        render_time_ratios(
            results[2:], registry.select(table="gcnn-snli"), registry.time_ratios("gcnn-snli")
        )
        == ""
    )  # nothing to compare


def _record(name, model, **rates):
    record = {
        "name": name,
        "row": name,
        "model": model,
        "max_len_a": 40,
        "max_len_b": 40,
        "mean_length": 14.0,
        "trainable_params_without_embeddings": 10,
        "train_flops_per_pair": 3e9,
        "inference_flops_per_pair": 1e9,
        "train_pairs_per_second_bucket": 100.0,
        "train_pairs_per_second_fixed": 50.0,
        "inference_pairs_per_second": 400.0,
        "latency_p50_ms": 10.0,
        "latency_p90_ms": 20.0,
        "train_gflops_per_second_fixed": 150.0,
        "matmul_peak_gflops": 200.0,
        "peak_memory_bytes": 2**30,
        "onednn": True,
        "throughput": {"train_pairs_per_second_bucket": 80.0, "inference_pairs_per_second": 300.0},
    }
    record.update(rates)
    return record


def test_report_ratios_failures_and_suggested_defaults():
    from gcnn_match.reporting.bench_report import suggested_defaults

    fast = _record(
        "m/a",
        "gcnn_like",
        xla={"on": 120.0, "off": 100.0},
        onednn_toggled={"train_pairs_per_second_bucket": 40.0},
        jax={"train_pairs_per_second_bucket": 120.0, "inference_pairs_per_second": 150.0},
    )
    broken = _record(
        "m/b",
        "lstm_like",
        xla={"on": 50.0, "off": 100.0},
        onednn_toggled={"train_pairs_per_second_bucket": 80.0},
        jax={"error": "m/b: NotImplementedError: no scan"},
    )
    ratios = speedups(fast)
    # Cross-process ratios are against the throughput-only TF process (80 pairs/s), not the
    # full worker's 100.
    assert ratios["onednn"] == pytest.approx(2.0) and ratios["jax_train"] == pytest.approx(1.5)
    assert ratios["jax_inference"] == pytest.approx(0.5) and ratios["bucketing"] == 2.0
    assert speedups(broken)["jax_train"] is None
    defaults = suggested_defaults([fast, broken])
    assert defaults["gcnn_like"]["jit_compile"] is True
    assert defaults["gcnn_like"]["backend"] == "jax"
    assert defaults["lstm_like"]["jit_compile"] is False
    assert defaults["lstm_like"]["onednn_on"] is True  # 1.00x: no reason to switch it off
    assert defaults["lstm_like"]["backend"] is None
    text = render(
        [fast, broken],
        ENVIRONMENT,
        "cmd",
        [{"data": "quora", "cold_seconds": 6.0, "warm_seconds": 2.0}],
        lambda model: False,
    )
    # No row measured fused gates: that column is left out.
    # Last: the throughput process (80 pairs/s) against the row's own (100), nothing changed.
    assert "| m/a | 2.00x | 1.20x | 2.00x | 1.50x | 0.50x | 0.80x |" in text
    assert ratios["repeat"] == pytest.approx(0.8)
    assert "fused/unfused" not in text and "Settings these measurements support" in text
    # No process of its own beside the row's: no cross-process column, not even the repeat.
    plain_record = _record("m/c", "cnn_like")
    del plain_record["throughput"]
    plain = render([plain_record], ENVIRONMENT, "cmd", [], lambda model: False)
    assert "| model | bucketing vs fixed padding |\n" in plain and "| m/c | 2.00x |" in plain
    assert "XLA on/off" not in plain and "Settings these measurements support" not in plain
    assert "JAX and tcmalloc need processes" not in plain and "JAX and tcmalloc need" in text
    assert "heap allocator" not in text  # no record names its allocator
    assert "m/b (JAX backend): m/b: NotImplementedError: no scan" in text
    assert "| quora | 6.0 | 2.0 | 3.0x |" in text
    assert "150.0 (75%)" in text and "| 1024 |" in text  # of the 200 GFLOP/s peak; MiB


def test_the_tcmalloc_ratio_is_oriented_by_the_allocator_each_process_ran_on():
    on_tcmalloc = {"allocator": "tcmalloc"}
    # The row's process on the system malloc, the toggled one on tcmalloc (80 vs 120 pairs/s).
    preloaded = _record(
        "m/a",
        "clstm",
        environment={"allocator": "system malloc"},
        allocator_toggled={"train_pairs_per_second_bucket": 120.0, "environment": on_tcmalloc},
    )
    assert speedups(preloaded)["tcmalloc"] == pytest.approx(1.5)
    # The row's process on tcmalloc, the toggled one without it.
    unloaded = _record(
        "m/b",
        "clstm",
        environment=on_tcmalloc,
        allocator_toggled={
            "train_pairs_per_second_bucket": 40.0,
            "environment": {"allocator": "system malloc"},
        },
    )
    assert speedups(unloaded)["tcmalloc"] == pytest.approx(2.0)
    # A preload that did not take: neither process ran on tcmalloc, so no ratio; nor where
    # the other process ran on neither tcmalloc nor the system malloc.
    missed = _record(
        "m/c",
        "clstm",
        environment={"allocator": "system malloc"},
        allocator_toggled={
            "train_pairs_per_second_bucket": 120.0,
            "environment": {"allocator": "system malloc"},
        },
    )
    assert speedups(missed)["tcmalloc"] is None
    other = _record(
        "m/e",
        "clstm",
        environment={"allocator": "jemalloc"},
        allocator_toggled={"train_pairs_per_second_bucket": 120.0, "environment": on_tcmalloc},
    )
    assert speedups(other)["tcmalloc"] is None
    failed = _record("m/d", "clstm", allocator_toggled={"error": "no tcmalloc library found"})
    text = render([preloaded, failed], ENVIRONMENT, "cmd", [], str)
    assert "is set); heap allocator: system malloc. Dense" in text
    assert "tcmalloc/system malloc" in text and "| 1.50x |" in text
    assert "m/d (tcmalloc toggled): no tcmalloc library found" in text
