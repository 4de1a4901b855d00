"""The benchmark measures every quantity on real lengths, in-process and in a worker process."""

import numpy as np
import pytest

from gcnn_match.benchmarks.experiment_cost import _failing_variants, bench_experiment
from gcnn_match.benchmarks.worker import WorkerError, run_worker
from gcnn_match.experiments import registry
from gcnn_match.reporting.bench_report import _speedup_table, render, render_time_ratios, speedups

TINY = {
    "variant": "gcnn",
    "hidden": 16,
    "context_layers": 1,
    "aggregation_layers": 1,
    "mlp_hidden": 16,
}


def _tiny_config():
    return registry.get("gcnn/quora/gcnn").replace(
        model_kwargs=TINY,
        max_train_examples=400,
        max_eval_examples=400,
        embeddings="random",
        embedding_dim=8,
    )


def test_bench_measures_cost_and_optimisations(shared_data, tmp_path):
    result = bench_experiment(
        _tiny_config(),
        shared_data,
        tmp_path,
        steps=2,
        warmup=1,
        latency_batches=2,
        compare=("fused",),
    )
    for key in (
        "train_pairs_per_second_bucket",
        "train_pairs_per_second_fixed",
        "inference_pairs_per_second",
        "latency_p50_ms",
        "latency_p90_ms",
        "matmul_peak_gflops",
        "train_gflops_per_second_fixed",
    ):
        assert result[key] > 0, key
    # A tiny model can fit in memory this long-lived test process freed earlier (not counted,
    # see PeakMemory; the benchmark measures each row in a fresh process), so only >= 0 here;
    # tests/training/test_profiling.py checks the measurement on a real allocation.
    assert result["peak_memory_bytes"] >= 0
    assert result["mean_length"] < 40  # Quora questions are far shorter than the cut-off
    # Training costs about three forward passes; at least the context convolutions (two
    # sentences, 40 positions, 3 fused gates of a width-3 kernel) are counted.
    conv = 2 * 2 * 40 * 3 * 8 * 3 * 16
    assert result["inference_flops_per_pair"] > conv
    assert 2.5 < result["train_flops_per_pair"] / result["inference_flops_per_pair"] < 3.5
    assert 0 < result["train_gflops_per_second_fixed"] < result["matmul_peak_gflops"]
    assert "xla" not in result  # not asked for (XLA compiles are slow for a unit test)
    assert result["fused"]["on"] > 0 and result["fused"]["off"] > 0  # GCNN has 3 gate blocks
    ratios = speedups(result)
    assert ratios["fused"] == pytest.approx(result["fused"]["on"] / result["fused"]["off"])
    assert ratios["xla"] is None and ratios["jax_train"] is None  # not measured
    env = {
        "cpu": "cpu",
        "cpu_count": 2,
        "platform": "linux",
        "tensorflow": "x",
        "keras": "y",
        "numpy": "z",
        "python": "3",
    }
    text = render([result], env, "cmd", [], lambda model: False)
    assert "| gcnn/quora/gcnn |" in text and "| compare_aggregate |" in text


def test_worker_process_measures_throughput_under_the_requested_environment(shared_data, tmp_path):
    result = run_worker(
        _tiny_config(),
        {"TF_ENABLE_ONEDNN_OPTS": "0"},
        data_dir=str(shared_data),
        cache_dir=str(tmp_path),
        steps=1,
        warmup=1,
        full=False,
    )
    assert result["onednn"] is False and result["backend"] == "tensorflow"
    assert result["train_pairs_per_second_bucket"] > 0
    assert "latency_p50_ms" not in result  # throughput only
    with pytest.raises(WorkerError, match="no_such_folder"):  # the worker's last error line
        run_worker(
            _tiny_config(),
            data_dir=str(tmp_path / "no_such_folder"),
            cache_dir=str(tmp_path),
            steps=1,
            warmup=1,
            full=False,
        )


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
    env = {
        "cpu": "cpu",
        "cpu_count": 2,
        "platform": "linux",
        "tensorflow": "x",
        "keras": "y",
        "numpy": "z",
        "python": "3",
        "jax": "0.10",
    }
    text = render(
        [fast, broken],
        env,
        "cmd",
        [{"data": "quora", "cold_seconds": 6.0, "warm_seconds": 2.0}],
        lambda model: False,
    )
    assert "| m/a | 2.00x | 1.20x | 2.00x | – | 1.50x | 0.50x |" in text
    assert "m/b (JAX backend): m/b: NotImplementedError: no scan" in text
    assert "| quora | 6.0 | 2.0 | 3.0x |" in text
    assert "150.0 (75%)" in text and "| 1024 |" in text  # of the 200 GFLOP/s peak; MiB


def test_timing_warms_every_shape_then_interleaves_and_keeps_to_its_budget():
    import time

    from gcnn_match.benchmarks.experiment_cost import timed

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


class _Model:
    """Fails with `error` on batches of at least `fails_from` pairs (one shape, not another)."""

    def __init__(self, error=None, fails_from=0):
        self.error, self.fails_from = error, fails_from

    def train_on_batch(self, *batch):
        if self.error and len(batch[1]) >= self.fails_from:
            raise self.error


def test_a_variant_that_fails_is_reported_not_fatal():
    failed = _failing_variants(
        {
            "configured": _Model(RuntimeError("the configured model is not probed")),
            "jit_True": _Model(ValueError("XLA compilation requires a fixed size\ndetails")),
            "unfused": _Model(),
        },
        [({}, [])],
    )
    assert failed == {"jit_True": "ValueError: XLA compilation requires a fixed size"}
    # A variant that fails only at a later batch shape is caught too.
    batches = [({"x": np.zeros((2, 3))}, [0, 1])] * 2 + [({"x": np.zeros((3, 5))}, [0, 1, 1])]
    later = _failing_variants({"jit_True": _Model(ValueError("shape 5"), fails_from=3)}, batches)
    assert later == {"jit_True": "ValueError: shape 5"}
    record = {
        "name": "clstm/snli/lc_lstms",
        "model": "clstm",
        "train_pairs_per_second_bucket": 10.0,
        "train_pairs_per_second_fixed": 5.0,
        "xla": {"error": failed["jit_True"]},
    }
    assert speedups(record)["xla"] is None
    text = "\n".join(_speedup_table([record]))
    assert "clstm/snli/lc_lstms (XLA toggled): ValueError: XLA compilation" in text
