"""The run directory: everything one experiment run leaves behind.

    config.json          resolved ExperimentConfig
    dataset.json         the dataset's description (DatasetSpec.to_dict): labels, files, reader
    environment.json     hardware (the device trained on), heap allocator, Keras backend,
                         library versions, data location, command line
    preprocessing/       text policy + vocabularies (what predict needs to read raw pairs)
    model_summary.txt    layer table and parameter counts
    checkpoints/last-<epoch>.weights.h5 + last.json  model + optimizer state after the last
                         finished epoch (resume)
    checkpoints/mid-<epoch>-<step>.weights.h5 + mid.json  the same part-way through the next
                         epoch, with the epoch's running metrics and dropout streams (resume
                         inside a long epoch; removed when the epoch finishes)
    checkpoints/best.weights.h5  weights of the best epoch on the dev split (selection),
                         without the optimizer's state: what evaluation, prediction and
                         export read
    epochs.jsonl         one record per finished epoch: train loss, dev metrics, seconds
    logs/                TensorBoard summaries
    predictions/         per-split predictions in file order
    metrics.json         final dev/test metrics of the selected checkpoint (written last)

Every file is written atomically, so a killed run never leaves a half-written record.
"""

import json
import os
import pathlib
import platform
import sys

from gcnn_match.files import read_json, write_atomic


class RunDirectory:
    """Paths and records of one run."""

    def __init__(self, path):
        self.path = pathlib.Path(path)

    def __truediv__(self, name):
        return self.path / name

    def create(self):
        for sub in ("checkpoints", "logs", "predictions", "preprocessing"):
            (self.path / sub).mkdir(parents=True, exist_ok=True)
        return self

    @property
    def best_weights(self):
        return self.path / "checkpoints" / "best.weights.h5"

    def save_best(self, model):
        """Saves `model`'s weights as the selected ones, its optimizer's state left out (none
        of what reads them needs it; Adam's two slots would triple the size)."""
        self.save_atomically(model, self.best_weights, weights_only=True, skip=_optimizer(model))

    def load_best(self, model):
        """Loads the selected weights into `model`, its optimizer's state left as it is."""
        model.load_weights(self.best_weights, objects_to_skip=_optimizer(model))

    @property
    def metrics_file(self):
        return self.path / "metrics.json"

    def is_complete(self):
        return self.metrics_file.exists()

    def resume_point(self):
        """The record to resume from: `mid.json` where it continues the last finished epoch,
        else `last.json` (None before the first epoch's checkpoint). Both count finished epochs
        in "epoch"; a mid-epoch record adds the steps of the next one done ("step"). A
        mid-epoch record of an earlier epoch (a kill right after the epoch's own checkpoint,
        before it was removed) is stale: that epoch has finished."""
        last = read_json(self.path / "checkpoints" / "last.json")
        mid = read_json(self.path / "checkpoints" / "mid.json")
        if mid is not None and mid["epoch"] == (last or {}).get("epoch", 0):
            return mid
        return last

    def epochs(self):
        path = self.path / "epochs.jsonl"
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]

    def write_epochs(self, records):
        text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in records)
        write_atomic(self.path / "epochs.jsonl", text.encode("utf-8"))

    @staticmethod
    def save_atomically(model, path, weights_only=False, skip=None):
        """Saves to a temporary file with the same suffix (Keras checks it), then renames;
        a weights file leaves out the state of the objects in `skip` (e.g. the optimizer)."""
        import keras

        path = pathlib.Path(path)
        tmp = path.with_name(f".tmp-{os.getpid()}-{path.name}")
        try:
            if weights_only:
                keras.saving.save_weights(model, tmp, objects_to_skip=skip)
            else:
                model.save(tmp)
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()


def _optimizer(model):
    """[the model's optimizer], or None for a model without one (not compiled)."""
    optimizer = getattr(model, "optimizer", None)
    return None if optimizer is None else [optimizer]


def accelerators():
    """The GPUs of the active Keras backend, by card name: JAX's device kinds ("NVIDIA H100
    80GB HBM3") under JAX, TensorFlow's physical GPUs otherwise (a JAX run sees none of
    TensorFlow's). TensorFlow names a GPU "/physical_device:GPU:0"; its details give the card."""
    import keras

    if keras.backend.backend() == "jax":
        import jax

        return [d.device_kind for d in jax.devices() if d.platform == "gpu"]
    import tensorflow as tf

    return [
        tf.config.experimental.get_device_details(d).get("device_name", d.name)
        for d in tf.config.list_physical_devices("GPU")
    ]


def cpu_model():
    """The processor's model name ("AMD EPYC 9654 96-Core Processor"), from /proc/cpuinfo where
    there is one."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or ""


def heap_allocator(maps="/proc/self/maps"):
    """The heap allocator this process runs on: "tcmalloc" or "jemalloc" when its library is
    mapped (preloaded with LD_PRELOAD), else "system malloc"; "unknown" where the process'
    mappings cannot be read. Part of what a CPU run's times were measured on
    (docs/configuration.md#heap-allocator)."""
    try:
        mapped = pathlib.Path(maps).read_text("utf-8", errors="replace")
    except OSError:
        return "unknown"
    for name in ("tcmalloc", "jemalloc"):
        if f"lib{name}" in mapped:
            return name
    return "system malloc"


def compute_device(gpus=None):
    """What the active Keras backend trains on: its first GPU's name, else the CPU's model
    (`gpus`: `accelerators()` when already known). Runs of one table whose records name
    different devices were trained on different machines."""
    gpus = accelerators() if gpus is None else gpus
    return gpus[0] if gpus else cpu_model()


def environment_record(data_dir=None):
    """Hardware and software the numbers were measured on; "device" and "keras_backend" say
    what the run computed on."""
    import keras
    import numpy
    import tensorflow as tf

    gpus = accelerators()
    return {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "allocator": heap_allocator(),
        "gpus": gpus,
        "device": compute_device(gpus),
        "tensorflow": tf.__version__,
        "keras": keras.__version__,
        "keras_backend": keras.backend.backend(),
        "numpy": numpy.__version__,
        "data_dir": str(data_dir) if data_dir else None,
        "argv": sys.argv,
    }
