"""Data-parallel training: evened batches, the engines' setup and errors, and distributed runs
on this machine's CPU split into two devices that train like the single-device run.

Why the distributed metrics are close and not bit-identical: the replicas' gradients are
all-reduced (float32 sums in another order), each replica's slice of a batch runs its own
kernels, and Keras clips the gradient per replica (see gcnn_match.training.distribution). The
tiny model trains without dropout, whose masks are drawn per replica, so the two runs follow
the same path: predicted probabilities agree to PROBABILITY_TOLERANCE and accuracies to one
pair in the 201 scored.
"""

import json
import pathlib
import socket
import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.config.overrides import SHORTHANDS, apply_overrides, default_run_dir
from gcnn_match.data.pipeline import (
    EncodedSplit,
    evaluation_dataset,
    even_batches,
    training_dataset,
    unsort,
)
from gcnn_match.data.ragged_ids import RaggedIds
from gcnn_match.experiments import registry
from gcnn_match.training import distribution
from gcnn_match.training.loop import run_experiment
from gcnn_match.training.tasks import task_for
from tests.conftest import REPO, subprocess_env

HELPER = pathlib.Path(__file__).with_name("distributed_runs.py")
PROBABILITY_TOLERANCE = 1e-4
TINY = {
    "variant": "gcnn",
    "hidden": 16,
    "context_layers": 1,
    "aggregation_layers": 1,
    "mlp_hidden": 16,
    "embedding_dropout": 0.0,
    "mlp_dropout": 0.0,
}


def _split(lengths, labels=None):
    """An EncodedSplit whose pair k has `lengths[k]` tokens of id k + 1 on both sides."""
    ids = RaggedIds.from_rows([np.full(n, k + 1, np.int32) for k, n in enumerate(lengths)])
    labels = np.arange(len(lengths)) % 2 if labels is None else labels
    return EncodedSplit(
        "t",
        {"a_ids": ids, "b_ids": ids},
        np.asarray(labels, np.int32),
        [f"u{k}" for k in range(len(lengths))],
        [None] * len(lengths),
    )


def test_even_batches_grow_with_copies_of_the_first_pair():
    batches = [np.array([5, 3, 9]), np.array([7, 2])]
    assert [b.tolist() for b in even_batches(batches, 2)] == [[5, 3, 9, -6], [7, 2]]
    assert [b.tolist() for b in even_batches(batches, 4)] == [[5, 3, 9, -6], [7, 2, -8, -8]]
    assert even_batches(batches, 1) is batches


def test_evened_training_batches_keep_the_loss_a_mean_over_real_pairs():
    lengths = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9]
    split = _split(lengths, labels=np.arange(13))
    ds, steps = training_dataset(
        split,
        4,
        ["a_ids", "b_ids"],
        {"a": 16, "b": 16},
        seed=0,
        first_epoch=0,
        epochs=1,
        bucket_width=1,
        multiple=2,
    )
    seen = []
    for features, labels, weights in ds:
        ids, labels, weights = features["a_ids"].numpy(), labels.numpy(), weights.numpy()
        assert len(ids) % 2 == 0 and len(labels) == len(weights) == len(ids)
        real = weights > 0
        # A filler copies the batch's first pair and weighs nothing.
        assert (ids[~real] == ids[0]).all() and (labels[~real] == labels[0]).all()
        # Keras' loss is sum(weight * loss) / batch: with these weights, the real pairs' mean.
        values = labels.astype(np.float64) ** 2
        assert np.sum(weights * values) / len(ids) == pytest.approx(values[real].mean())
        assert (ids[real][:, 0] == labels[real] + 1).all()
        seen.extend(labels[real].tolist())
    assert steps == 4 and sorted(seen) == list(range(13))


def test_fillers_are_dropped_from_predictions_in_file_order():
    split = _split([4, 2, 7, 1, 3])
    ds, order = evaluation_dataset(
        split, 2, ["a_ids", "b_ids"], {"a": 8, "b": 8}, bucket_width=1, multiple=3
    )
    assert (order < 0).sum() == 4  # batches of 2, 2, 1 grown to 3 each
    # A "prediction" that names its pair: the id it is made of.
    predictions = np.concatenate([f["a_ids"].numpy()[:, :1] for f, _, _ in ds])
    assert unsort(predictions, order)[:, 0].tolist() == [1, 2, 3, 4, 5]


def test_distribution_is_a_config_field_and_a_flag():
    registered = registry.get("gcnn/quora/gcnn")
    config = apply_overrides(registered, [("distribution", "mirrored")])
    assert config.distribution == "mirrored" and "distribution" in {s.flag for s in SHORTHANDS}
    assert (
        default_run_dir("runs", registered, config).name == "full-seed1-e300-distributionmirrored"
    )
    with pytest.raises(ValueError, match="distribution must be one of"):
        registered.replace(distribution="horovod")


def test_single_device_needs_no_setup():
    none = distribution.resolve("none")
    assert none.replicas == 1 and none.is_chief
    assert none.record()["engine"] == "single device"


@pytest.mark.parametrize(
    "tf_config, message",
    [
        (None, "TF_CONFIG environment variable, which is not set"),
        ('{"cluster": {"worker": ["a:1"]}}', "TF_CONFIG must be JSON like"),
        ("not json", "TF_CONFIG must be JSON like"),
    ],
)
def test_multi_worker_explains_a_missing_or_broken_tf_config(monkeypatch, tf_config, message):
    if tf_config is None:
        monkeypatch.delenv("TF_CONFIG", raising=False)
    else:
        monkeypatch.setenv("TF_CONFIG", tf_config)
    with pytest.raises(ValueError, match=message):
        distribution.resolve("multi_worker")


def test_each_engine_names_its_backend():
    with pytest.raises(ValueError, match="KERAS_BACKEND=jax"):
        distribution.resolve("keras")
    with pytest.raises(ValueError, match="distribution must be one of"):
        distribution.resolve("horovod")


def test_ranking_refuses_replicas_that_would_split_a_question():
    with pytest.raises(ValueError, match="ranking loss compares the candidates"):
        task_for(registry.get("clstm/yahoo/nbow"), replicas=2)


# --- distributed runs on real Quora pairs ------------------------------------------------------


def _tiny_config(**changes):
    # 301 training pairs: the last batch of 13 splits unevenly; 201 scored pairs: the last
    # evaluation batch too. Both exercise the fillers.
    return registry.get("gcnn/quora/gcnn").replace(
        scale="low-resource",
        epochs=2,
        batch_size=32,
        max_train_examples=301,
        max_eval_examples=201,
        embeddings="random",
        model_kwargs=TINY,
        **changes,
    )


def _records(run_dir):
    run_dir = pathlib.Path(run_dir)
    probabilities = np.loadtxt(
        run_dir / "predictions" / "test.tsv", delimiter="\t", skiprows=1, usecols=(3, 4)
    )
    return (
        json.loads((run_dir / "metrics.json").read_text()),
        json.loads((run_dir / "environment.json").read_text())["distribution"],
        json.loads((run_dir / "config.json").read_text()),
        probabilities,
    )


def _assert_same_training(run_dir, reference_dir):
    metrics, _, _, probabilities = _records(run_dir)
    expected, _, _, expected_probabilities = _records(reference_dir)
    assert np.abs(probabilities - expected_probabilities).max() < PROBABILITY_TOLERANCE
    for key in ("dev_accuracy", "test_accuracy"):
        assert metrics[key] == pytest.approx(expected[key], abs=1.01 / 201), key
    assert metrics["best_epoch"] == expected["best_epoch"]


def _run_helper(tmp_path, data_dir, config, runs, devices=2, env=None):
    spec = {
        "devices": devices,
        "config": config.to_dict(),
        "data_dir": str(data_dir),
        "cache_dir": str(tmp_path / "cache"),
        "runs": runs,
        "result": str(tmp_path / "helper.json"),
    }
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    completed = subprocess.run(
        [sys.executable, str(HELPER), str(tmp_path / "spec.json")],
        cwd=REPO,
        env=subprocess_env(**(env or {})),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    return json.loads((tmp_path / "helper.json").read_text())


_DEVICES_AFTER_SPLIT = {
    # jax_platforms is read, not only the devices: on a machine without an accelerator the
    # devices alone would pass without the accelerator being left out.
    "jax": "import jax; print(jax.config.jax_platforms, sorted({d.platform for d in"
    " jax.devices()}), len(jax.devices()))",
    "tensorflow": "import tensorflow as tf; print(*{d.device_type.lower() for d in"
    " tf.config.get_visible_devices()}, sorted({d.device_type.lower() for d in"
    " tf.config.list_logical_devices()}), len(tf.config.list_logical_devices()))",
}


@pytest.mark.slow
@pytest.mark.parametrize("backend", sorted(_DEVICES_AFTER_SPLIT))
def test_a_split_cpu_leaves_accelerators_out(backend):
    # On a GPU machine, a run asked for two CPU devices once got one replica on the GPU.
    pytest.importorskip(backend)
    code = (
        "from gcnn_match.training.distribution import split_cpu; split_cpu(3); "
        + _DEVICES_AFTER_SPLIT[backend]
    )
    completed = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=subprocess_env(KERAS_BACKEND=backend),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert completed.stdout.splitlines()[-1] == "cpu ['cpu'] 3"


@pytest.fixture(scope="module")
def single_device_run(shared_data, tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("single")
    run_experiment(
        _tiny_config(), run_dir, shared_data, tmp_path_factory.mktemp("cache"), log=lambda *_: None
    )
    return run_dir


@pytest.mark.slow
def test_mirrored_on_two_logical_cpus_trains_like_one_device_and_resumes(
    tmp_path, shared_data, single_device_run
):
    work = tmp_path
    runs = [
        {"run_dir": str(work / "mirrored"), "distribution": "mirrored"},
        {"run_dir": str(work / "resumed"), "distribution": "mirrored", "interrupt_in_epoch": 2},
    ]
    helper = _run_helper(work, shared_data, _tiny_config(), runs)
    assert "TensorFlow is already initialised" in helper["split_cpu_too_late"]

    _, record, config, _ = _records(work / "mirrored")
    assert record["engine"] == "tf.distribute.MirroredStrategy" and record["replicas"] == 2
    assert len(record["devices"]) == 2 and config["distribution"] == "mirrored"
    _assert_same_training(work / "mirrored", single_device_run)
    # Killed at the start of epoch 2 and resumed from its epoch-1 checkpoint: the same run.
    epochs = (work / "resumed" / "epochs.jsonl").read_text().splitlines()
    assert [json.loads(line)["epoch"] for line in epochs] == [1, 2]
    _assert_same_training(work / "resumed", work / "mirrored")


def _free_ports(count):
    sockets = [socket.socket() for _ in range(count)]
    for s in sockets:
        s.bind(("localhost", 0))
    ports = [s.getsockname()[1] for s in sockets]
    for s in sockets:
        s.close()
    return ports


@pytest.mark.slow
def test_multi_worker_from_tf_config_trains_like_one_device(
    tmp_path, shared_data, single_device_run
):
    work = tmp_path
    cluster = {"worker": [f"localhost:{port}" for port in _free_ports(2)]}
    command = [
        sys.executable,
        "experiments/train.py",
        "--experiment=gcnn/quora/gcnn",
        "--scale=low-resource",
        "--epochs=2",
        "--batch_size=32",
        "--max_train_examples=301",
        "--max_eval_examples=201",
        "--embeddings=random",
        f"--data_dir={shared_data}",
        f"--cache_dir={work / 'cache'}",
        f"--model_dir={work / 'run'}",
        "--distribution=multi_worker",
        "--model_kwargs=" + ",".join(f"{k}={v}" for k, v in TINY.items()),
    ]
    workers = []
    for index in range(2):
        tf_config = {"cluster": cluster, "task": {"type": "worker", "index": index}}
        workers.append(
            subprocess.Popen(
                command,
                cwd=REPO,
                env=subprocess_env(TF_CONFIG=json.dumps(tf_config)),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    errors = [worker.communicate(timeout=900)[1] for worker in workers]
    assert [w.returncode for w in workers] == [0, 0], errors[0][-3000:] + errors[1][-3000:]

    _, record, config, _ = _records(work / "run")
    assert config == {**_records(single_device_run)[2], "distribution": "multi_worker"}
    assert record["engine"] == "tf.distribute.MultiWorkerMirroredStrategy"
    assert record["replicas"] == 2 and record["workers"] == 2 and record["task"] == "worker:0"
    # The other worker trained the same model in lockstep and kept its records apart.
    assert _records(work / "run" / "worker-1")[1]["task"] == "worker:1"
    _assert_same_training(work / "run" / "worker-1", work / "run")
    _assert_same_training(work / "run", single_device_run)


@pytest.mark.slow
def test_keras_data_parallel_under_jax_trains_like_one_device(tmp_path, shared_data):
    work = tmp_path
    pytest.importorskip(
        "jax",
        reason="jax is not installed: the Keras distribution API is "
        "exercised under the JAX backend only",
    )
    # XLA compiles every batch shape under JAX: fixed padding and short cut-offs keep it to a
    # few programs.
    config = _tiny_config(padding="fixed", max_len_a=16, max_len_b=16, jit_compile=True)
    runs = [
        {"run_dir": str(work / "single"), "distribution": "none"},
        {"run_dir": str(work / "keras"), "distribution": "keras"},
    ]
    helper = _run_helper(work, shared_data, config, runs, env={"KERAS_BACKEND": "jax"})
    assert "JAX is already initialised" in helper["split_cpu_too_late"]

    _, record, _, _ = _records(work / "keras")
    assert record["engine"] == "keras.distribution.DataParallel" and record["replicas"] == 2
    _assert_same_training(work / "keras", work / "single")


@pytest.mark.slow
def test_a_run_records_its_distribution(single_device_run):
    _, record, config, _ = _records(single_device_run)
    assert record == {
        "distribution": "none",
        "engine": "single device",
        "replicas": 1,
        "devices": record["devices"],
        "workers": 1,
        "task": None,
    }
    assert ExperimentConfig.from_dict(config).distribution == "none"
