"""Data-parallel training on an existing engine: `tf.distribute` under the TensorFlow backend,
Keras' distribution API under JAX. The config field `distribution` picks one:

    none          one device.
    mirrored      tf.distribute.MirroredStrategy on one host: every GPU, else every (logical)
                  CPU device (`split_cpu` makes the host CPU look like several, for testing).
    multi_worker  tf.distribute.MultiWorkerMirroredStrategy: one process per host, each told
                  the cluster and its own place in it by the TF_CONFIG environment variable.
    keras         keras.distribution.DataParallel over every local device (JAX backend).

The config's `batch_size` is the global batch: every step consumes the same padded batch as a
single-device run, in the same order, and each of the R replicas computes on its slice of
batch_size / R pairs; the gradients are summed over the replicas. A batch that does not split
evenly (the last of an epoch, an evaluation batch) is grown to a multiple of R with copies of
its first pair at sample weight 0 (`pipeline.even_batches`): JAX shards only equal parts, and
under tf.distribute a replica left with no pair fails. The real pairs' weights keep the loss
their mean on every engine, and predictions of fillers are dropped. So a distributed run is the
same training as a single-device run, and its metrics are comparable.

Not bit-identical, for reasons no engine removes:
- the all-reduce adds the replicas' gradients in another order (float32 rounding);
- under tf.distribute Keras clips each replica's share of the gradient to `global_clipnorm`
  before the all-reduce, so clipping starts later than on one device (under JAX,
  DataParallel compiles one global program and clips the whole gradient);
- dropout masks are drawn per replica, so with dropout the runs follow other random paths;
- the logged training accuracy counts the (at most R - 1 per batch) fillers.
"""

import contextlib
import dataclasses
import functools
import json
import os
from typing import Callable, List, Optional

import keras

from gcnn_match.config.experiment import DISTRIBUTIONS

_HOW_TO = "see docs/distributed.md"


@dataclasses.dataclass
class Distribution:
    """A resolved data-parallel setup.

    Args:
        name: the config value ("none", "mirrored", "multi_worker", "keras").
        engine: what runs it, e.g. "tf.distribute.MirroredStrategy".
        replicas: model replicas in sync (devices over all workers); batches are evened to a
            multiple of it.
        devices: this process's devices.
        scope: context manager factory; the model is built and compiled inside it.
        workers: processes in the cluster (multi_worker), else 1.
        task: this process's "type:index" in TF_CONFIG's cluster, or None.
        is_chief: whether this process writes the run directory (the others write theirs
            into a `worker-<index>` folder inside it).
    """

    name: str
    engine: str
    replicas: int
    devices: List[str]
    scope: Callable[[], contextlib.AbstractContextManager] = contextlib.nullcontext
    workers: int = 1
    task: Optional[str] = None
    is_chief: bool = True

    def record(self):
        """What environment.json keeps of it."""
        return {
            "distribution": self.name,
            "engine": self.engine,
            "replicas": self.replicas,
            "devices": self.devices,
            "workers": self.workers,
            "task": self.task,
        }


def split_cpu(count):
    """Trains on `count` logical devices of the host CPU, leaving any accelerator out.

    Data parallelism without accelerators: the devices share the host's cores, so this
    demonstrates and tests distribution, it does not speed up. Accelerators are hidden because
    every engine prefers them: on a machine with one GPU the run would otherwise have one
    replica, not `count`. Must run before the backend initialises its devices (before the
    first op).
    """
    if keras.backend.backend() == "jax":
        import jax

        try:
            jax.config.update("jax_num_cpu_devices", count)
        except RuntimeError as error:
            raise RuntimeError(
                f"cannot split the CPU into {count} devices: JAX is already "
                "initialised; do it at program start"
            ) from error
        jax.config.update("jax_platforms", "cpu")
        return
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_visible_devices([cpu])
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(count)]
        )
    except RuntimeError as error:
        raise RuntimeError(
            f"cannot split the CPU into {count} devices: TensorFlow is already "
            "initialised; do it at program start"
        ) from error


def resolve(name):
    """The `Distribution` for config value `name`, created once per process."""
    if name not in DISTRIBUTIONS:
        raise ValueError(f"distribution must be one of {DISTRIBUTIONS}, got {name!r}")
    backend = keras.backend.backend()
    wanted = "jax" if name == "keras" else "tensorflow"
    if name != "none" and backend != wanted:
        raise ValueError(
            f"distribution={name} runs under the {wanted} backend but Keras uses {backend}: "
            f"set KERAS_BACKEND={wanted}"
            + (
                " or use distribution=keras"
                if backend == "jax"
                else " or use distribution=mirrored / multi_worker"
            )
        )
    # Keras' distribution is process-wide state: a later run in the same process must not
    # inherit an earlier run's.
    if backend == "jax":
        keras.distribution.set_distribution(None)
    return _RESOLVERS[name]()


def _none():
    return Distribution("none", "single device", 1, [_default_device()])


def _default_device():
    if keras.backend.backend() == "jax":
        import jax

        return str(jax.devices()[0])
    import tensorflow as tf

    gpus = tf.config.list_logical_devices("GPU")
    return (gpus or tf.config.list_logical_devices("CPU"))[0].name


def _mirrored():
    strategy = _tf_strategy("mirrored")
    return Distribution(
        "mirrored",
        "tf.distribute.MirroredStrategy",
        strategy.num_replicas_in_sync,
        list(strategy.extended.worker_devices),
        strategy.scope,
    )


def _multi_worker():
    raw = os.environ.get("TF_CONFIG")
    if not raw:
        raise ValueError(
            "distribution=multi_worker reads the cluster from the TF_CONFIG "
            f"environment variable, which is not set; {_HOW_TO}"
        )
    try:
        tf_config = json.loads(raw)
        cluster, task = tf_config["cluster"], tf_config["task"]
        task_type, index = task["type"], int(task["index"])
    except (ValueError, KeyError, TypeError) as error:
        raise ValueError(
            f'TF_CONFIG must be JSON like {{"cluster": {{"worker": '
            f'["host1:port", ...]}}, "task": {{"type": "worker", '
            f'"index": 0}}}}; got {raw!r} ({error}); {_HOW_TO}'
        ) from None
    strategy = _tf_strategy("multi_worker")
    chief = task_type == "chief" or (
        task_type == "worker" and index == 0 and "chief" not in cluster
    )
    return Distribution(
        "multi_worker",
        "tf.distribute.MultiWorkerMirroredStrategy",
        strategy.num_replicas_in_sync,
        list(strategy.extended.worker_devices),
        strategy.scope,
        workers=sum(len(v) for v in cluster.values()),
        task=f"{task_type}:{index}",
        is_chief=chief,
    )


@functools.lru_cache(maxsize=None)
def _tf_strategy(name):
    # Created once: MultiWorkerMirroredStrategy configures collectives at program start and
    # cannot be created twice in a process.
    import tensorflow as tf

    if name == "multi_worker":
        return _multi_worker_class()()
    # Without GPUs MirroredStrategy would take one CPU device; take every logical one.
    gpus = tf.config.list_logical_devices("GPU")
    devices = gpus or tf.config.list_logical_devices("CPU")
    return tf.distribute.MirroredStrategy([d.name for d in devices])


def _keras():
    devices = keras.distribution.list_devices()
    keras.distribution.set_distribution(keras.distribution.DataParallel(devices=devices))
    return Distribution(
        "keras", "keras.distribution.DataParallel", len(devices), [str(d) for d in devices]
    )


_RESOLVERS = {"none": _none, "mirrored": _mirrored, "multi_worker": _multi_worker, "keras": _keras}


def _multi_worker_class():
    import tensorflow as tf

    class MultiWorker(tf.distribute.MultiWorkerMirroredStrategy):
        """MultiWorkerMirroredStrategy with a `reduce` that Keras 3's `fit` can call.

        In multi-worker mode Keras reduces a whole input batch at once (a features dict,
        labels, weights) and reduces scalar metric values over `axis=0`; TensorFlow's
        `reduce` takes one value, and no axis of a scalar (keras-team/keras#20585). Here a
        nest is reduced value by value, and a scalar over the replicas only.
        """

        def reduce(self, reduce_op, value, axis):
            parent = super(MultiWorker, self).reduce

            def one(v):
                scalar = self.experimental_local_results(v)[0].shape.rank == 0
                return parent(reduce_op, v, None if scalar else axis)

            return tf.nest.map_structure(one, value)

    return MultiWorker
