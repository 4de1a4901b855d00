"""The benchmark measures every quantity on real lengths, in-process and in a worker process."""

import numpy as np
import pytest

from gcnn_match.benchmarks.experiment_cost import _failing_variants, bench_experiment
from gcnn_match.benchmarks.worker import WorkerError, error_line, run_worker
from gcnn_match.experiments import registry
from gcnn_match.reporting.bench_report import _speedup_table, render, speedups
from tests.conftest import REPO
from tests.reporting.bench_environment import ENVIRONMENT

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


@pytest.mark.slow
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
    steps = result["train_step_seconds_bucket"]  # each timed step, for a ratio's interval
    assert len(steps) == result["timed_steps_bucket"] == 2 and min(steps) > 0
    # A tiny model can fit in memory this long-lived test process freed earlier (not counted,
    # see PeakMemory; the benchmark measures each row in a fresh process), so only >= 0 here;
    # tests/benchmarks/test_peak_memory_and_machine.py checks the measurement on a real allocation.
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
    text = render([result], ENVIRONMENT, "cmd", [], lambda model: False)
    assert "| gcnn/quora/gcnn |" in text and "fused/unfused gate convs" in text
    # Only the fused comparison was measured: no XLA/oneDNN/JAX column, no settings table.
    assert "XLA on/off" not in text and "Settings these measurements support" not in text


@pytest.mark.slow
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


@pytest.mark.slow
def test_a_worker_started_with_tcmalloc_preloaded_records_it(shared_data, tmp_path):
    from gcnn_match.benchmarks.machine import find_tcmalloc

    library = find_tcmalloc()
    if library is None:
        pytest.skip("no tcmalloc library on this machine (apt install libtcmalloc-minimal4)")
    result = run_worker(
        _tiny_config(),
        {"LD_PRELOAD": library},
        data_dir=str(shared_data),
        cache_dir=str(tmp_path),
        steps=1,
        warmup=1,
        full=False,
    )
    assert result["environment"]["allocator"] == "tcmalloc"
    assert result["train_pairs_per_second_bucket"] > 0


def _fail_as_keras_does(config, **arguments):
    """A measurement that fails with a message whose last line is the failing call's arguments,
    as Keras' errors end."""
    raise ValueError(
        "The scan's trip count is not static.\n\nArguments received:\n  • kwargs=<class 'x'>"
    )


def test_error_line_names_the_error_and_its_first_line():
    assert error_line(ValueError("first line\n  • kwargs=x")) == "ValueError: first line"
    assert error_line(KeyError()) == "KeyError"


@pytest.mark.slow
def test_a_failed_worker_reports_its_errors_first_line_not_its_last():
    with pytest.raises(WorkerError) as failed:
        run_worker(
            _tiny_config(),
            {"PYTHONPATH": str(REPO)},
            function="tests.benchmarks.test_experiment_cost:_fail_as_keras_does",
        )
    assert str(failed.value).endswith(": ValueError: The scan's trip count is not static.")


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
