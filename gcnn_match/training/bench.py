"""What one registered experiment costs on this machine, measured on real length distributions.

`bench_experiment` measures one row in the current process (its backend and environment are
the process'), on batches drawn from the row's training part (the official dev split at the
low-resource scale), so lengths are the real ones:

- training pairs/s with per-batch padding + length bucketing, and with fixed padding to the
  paper's cut-offs; inference pairs/s at batch 64; latency p50/p90 at batch 8;
- with `full=True` (the TensorFlow worker): trainable parameters; FLOPs per pair of one
  training step (forward + backward, without the optimizer update) and of inference, counted
  by TF's graph profiler at the cut-off lengths (`profiling.counted_flops`); the achieved
  training GFLOP/s at fixed padding (the same lengths, so FLOPs x pairs/s is exact) as a
  fraction of this process' measured dense-matmul peak; the peak memory of building the
  model and training at fixed padding (`profiling.PeakMemory`); XLA on vs off and fused vs
  unfused gate convolutions, both on the bucketed batches.

Every timing is a steady state: before timing, the function runs once on the first `warmup`
batches and once on one batch of every batch shape it will be timed on, so no timed call
traces or compiles (XLA and JAX compile once per shape; the warm-up seconds are recorded
beside). `experiments/bench.py` runs this in a fresh process per row and per environment
(`bench_worker`) and renders `BENCHMARKS.md`.
"""
import time

import keras
import numpy as np

from gcnn_match.data.pipeline import batches_dataset, evaluation_schedule, training_schedule
from gcnn_match.layers.fused_conv import set_fused
from gcnn_match.training.inputs import apply_scale, prepare_data
from gcnn_match.training.loop import compiled_model, count_params, feature_flags, model_inputs
from gcnn_match.training.profiling import (PeakMemory, counted_flops, matmul_peak_gflops,
                                           onednn_enabled)


def _features(batch):
    return batch[0] if isinstance(batch, tuple) else batch


def _shape_key(batch):
    return tuple(sorted((name, value.shape) for name, value in _features(batch).items()))


def timed(fn, batches, warmup):
    """(seconds of each timed call, warm-up seconds): `fn` runs first on `batches[:warmup]`
    and on one batch of every shape among the rest not seen yet, then each of
    `batches[warmup:]` is timed."""
    start, seen = time.perf_counter(), set()
    for i, batch in enumerate(batches):
        key = _shape_key(batch)
        if i < warmup or key not in seen:
            fn(batch)
            seen.add(key)
    warm = time.perf_counter() - start
    times = []
    for batch in batches[warmup:]:
        start = time.perf_counter()
        fn(batch)
        times.append(time.perf_counter() - start)
    return np.asarray(times), warm


def _numpy_batches(split, schedule, names, max_lens, bucket_width, padding="bucket"):
    ds = batches_dataset(split, schedule, names, max_lens, bucket_width, padding)
    return list(ds.as_numpy_iterator())


def _jit(config, jit_compile):
    # The JAX backend always compiles (Keras' non-jitted JAX path runs op by op).
    return True if keras.backend.backend() == "jax" else jit_compile


def _train_rate(config, inputs, batches, warmup, jit_compile, fused=True):
    """(model, {"pairs_per_second", "warmup_seconds"}) of `train_on_batch` on `batches`."""
    model = compiled_model(config.replace(jit_compile=_jit(config, jit_compile)), inputs)
    if not fused:
        set_fused(model, False)
    times, warm = timed(lambda b: model.train_on_batch(*b), batches, warmup)
    pairs = sum(len(labels) for _, labels in batches[warmup:])
    return model, {"pairs_per_second": pairs / times.sum(), "warmup_seconds": warm}


def _step_flops(model, batch):
    """FLOPs per pair of one training step and of inference at `batch`'s shapes."""
    import tensorflow as tf

    features, labels = batch
    names = sorted(features)
    specs = [tf.TensorSpec(features[n].shape, tf.as_dtype(features[n].dtype)) for n in names]

    def infer(*args):
        return model(dict(zip(names, args)), training=False)

    def train(*args):
        x = dict(zip(names, args[:-1]))
        with tf.GradientTape() as tape:
            loss = model.compute_loss(x=x, y=args[-1], y_pred=model(x, training=True))
        return tape.gradient(loss, model.trainable_variables)

    label_spec = tf.TensorSpec(labels.shape, tf.as_dtype(labels.dtype))
    size = len(labels)
    return (counted_flops(train, specs + [label_spec]) / size,
            counted_flops(infer, specs) / size)


def bench_experiment(config, data_dir, cache_dir=None, steps=10, warmup=3, latency_batches=30,
                     full=True, compare=("xla", "fused")):
    """Measurements of one registered experiment on its dataset's real (dev) lengths.

    `full=False` measures throughput only (bucketed training, inference): what the other
    environments (oneDNN toggled, JAX) are compared on. `compare` names the in-process
    comparisons of a full measurement: "xla" (jit_compile on vs off) and "fused" (fused vs
    per-block gate convolutions, for models that have multi-block convolutions).
    """
    config = apply_scale(config.replace(scale="low-resource", seed=1))
    keras.utils.set_random_seed(config.seed)
    data = prepare_data(config, data_dir, cache_dir, **feature_flags(config))
    inputs, vectors = model_inputs(config, data.encoder, data_dir, cache_dir, log=lambda *_: None)
    train, test = data.splits["train"], data.splits["test"]
    names = data.encoder.feature_names()
    max_lens = {"a": config.max_len_a, "b": config.max_len_b}
    schedule = training_schedule(train.lengths(), config.batch_size, 1, 0)[: warmup + steps]
    bucketed = _numpy_batches(train, schedule, names, max_lens, config.bucket_width)
    result = {"name": config.name, "row": config.row, "model": config.model,
              "backend": keras.backend.backend(), "batch_size": config.batch_size,
              "max_len_a": config.max_len_a, "max_len_b": config.max_len_b,
              "vectors": vectors, "mean_length": float(np.mean(train.lengths())),
              "jit_compile": _jit(config, config.jit_compile), "timed_steps": steps}
    if keras.backend.backend() == "tensorflow":
        result["onednn"] = onednn_enabled()
    if full:
        result["matmul_peak_gflops"] = matmul_peak_gflops()
        fixed = _numpy_batches(train, schedule, names, max_lens, config.bucket_width, "fixed")
        with PeakMemory() as memory:
            model, rate = _train_rate(config, inputs, fixed, warmup, config.jit_compile)
        result["train_pairs_per_second_fixed"] = rate["pairs_per_second"]
        result["peak_memory_bytes"] = memory.bytes
        train_flops, infer_flops = _step_flops(model, fixed[0])
        result.update(train_flops_per_pair=train_flops, inference_flops_per_pair=infer_flops)
        result["train_gflops_per_second_fixed"] = (
            train_flops * result["train_pairs_per_second_fixed"] / 1e9)
        result["fraction_of_matmul_peak"] = (result["train_gflops_per_second_fixed"]
                                             / result["matmul_peak_gflops"])
        result["trainable_params"] = count_params(model)
        result["trainable_params_without_embeddings"] = count_params(model,
                                                                     exclude_embeddings=True)
    model, rate = _train_rate(config, inputs, bucketed, warmup, config.jit_compile)
    result["train_pairs_per_second_bucket"] = rate["pairs_per_second"]
    result["train_warmup_seconds_bucket"] = rate["warmup_seconds"]
    if full and "xla" in compare and keras.backend.backend() == "tensorflow":
        result["xla"] = _xla_comparison(config, inputs, bucketed, warmup, rate)
    if full and "fused" in compare and set_fused(model, True):
        _, unfused = _train_rate(config, inputs, bucketed, warmup, config.jit_compile,
                                 fused=False)
        result["fused"] = {"on": rate["pairs_per_second"], "off": unfused["pairs_per_second"]}
    for batch_size, key in ((64, "inference"), (8, "latency")):
        if key == "latency" and not full:
            continue
        batches = _sampled_eval_batches(test, batch_size, names, max_lens, config.bucket_width,
                                        (steps if key == "inference" else latency_batches)
                                        + warmup)
        times, _ = timed(lambda b: model.predict_on_batch(b), batches, warmup)
        if key == "inference":
            result["inference_pairs_per_second"] = batch_size * len(times) / times.sum()
        else:
            result["latency_p50_ms"] = 1000 * float(np.percentile(times, 50))
            result["latency_p90_ms"] = 1000 * float(np.percentile(times, 90))
    if full:
        result["bucketing_speedup"] = (result["train_pairs_per_second_bucket"]
                                       / result["train_pairs_per_second_fixed"])
    return result


def _xla_comparison(config, inputs, batches, warmup, measured):
    """Bucketed training with jit_compile on and off; `measured` is the rate at the
    configured setting, reused when that setting is on or off (not Keras' "auto")."""
    rates = {}
    for jit in (True, False):
        if config.jit_compile is jit:
            rates[jit] = measured
        else:
            rates[jit] = _train_rate(config, inputs, batches, warmup, jit)[1]
    return {"on": rates[True]["pairs_per_second"], "off": rates[False]["pairs_per_second"],
            "warmup_seconds_on": rates[True]["warmup_seconds"],
            "warmup_seconds_off": rates[False]["warmup_seconds"]}


def _sampled_eval_batches(split, batch_size, names, max_lens, bucket_width, count):
    """`count` length-sorted evaluation batches drawn at random (seeded) from `split`."""
    schedule = evaluation_schedule(split.lengths(), batch_size)
    rng = np.random.RandomState(0)
    chosen = [schedule[i] for i in rng.choice(len(schedule), min(count, len(schedule)),
                                              replace=False)]
    return [features for features, _ in _numpy_batches(split, chosen, names, max_lens,
                                                       bucket_width)]


def cache_start_seconds(config, data_dir, cache_dir):
    """Seconds to read, tokenize and encode the splits and build the embedding matrix, with
    the caches in `cache_dir` (cold on a first call with an empty folder, warm after)."""
    config = apply_scale(config.replace(scale="low-resource", seed=1))
    start = time.perf_counter()
    data = prepare_data(config, data_dir, cache_dir, **feature_flags(config))
    model_inputs(config, data.encoder, data_dir, cache_dir, log=lambda *_: None)
    return time.perf_counter() - start
