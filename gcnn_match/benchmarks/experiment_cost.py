"""What one registered experiment costs on this machine, measured on real length distributions.

`bench_experiment` measures one row in the current process (its backend and environment are
the process'), on batches drawn from the row's training part (the official dev split at the
low-resource scale), so lengths are the real ones:

- training pairs/s with per-batch padding + length bucketing (and each timed step's seconds,
  from which the claims report draws an interval for a ratio of two rows' times), and with
  fixed padding to the paper's cut-offs; inference pairs/s at batch 64; latency p50/p90 at
  batch 8;
- with `full=True` (the TensorFlow worker): trainable parameters; FLOPs per pair of one
  training step (forward + backward, without the optimizer update) and of inference, counted
  by TF's graph profiler at the cut-off lengths (`flops.counted_flops`); the achieved
  training GFLOP/s at fixed padding (the same lengths, so FLOPs x pairs/s is exact) and the
  dense-matmul peak (best of two samples); the peak memory of building the
  model and training at fixed padding (`peak_memory.PeakMemory`); XLA on vs off and fused vs
  unfused gate convolutions, both on the bucketed batches.

Every timing is a steady state (`timing.timed`): before timing, the function runs once on the
first `warmup` batches and once on one batch of every batch shape it will be timed on, so no
timed call traces or compiles (XLA and JAX compile once per shape; the warm-up seconds are
recorded beside). `experiments/bench.py` runs this in a fresh process per row and per
environment (`worker`) and renders `BENCHMARKS.md`.
"""

import functools
import time

import keras
import numpy as np

from gcnn_match.benchmarks.flops import counted_flops
from gcnn_match.benchmarks.machine import matmul_peak_gflops, onednn_enabled
from gcnn_match.benchmarks.peak_memory import PeakMemory
from gcnn_match.benchmarks.timing import batch_shapes, recorded_seconds, timed
from gcnn_match.benchmarks.worker import error_line
from gcnn_match.data.experiment_data import apply_scale, prepare_data
from gcnn_match.data.pipeline import batches_dataset, evaluation_schedule, training_schedule
from gcnn_match.layers.fused_conv import set_fused
from gcnn_match.models.registry import input_features
from gcnn_match.training.loop import compiled_model, count_params, model_inputs

INFERENCE_BATCH = 64  # pairs per batch of the inference throughput
LATENCY_BATCH = 8  # pairs per batch of the latency percentiles


def _numpy_batches(split, schedule, names, max_lens, bucket_width, padding="bucket"):
    ds = batches_dataset(split, schedule, names, max_lens, bucket_width, padding)
    return list(ds.as_numpy_iterator())


def effective_jit(jit_compile):
    """`jit_compile` as measured: always on under JAX (Keras' non-jitted JAX path runs op by
    op)."""
    return True if keras.backend.backend() == "jax" else jit_compile


def _model(config, inputs, jit_compile, fused=True):
    model = compiled_model(config.replace(jit_compile=effective_jit(jit_compile)), inputs)
    if not fused:
        set_fused(model, False)
    return model


def _train_rates(models, batches, warmup, max_seconds):
    """{name: {"pairs_per_second", "warmup_seconds", "timed_steps", "step_seconds"}} of
    `train_on_batch` of each model."""
    times, warm = timed(
        {name: (lambda b, m=m: m.train_on_batch(*b)) for name, m in models.items()},
        batches,
        warmup,
        max_seconds,
    )
    steps = len(next(iter(times.values())))
    pairs = sum(len(labels) for _, labels in batches[warmup : warmup + steps])
    return {
        name: {
            "pairs_per_second": pairs / times[name].sum(),
            "timed_steps": steps,
            "step_seconds": recorded_seconds(times[name]),
            "warmup_seconds": warm[name],
        }
        for name in models
    }


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
    return (counted_flops(train, specs + [label_spec]) / size, counted_flops(infer, specs) / size)


def bench_experiment(
    config,
    data_dir,
    cache_dir=None,
    steps=10,
    warmup=3,
    latency_batches=30,
    full=True,
    compare=("xla", "fused"),
    max_seconds=60,
):
    """Measurements of one registered experiment on its dataset's real (dev) lengths.

    `full=False` measures throughput only (bucketed training, inference): what the other
    environments (oneDNN toggled, JAX) are compared on. `compare` names the in-process
    comparisons of a full measurement: "xla" (jit_compile on vs off) and "fused" (fused vs
    per-block gate convolutions, for models that have multi-block convolutions). Each
    timing covers `steps` batches, or fewer (at least two) once `max_seconds` have passed.
    """
    config = apply_scale(config.replace(scale="low-resource", seed=1))
    keras.utils.set_random_seed(config.seed)
    data = prepare_data(
        config, data_dir, cache_dir, input_features(config.model, **config.model_kwargs)
    )
    inputs, vectors = model_inputs(config, data.encoder, data_dir, cache_dir, log=lambda *_: None)
    train, test = data.splits["train"], data.splits["test"]
    names = data.encoder.feature_names()
    max_lens = {"a": config.max_len_a, "b": config.max_len_b}
    schedule = training_schedule(train.lengths(), config.batch_size, 1, 0)[: warmup + steps]
    result = {
        "name": config.name,
        "row": config.row,
        "model": config.model,
        "backend": keras.backend.backend(),
        "batch_size": config.batch_size,
        "max_len_a": config.max_len_a,
        "max_len_b": config.max_len_b,
        "vectors": vectors,
        "mean_length": float(np.mean(train.lengths())),
        "jit_compile": effective_jit(config.jit_compile),
    }
    if keras.backend.backend() == "tensorflow":
        result["onednn"] = onednn_enabled()
    if full:
        fixed = _numpy_batches(train, schedule, names, max_lens, config.bucket_width, "fixed")
        # First: memory freed by earlier work in this process would be reused uncounted.
        result.update(_fixed_padding_cost(config, inputs, fixed, warmup, max_seconds))
        result["matmul_peak_gflops"] = matmul_peak_gflops()
    bucketed = _numpy_batches(train, schedule, names, max_lens, config.bucket_width)
    model, measured = _bucketed_training(
        config, inputs, bucketed, warmup, max_seconds, compare if full else ()
    )
    result.update(measured)
    predict_times = functools.partial(
        _predict_times, model, test, names, max_lens, config.bucket_width, warmup, max_seconds
    )
    times = predict_times(INFERENCE_BATCH, steps)
    result["inference_pairs_per_second"] = INFERENCE_BATCH * len(times) / times.sum()
    if full:
        times = predict_times(LATENCY_BATCH, latency_batches)
        result["latency_p50_ms"] = 1000 * float(np.percentile(times, 50))
        result["latency_p90_ms"] = 1000 * float(np.percentile(times, 90))
        # Sampled again at the end: the best sample is the least disturbed by other load.
        result["matmul_peak_gflops"] = max(result["matmul_peak_gflops"], matmul_peak_gflops())
        result["bucketing_speedup"] = (
            result["train_pairs_per_second_bucket"] / result["train_pairs_per_second_fixed"]
        )
    return result


def _predict_times(
    model, split, names, max_lens, bucket_width, warmup, max_seconds, batch_size, count
):
    """Seconds of each of `count` timed `predict_on_batch` calls on sampled batches of `split`."""
    batches = _sampled_eval_batches(
        split, batch_size, names, max_lens, bucket_width, count + warmup
    )
    return timed({"predict": model.predict_on_batch}, batches, warmup, max_seconds)[0]["predict"]


def _fixed_padding_cost(config, inputs, batches, warmup, max_seconds):
    """Training at the cut-off lengths: throughput, peak memory (of a model built inside the
    measurement), FLOPs per pair and the achieved rate, parameters."""
    with PeakMemory() as memory:
        model = _model(config, inputs, config.jit_compile)
        rate = _train_rates({"fixed": model}, batches, warmup, max_seconds)["fixed"]
    train_flops, infer_flops = _step_flops(model, batches[0])
    return {
        "train_pairs_per_second_fixed": rate["pairs_per_second"],
        "timed_steps_fixed": rate["timed_steps"],
        "peak_memory_bytes": memory.bytes,
        "train_flops_per_pair": train_flops,
        "inference_flops_per_pair": infer_flops,
        "train_gflops_per_second_fixed": train_flops * rate["pairs_per_second"] / 1e9,
        "trainable_params": count_params(model),
        "trainable_params_without_embeddings": count_params(model, exclude_embeddings=True),
    }


def _bucketed_training(config, inputs, batches, warmup, max_seconds, compare):
    """(the configured model, measurements): its bucketed training throughput, timed side by
    side with the variants `compare` asks for (XLA toggled, unfused gate convolutions)."""
    models = {"configured": _model(config, inputs, config.jit_compile)}
    xla = "xla" in compare and keras.backend.backend() == "tensorflow"
    if xla:
        for jit in (True, False):
            if config.jit_compile is not jit:
                models[f"jit_{jit}"] = _model(config, inputs, jit)
    if "fused" in compare and set_fused(models["configured"], True):
        models["unfused"] = _model(config, inputs, config.jit_compile, fused=False)
    failed = _failing_variants(models, batches)
    rates = _train_rates(
        {k: m for k, m in models.items() if k not in failed}, batches, warmup, max_seconds
    )
    configured = rates["configured"]
    out = {
        "train_pairs_per_second_bucket": configured["pairs_per_second"],
        "train_warmup_seconds_bucket": configured["warmup_seconds"],
        "timed_steps_bucket": configured["timed_steps"],
        "train_step_seconds_bucket": configured["step_seconds"],
    }
    if "unfused" in failed:
        out["fused"] = {"error": failed["unfused"]}
    elif "unfused" in rates:
        out["fused"] = {
            "on": configured["pairs_per_second"],
            "off": rates["unfused"]["pairs_per_second"],
        }
    if xla and failed:
        out["xla"] = {"error": next(iter(failed.values()))}
    elif xla:
        on, off = (rates.get(f"jit_{jit}", configured) for jit in (True, False))
        out["xla"] = {
            "on": on["pairs_per_second"],
            "off": off["pairs_per_second"],
            "warmup_seconds_on": on["warmup_seconds"],
            "warmup_seconds_off": off["warmup_seconds"],
        }
    return models["configured"], out


def _failing_variants(models, batches):
    """{name: first line of the error} of the variants (not the configured model) whose
    training step fails on one of the batch shapes in `batches`, e.g. a model XLA cannot
    compile at some lengths: their comparison is reported as not measured instead of ending the
    benchmark. Each shape is tried once (the timing's warm-up would compile it anyway)."""
    shapes = {}
    for batch in batches:
        shapes.setdefault(batch_shapes(batch), batch)
    failed = {}
    for name, model in models.items():
        if name == "configured":
            continue
        for batch in shapes.values():
            try:
                model.train_on_batch(*batch)
            except Exception as error:  # noqa: BLE001 - any failure of a variant is its result
                failed[name] = error_line(error)
                break
    return failed


def _sampled_eval_batches(split, batch_size, names, max_lens, bucket_width, count):
    """`count` length-sorted evaluation batches drawn at random (seeded) from `split`."""
    schedule = evaluation_schedule(split.lengths(), batch_size)
    rng = np.random.RandomState(0)
    chosen = [
        schedule[i] for i in rng.choice(len(schedule), min(count, len(schedule)), replace=False)
    ]
    return [
        features for features, _ in _numpy_batches(split, chosen, names, max_lens, bucket_width)
    ]


def cache_start_seconds(config, data_dir, cache_dir):
    """Seconds to read, tokenize and encode the splits and build the embedding matrix, with
    the caches in `cache_dir` (cold on a first call with an empty folder, warm after)."""
    config = apply_scale(config.replace(scale="low-resource", seed=1))
    start = time.perf_counter()
    data = prepare_data(
        config, data_dir, cache_dir, input_features(config.model, **config.model_kwargs)
    )
    model_inputs(config, data.encoder, data_dir, cache_dir, log=lambda *_: None)
    return time.perf_counter() - start
