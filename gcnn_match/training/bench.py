"""Throughput of registered models on real length distributions, measured side by side.

Every model is timed in the same process on the same batches: training pairs/s with per-batch
padding + length bucketing and with fixed paper-length padding, inference pairs/s at batch 64,
and latency percentiles at batch 8.
"""
import time

import numpy as np

from gcnn_match.data.pipeline import batches_dataset, evaluation_schedule
from gcnn_match.training.inputs import apply_scale, prepare_data
from gcnn_match.training.loop import compiled_model, count_params, feature_flags, model_inputs
from gcnn_match.training.tasks import task_for


def _timed(fn, batches, warmup):
    for batch in batches[:warmup]:
        fn(batch)
    times = []
    for batch in batches[warmup:]:
        start = time.perf_counter()
        fn(batch)
        times.append(time.perf_counter() - start)
    return np.asarray(times)


def bench_experiment(config, data_dir, cache_dir=None, steps=10, warmup=3, latency_batches=30):
    """Measurements for one registered experiment on its dataset's real (dev) lengths."""
    config = apply_scale(config.replace(scale="low-resource", seed=1))
    data = prepare_data(config, data_dir, cache_dir, **feature_flags(config))
    inputs, vectors = model_inputs(config, data.encoder, data_dir, cache_dir, log=lambda *_: None)
    train = data.splits["train"]
    names = data.encoder.feature_names()
    max_lens = {"a": config.max_len_a, "b": config.max_len_b}
    result = {"name": config.name, "row": config.row, "batch_size": config.batch_size,
              "vectors": vectors, "mean_length": float(np.mean(train.lengths()))}
    model = None
    for padding in ("bucket", "fixed"):
        model = compiled_model(config, inputs)
        # The run's own first-epoch batches (whole questions for a ranking row).
        ds, _ = task_for(config.replace(padding=padding)).training_dataset(
            train, data.encoder, 0, 1)
        batches = list(ds.take(warmup + steps))
        pairs = sum(int(labels.shape[0]) for _, labels in batches[warmup:])
        seconds = _timed(lambda b, m=model: m.train_on_batch(*b), batches, warmup).sum()
        result[f"train_pairs_per_second_{padding}"] = pairs / seconds
    result["trainable_params"] = count_params(model)
    result["trainable_params_without_embeddings"] = count_params(model, exclude_embeddings=True)
    test = data.splits["test"]
    for batch_size, key in ((64, "inference"), (8, "latency")):
        schedule = evaluation_schedule(test.lengths(), batch_size)
        rng = np.random.RandomState(0)
        count = steps + warmup if key == "inference" else latency_batches + warmup
        chosen = [schedule[i] for i in rng.choice(len(schedule), count, replace=False)]
        batches = [features for features, _ in batches_dataset(test, chosen, names, max_lens,
                                                              config.bucket_width)]
        times = _timed(lambda b: model.predict_on_batch(b), batches, warmup)
        if key == "inference":
            result["inference_pairs_per_second"] = batch_size * len(times) / times.sum()
        else:
            result["latency_p50_ms"] = 1000 * float(np.percentile(times, 50))
            result["latency_p90_ms"] = 1000 * float(np.percentile(times, 90))
    result["bucketing_speedup"] = (result["train_pairs_per_second_bucket"]
                                   / result["train_pairs_per_second_fixed"])
    return result


def render_markdown(results, environment, command):
    lines = [f"Produced by `{command}`.", "",
             f"Hardware: {environment['cpu']} ({environment['cpu_count']} cores), "
             f"TensorFlow {environment['tensorflow']}, Keras {environment['keras']} "
             f"({environment['keras_backend']} backend).", "",
             "| model | params (non-emb.) | mean len | train pairs/s (bucketed) | train pairs/s "
             "(fixed padding) | bucketing speed-up | inference pairs/s (b=64) | latency p50/p90 "
             "ms (b=8) |", "|" + "---|" * 8]
    for r in results:
        lines.append(
            f"| {r['name']} | {r['trainable_params_without_embeddings']:,} "
            f"| {r['mean_length']:.1f} | {r['train_pairs_per_second_bucket']:.0f} "
            f"| {r['train_pairs_per_second_fixed']:.0f} | {r['bucketing_speedup']:.2f}x "
            f"| {r['inference_pairs_per_second']:.0f} "
            f"| {r['latency_p50_ms']:.0f} / {r['latency_p90_ms']:.0f} |")
    return "\n".join(lines) + "\n"


def render_time_ratios(results, configs, pairs):
    """Training-time ratios of row pairs from throughput measured side by side, beside the
    paper's time-per-epoch ratios (GTX 1080)."""
    by_row = {r["row"]: r for r in results}
    paper = {c.row: c.targets.get("seconds_per_epoch") for c in configs}
    lines = ["", "| time ratio | paper (GPU) | ours, bucketed batches | ours, fixed padding |",
             "|---|---|---|---|"]
    for slow, fast in pairs:
        if slow not in by_row or fast not in by_row:
            continue
        cells = [f"{paper[slow] / paper[fast]:.2f}" if paper.get(slow) and paper.get(fast)
                 else "–"]
        for padding in ("bucket", "fixed"):
            key = f"train_pairs_per_second_{padding}"
            cells.append(f"{by_row[fast][key] / by_row[slow][key]:.2f}")
        lines.append(f"| {slow} / {fast} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
