"""Interruptions and reproducibility on a tiny real task (Quora, a small CNN):

- a real SIGKILL of experiments/train.py after its first checkpoint, then the same command:
  the run resumes and ends with the metrics of an uninterrupted run with the same seed;
- the same inside an epoch, after a mid-epoch checkpoint: the resumed run skips the batches
  trained before and ends with the same records, predictions and metrics;
- the same seed twice gives the same metrics (another seed does not);
- a NaN loss stops the run with a clear message and keeps the last good checkpoint, from which
  the run resumes.
"""

import json
import signal
import subprocess
import sys
import time

import h5py
import keras
import numpy as np
import pytest

from gcnn_match.experiments import registry
from gcnn_match.training import loop
from gcnn_match.training.run_dir import RunDirectory

# Trains or runs real processes: left out of `make test-fast`.
pytestmark = pytest.mark.slow

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
SMALL = {
    "variant": "cnn",
    "hidden": 16,
    "context_layers": 1,
    "aggregation_layers": 1,
    "mlp_hidden": 16,
}
EPOCHS = 3
METRICS = ("dev_accuracy", "dev_f1", "test_accuracy", "test_f1", "best_epoch", "epochs_run")


def _command(run_dir, data_dir, cache_dir):
    return [
        sys.executable,
        str(REPO / "experiments" / "train.py"),
        "--experiment=gcnn/quora/cnn",
        "--scale=low-resource",
        f"--epochs={EPOCHS}",
        "--batch_size=32",
        "--max_train_examples=1000",
        "--max_eval_examples=200",
        "--embeddings=random",
        "--model_kwargs=" + ",".join(f"{k}={v}" for k, v in SMALL.items() if k != "variant"),
        f"--data_dir={data_dir}",
        f"--model_dir={run_dir}",
        f"--cache_dir={cache_dir}",
    ]


def _wait_for_checkpoint(process, path, ready=lambda record: True, timeout=120):
    deadline = time.monotonic() + timeout
    while True:
        try:
            if ready(json.loads(path.read_text())):
                return
        except FileNotFoundError:  # not yet written, or removed at an epoch's end
            pass
        if process.poll() is not None:
            pytest.fail(f"the run ended before {path.name} was ready")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail(f"no {path.name} within the time limit")
        time.sleep(0.02)


@pytest.fixture(scope="module")
def reference(shared_data, tmp_path_factory):
    """The uninterrupted run (default checkpoint interval: none inside these short epochs)."""
    run = tmp_path_factory.mktemp("reference")
    subprocess.run(
        _command(run, shared_data, tmp_path_factory.mktemp("cache")),
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=300,
    )
    assert not list((run / "checkpoints").glob("mid*"))
    return run


def _kill(process):
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=60) == -signal.SIGKILL


def test_sigkill_mid_training_then_the_same_command_ends_like_an_uninterrupted_run(
    shared_data, tmp_path, reference
):
    cache = tmp_path / "cache"
    reference = json.loads((reference / "metrics.json").read_text())

    run = tmp_path / "killed"
    process = subprocess.Popen(
        _command(run, shared_data, cache),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait_for_checkpoint(process, run / "checkpoints" / "last.json")
    _kill(process)
    killed_after = json.loads((run / "checkpoints" / "last.json").read_text())["epoch"]
    assert 1 <= killed_after < EPOCHS and not (run / "metrics.json").exists()

    rerun = subprocess.run(
        _command(run, shared_data, cache),
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert f"resuming after epoch {killed_after}" in rerun.stdout
    resumed = json.loads((run / "metrics.json").read_text())
    print(
        f"killed after epoch {killed_after}; reference vs resumed: "
        + ", ".join(f"{k} {reference[k]} / {resumed[k]}" for k in METRICS)
    )
    assert {k: resumed[k] for k in METRICS} == {k: reference[k] for k in METRICS}
    records = [json.loads(line) for line in (run / "epochs.jsonl").read_text().splitlines()]
    assert [r["epoch"] for r in records] == list(range(1, EPOCHS + 1))


def _same_training(record):
    """An epoch record without its timings."""
    return {k: v for k, v in record.items() if "second" not in k}


def test_sigkill_inside_an_epoch_then_the_same_command_ends_like_an_uninterrupted_run(
    shared_data, tmp_path, reference
):
    run = tmp_path / "killed"
    # A resume point after every step; the uninterrupted run has none inside its epochs.
    command = _command(run, shared_data, tmp_path / "cache") + [
        "--override=checkpoint_every_minutes=0"
    ]
    process = subprocess.Popen(
        command, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    # Part-way through epoch 2 (of 32 steps), so the resumed epoch skips several batches.
    _wait_for_checkpoint(
        process, run / "checkpoints" / "mid.json", lambda r: r["epoch"] >= 1 and r["step"] >= 8
    )
    _kill(process)
    point = RunDirectory(run).resume_point()
    assert "step" in point and 1 <= point["epoch"] < EPOCHS, point  # killed inside an epoch

    rerun = subprocess.run(
        command, cwd=REPO, check=True, capture_output=True, text=True, timeout=300
    )
    assert f"resuming in epoch {point['epoch'] + 1} after step {point['step']}" in rerun.stdout
    expected = json.loads((reference / "metrics.json").read_text())
    resumed = json.loads((run / "metrics.json").read_text())
    print(
        f"killed in epoch {point['epoch'] + 1} after step {point['step']}; reference vs "
        "resumed: " + ", ".join(f"{k} {expected[k]} / {resumed[k]}" for k in METRICS)
    )
    assert {k: resumed[k] for k in METRICS} == {k: expected[k] for k in METRICS}
    # The epoch's running train loss and accuracy too: the resumed epoch continued its sums.
    assert [_same_training(r) for r in RunDirectory(run).epochs()] == [
        _same_training(r) for r in RunDirectory(reference).epochs()
    ]
    for role in ("dev", "test"):
        predictions = (run / "predictions" / f"{role}.tsv").read_text()
        assert predictions == (reference / "predictions" / f"{role}.tsv").read_text()
    assert not list((run / "checkpoints").glob("mid*"))


def _config(seed=1, epochs=2):
    return registry.get("gcnn/quora/cnn").replace(
        scale="low-resource",
        epochs=epochs,
        batch_size=32,
        max_train_examples=320,
        max_eval_examples=96,
        embeddings="random",
        model_kwargs=SMALL,
        seed=seed,
    )


def _quiet(*_):
    pass


def test_the_same_seed_twice_gives_the_same_metrics(shared_data, tmp_path):
    cache = tmp_path / "cache"
    first, second, other = (
        loop.run_experiment(_config(seed), tmp_path / name, shared_data, cache, log=_quiet)
        for name, seed in (("a", 1), ("b", 1), ("c", 2))
    )
    assert {k: first[k] for k in METRICS} == {k: second[k] for k in METRICS}
    same = (tmp_path / "a" / "predictions" / "test.tsv").read_text()
    assert same == (tmp_path / "b" / "predictions" / "test.tsv").read_text()
    assert same != (tmp_path / "c" / "predictions" / "test.tsv").read_text()


def _finite(weights_file):
    with h5py.File(weights_file, "r") as handle:
        arrays = []
        handle.visititems(
            lambda _, item: arrays.append(item[()]) if isinstance(item, h5py.Dataset) else None
        )
    return arrays and all(np.isfinite(a).all() for a in arrays if a.dtype.kind == "f")


def test_a_nan_loss_stops_with_a_message_and_the_run_resumes_from_the_last_good_epoch(
    shared_data, tmp_path, monkeypatch
):
    real_fit = keras.Model.fit

    def poisoned_in_second_epoch(self, *args, **kwargs):
        class Poison(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                if epoch == 1:
                    weight = self.model.trainable_weights[-1]
                    weight.assign(np.full(weight.shape, np.nan, "float32"))

        kwargs["callbacks"] = [Poison()] + list(kwargs.get("callbacks", []))
        return real_fit(self, *args, **kwargs)

    monkeypatch.setattr(keras.Model, "fit", poisoned_in_second_epoch)
    run, cache = tmp_path / "run", tmp_path / "cache"
    with pytest.raises(
        FloatingPointError,
        match=r"training loss became nan in epoch 2; the run "
        r"stopped and keeps the checkpoint of epoch 1",
    ):
        loop.run_experiment(_config(epochs=3), run, shared_data, cache, log=_quiet)
    last = json.loads((run / "checkpoints" / "last.json").read_text())
    assert last["epoch"] == 1 and _finite(run / "checkpoints" / last["weights"])
    assert [
        json.loads(line)["epoch"] for line in (run / "epochs.jsonl").read_text().splitlines()
    ] == [1]

    monkeypatch.setattr(keras.Model, "fit", real_fit)
    lines = []
    metrics = loop.run_experiment(_config(epochs=3), run, shared_data, cache, log=lines.append)
    assert "resuming after epoch 1" in lines and metrics["epochs_run"] == 3
