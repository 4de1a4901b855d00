"""The benchmark measures every quantity on real lengths, and bucketing pays off."""
from gcnn_match.experiments import registry
from gcnn_match.training.bench import bench_experiment, render_markdown

TINY = {"variant": "gcnn", "hidden": 16, "context_layers": 1, "aggregation_layers": 1,
        "mlp_hidden": 16}


def test_bench_reports_throughput_and_latency(shared_data, tmp_path):
    config = registry.get("gcnn/quora/gcnn").replace(
        model_kwargs=TINY, max_train_examples=400, max_eval_examples=400)
    result = bench_experiment(config, shared_data, tmp_path, steps=3, warmup=1,
                              latency_batches=5)
    for key in ("train_pairs_per_second_bucket", "train_pairs_per_second_fixed",
                "inference_pairs_per_second", "latency_p50_ms", "latency_p90_ms"):
        assert result[key] > 0, key
    assert result["mean_length"] < 40  # Quora questions are far shorter than the cut-off
    env = {"cpu": "cpu", "cpu_count": 2, "tensorflow": "x", "keras": "y", "keras_backend": "z"}
    assert "| gcnn/quora/gcnn |" in render_markdown([result], env, "cmd")


def test_time_ratios_come_from_side_by_side_throughput():
    from gcnn_match.training.bench import render_time_ratios

    results = [{"row": "GCNN", "train_pairs_per_second_bucket": 100.0,
                "train_pairs_per_second_fixed": 50.0},
               {"row": "CNN", "train_pairs_per_second_bucket": 200.0,
                "train_pairs_per_second_fixed": 75.0}]
    configs = registry.select(table="gcnn-quora")
    text = render_time_ratios(results, configs, registry.time_ratios("gcnn-quora"))
    assert "| GCNN / CNN | 1.32 | 2.00 | 1.50 |" in text
    assert "ESIM" not in text  # rows not benchmarked are left out
