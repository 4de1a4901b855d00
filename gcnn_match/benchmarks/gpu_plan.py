"""How long each registered row's schedule takes on this device, and how much memory it needs.

`experiments/gpu_plan.py` (`make gpu-plan`) measures every row that trains (rows that report
another row's runs train nothing) in a fresh process of its own (`worker.run_worker`), several
at a time: each process builds the row's model at the paper's batch size and cut-offs, compiles
its training step on synthetic pairs drawn to the dataset's shape (`synthetic_pairs`,
`dataset_shapes`), then, holding a lock so that no other row's steps share the device, times
`steps` steady-state training steps (`timing.timed`). Compiling runs outside the lock, so the
rows' compiles overlap on the host's cores. The device's peak memory is read over the whole
process (`peak_memory.DevicePeakMemory`).

The setting is the fastest one measured for the device (`plan_setting`). The projection
(`projection`) multiplies the median step by the steps of one epoch of the paper's full
training split and by the registered epochs, plus one compile per run: training steps only
(held-out evaluation and input start-up are left out) and every registered epoch (early
stopping can end a run sooner), so it is the time of the registered schedule's training.
"""

import concurrent.futures
import contextlib
import dataclasses
import fcntl
import json
import math
import os
import subprocess
import tempfile
import time

import numpy as np

from gcnn_match.benchmarks.dataset_shapes import dataset_shape
from gcnn_match.benchmarks.peak_memory import DevicePeakMemory
from gcnn_match.benchmarks.synthetic_pairs import synthetic_inputs, synthetic_split
from gcnn_match.benchmarks.timing import recorded_seconds, timed
from gcnn_match.benchmarks.worker import WorkerError, run_worker
from gcnn_match.data import registry as data_registry
from gcnn_match.experiments import registry

MEASURE = "gcnn_match.benchmarks.gpu_plan:measure_row"
# The setting of every GPU number so far (BENCHMARKS.md, "One GPU: whole training epochs"):
# Keras' JAX backend with XLA and every batch padded to the cut-offs, one compiled step per
# row; bucketed batches compiled a step per shape and ran whole epochs about 8x slower there.
GPU_SETTING = {"padding": "fixed", "jit_compile": True}
# `--tiny`: a check that the machinery runs on a CPU in seconds, not a measurement.
TINY = {"batch_size": 4, "max_len": 8, "vocab_size": 200}
# Fields that name a row or set its schedule, not what one training step computes.
_NOT_IN_A_STEP = dict(
    name="",
    paper="",
    table="",
    row="",
    dataset="",
    targets={},
    target_notes="",
    compare=(),
    table_key=None,
    epochs=0,
    early_stopping_patience=0,
)
# Processes' settings: JAX takes memory as it needs it (several rows' processes share the GPU,
# and its peak is then the row's); TensorFlow likewise.
WORKER_ENV = {"XLA_PYTHON_CLIENT_PREALLOCATE": "false", "TF_FORCE_GPU_ALLOW_GROWTH": "true"}


def plan_setting(config, on_gpu):
    """(config, its description): the GPU setting on a GPU, else the row's registered padding and
    jit_compile (chosen per model from `make bench`'s CPU measurements; always on under JAX, as
    `make bench` measures it)."""
    from gcnn_match.benchmarks.experiment_cost import effective_jit

    if on_gpu:
        return config.replace(**GPU_SETTING), "fixed padding, XLA"
    config = config.replace(jit_compile=effective_jit(config.jit_compile))
    return config, f"{config.padding} padding, jit_compile={config.jit_compile} (registered)"


def _tiny(config):
    cut = TINY["max_len"]
    return config.replace(
        batch_size=min(config.batch_size, TINY["batch_size"]),
        max_len_a=min(config.max_len_a, cut),
        max_len_b=min(config.max_len_b, cut),
    )


def _batches(config, split, count):
    """The first `count` training batches (numpy) of the split, as a run would form them."""
    from gcnn_match.data.pipeline import training_dataset
    from gcnn_match.training.tasks import task_for

    ds, _ = training_dataset(
        split,
        config.batch_size,
        list(split.features),
        {"a": config.max_len_a, "b": config.max_len_b},
        config.seed,
        0,
        1,
        config.bucket_width,
        config.padding,
        **task_for(config).training_inputs(split),
    )
    return list(ds.take(count).as_numpy_iterator())


@contextlib.contextmanager
def _exclusive(lock_path):
    """Holds the file lock at `lock_path` (None: no lock)."""
    if lock_path is None:
        yield
        return
    with open(lock_path, "a", encoding="ascii") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def measure_row(config, tiny=False, steps=5, warmup=1, max_seconds=10.0, lock_path=None):
    """Compile seconds, steady-state step seconds and peak device memory of one row's training
    step, in this process (run it in a fresh one: the memory peak is the process').

    The first batch compiles the step; then, holding `lock_path`, `warmup` more steps run and
    `steps` are timed (fewer, at least two, once `max_seconds` have passed).
    """
    import keras

    from gcnn_match.models.registry import input_features
    from gcnn_match.training.loop import compiled_model
    from gcnn_match.training.run_dir import accelerators

    config, setting = plan_setting(config, bool(accelerators()))
    if tiny:
        config = _tiny(config)
    shape = dataset_shape(config.dataset)
    vocab_size = TINY["vocab_size"] if tiny else shape.vocab_size
    features = input_features(config.model, **config.model_kwargs)
    keras.utils.set_random_seed(config.seed)
    count = warmup + steps + 1
    split = synthetic_split(config, shape, features, config.batch_size * count, vocab_size)
    batches = _batches(config, split, count)
    with DevicePeakMemory() as memory:
        model = compiled_model(config, synthetic_inputs(config, features, vocab_size))
        start = time.perf_counter()
        model.train_on_batch(*batches[0])  # traces and compiles the step
        compile_seconds = time.perf_counter() - start
        with _exclusive(lock_path):
            times, warm = timed(
                {"step": lambda b: model.train_on_batch(*b)}, batches[1:], warmup, max_seconds
            )
    return {
        "backend": keras.backend.backend(),
        "setting": setting,
        "batch_size": config.batch_size,
        "max_len_a": config.max_len_a,
        "max_len_b": config.max_len_b,
        "compile_seconds": round(compile_seconds, 3),
        "warmup_seconds": round(warm["step"], 3),
        "step_seconds": recorded_seconds(times["step"]),
        "peak_memory_bytes": memory.bytes,
        "memory_kind": memory.kind,
    }


def step_key(config):
    """What a training step of `config` depends on: rows with equal keys (the same model at the
    same sizes on datasets of the same shape, e.g. Yelp and its stand-in) are measured once."""
    shape = dataclasses.replace(dataset_shape(config.dataset), train_units=0, source="")
    classes = len(data_registry.get_dataset(config.dataset).labels)
    step = config.replace(**_NOT_IN_A_STEP).to_dict()
    return json.dumps([step, classes, dataclasses.asdict(shape)], sort_keys=True, default=str)


def paper_seeds(config, configs):
    """Runs of `config` the paper's table needs: the size of an ensemble row that votes over its
    seeds (COIN's five), else one (no paper reports a spread over seeds)."""
    sizes = [c.ensemble_size for c in configs if c.runs_of == config.name and c.ensemble_size]
    return max(sizes, default=1)


def projection(config, measured):
    """Hours of one seed of the registered schedule on the paper's full training split (less
    the part a row holds out for selection: MultiNLI's), at the measured batch size (the
    paper's, except in tiny mode)."""
    units = dataset_shape(config.dataset).train_units
    if config.dev_split == "holdout":
        units = round(units * (1 - config.holdout_fraction))
    steps_per_epoch = math.ceil(units / measured["batch_size"])
    step = float(np.median(measured["step_seconds"]))
    seconds = measured["compile_seconds"] + config.epochs * steps_per_epoch * step
    return {
        "train_units": units,
        "steps_per_epoch": steps_per_epoch,
        "epochs": config.epochs,
        "epoch_hours": steps_per_epoch * step / 3600,
        "hours_per_seed": seconds / 3600,
    }


def _measure_all(configs, tiny, workers, deadline_seconds, arguments):
    """Each config's measurement (or {"error": ...}), `workers` processes at a time; rows not
    started, or not finished, within `deadline_seconds` are reported as not measured."""
    deadline = time.monotonic() + deadline_seconds
    with tempfile.TemporaryDirectory(prefix="gpu-plan-") as folder:
        lock_path = os.path.join(folder, "device.lock")

        def one(config):
            left = deadline - time.monotonic()
            if left <= 0:
                return {"error": "not measured: the plan's deadline was reached"}
            try:
                return run_worker(
                    config,
                    WORKER_ENV,
                    timeout=left,
                    function=MEASURE,
                    tiny=tiny,
                    lock_path=lock_path,
                    **arguments,
                )
            except subprocess.TimeoutExpired:
                return {"error": "not measured: stopped when the plan's deadline was reached"}
            except WorkerError as error:
                return {"error": str(error)}

        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            return list(pool.map(one, configs))


def _measure_groups(configs, tiny, workers, deadline_seconds, arguments):
    """({row name: its measurement}, the environment the rows ran in): each group of rows that
    train with one `step_key` measured once ("measured_as" names the row that ran)."""
    groups = {}
    for config in configs:
        if not config.runs_of:
            groups.setdefault(step_key(config), []).append(config)
    first = [rows[0] for rows in groups.values()]
    results = _measure_all(first, tiny, workers, deadline_seconds, arguments)
    environment = next((r["environment"] for r in results if "environment" in r), {})
    measured = {}
    for rows, result in zip(groups.values(), results):
        result = {k: v for k, v in result.items() if k != "environment"}
        for config in rows:
            measured[config.name] = {**result, "measured_as": rows[0].name}
    return measured, environment


def run_plan(configs, tiny=False, workers=8, deadline_seconds=420.0, **arguments):
    """The plan's record: every config of `configs` that trains, measured and projected.

    Args:
        configs: registered rows (those with `runs_of` are listed, not measured).
        tiny: `TINY` sizes (a CPU check of the machinery).
        workers: rows measured at a time.
        deadline_seconds: rows not done by then are reported as not measured.
        arguments: `measure_row`'s steps, warmup, max_seconds.
    """
    start = time.monotonic()
    measured, environment = _measure_groups(configs, tiny, workers, deadline_seconds, arguments)
    rows = []
    for config in configs:
        row = {
            "name": config.name,
            "table": registry.table_id(config),
            "row": config.row,
            "paper_seeds": paper_seeds(config, configs),
        }
        if config.runs_of:
            row["runs_of"] = config.runs_of
        else:
            result = measured[config.name]
            row.update(result)
            if "error" not in result:
                row.update(projection(config, result))
        rows.append(row)
    device = environment.get("device", "unknown")
    return {
        "device": device,
        "device_slug": registry.slug(device).replace("_", "-"),
        "on_gpu": bool(environment.get("gpus")),
        "keras_backend": environment.get("keras_backend"),
        "tiny": tiny,
        "workers": workers,
        "deadline_seconds": deadline_seconds,
        "seconds": round(time.monotonic() - start, 1),
        "environment": environment,
        "rows": rows,
    }
