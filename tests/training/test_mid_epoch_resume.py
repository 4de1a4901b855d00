"""Resume points inside an epoch: which batches a resumed run skips, which record it resumes
from, and the state a mid-epoch checkpoint saves and restores (the real kill is in
test_interruptions.py)."""

import keras
import numpy as np
import pytest

from gcnn_match.config.overrides import apply_overrides, default_run_dir, parse_override
from gcnn_match.data.example import Example
from gcnn_match.data.pipeline import PairEncoder, tokenize_examples, training_dataset
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.experiments import registry
from gcnn_match.files import read_json, write_json
from gcnn_match.training import loop
from gcnn_match.training.monitor import RunMonitor
from gcnn_match.training.run_dir import RunDirectory


def test_a_resume_inside_an_epoch_fits_the_rest_of_it_alone_then_the_other_epochs():
    assert loop.training_fits(0, 0, 3) == [(0, 3, 0)]
    assert loop.training_fits(1, 0, 3) == [(1, 3, 0)]
    assert loop.training_fits(1, 7, 3) == [(1, 2, 7), (2, 3, 0)]
    assert loop.training_fits(2, 7, 3) == [(2, 3, 7)]


def _split(n=61):
    rng = np.random.RandomState(0)
    examples = [
        Example(
            a=" ".join(f"w{j}" for j in rng.randint(0, 30, rng.randint(1, 20))),
            b="w1 w2",
            label=i % 2,
            uid=str(i),
        )
        for i in range(n)
    ]
    policy = TextPolicy(tokenizer="whitespace", lowercase=False, use_given_tokens=True)
    pairs = tokenize_examples(examples, policy)
    encoder = PairEncoder.fit(pairs, policy, 20, 10)
    return encoder, encoder.encode("train", examples, pairs)


def _batches(first_epoch, epochs, first_step=0, group_ids=None):
    encoder, split = _split()
    ds, steps = training_dataset(
        split,
        8,
        encoder.feature_names(),
        {"a": 20, "b": 10},
        seed=3,
        first_epoch=first_epoch,
        epochs=epochs,
        group_ids=group_ids,
        first_step=first_step,
    )
    return [features["a_ids"].numpy() for features, _ in ds], steps


@pytest.mark.parametrize("group_ids, skipped", [(None, 5), (np.arange(61) // 3, 2)])
def test_skipped_batches_are_exactly_the_ones_the_epoch_trained_before(group_ids, skipped):
    whole, steps = _batches(1, 3, group_ids=group_ids)
    resumed, resumed_steps = _batches(1, 2, first_step=skipped, group_ids=group_ids)
    rest, _ = _batches(2, 3, group_ids=group_ids)
    assert resumed_steps == steps  # steps per epoch, not of the resumed part
    assert len(resumed) == steps - skipped and len(rest) == steps
    for got, expected in zip(resumed + rest, whole[skipped:], strict=True):
        np.testing.assert_array_equal(got, expected)


def test_a_mid_epoch_record_counts_only_where_it_continues_the_last_finished_epoch(tmp_path):
    run = RunDirectory(tmp_path).create()
    assert run.resume_point() is None
    write_json(run / "checkpoints" / "mid.json", {"epoch": 0, "step": 4, "weights": "m"})
    assert run.resume_point()["step"] == 4  # killed inside the first epoch
    write_json(run / "checkpoints" / "last.json", {"epoch": 1, "weights": "l"})
    # Killed after epoch 1's checkpoint, before its mid-epoch one was removed: stale.
    assert run.resume_point() == {"epoch": 1, "weights": "l"}
    write_json(run / "checkpoints" / "mid.json", {"epoch": 1, "step": 2, "weights": "m"})
    assert run.resume_point()["step"] == 2


def _model():
    inputs = keras.Input((3,))
    hidden = keras.layers.Dropout(0.5)(keras.layers.Dense(4)(inputs))
    model = keras.Model(inputs, keras.layers.Dense(2)(hidden))
    model.compile(
        optimizer="adam",
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
    model.train_on_batch(np.ones((4, 3), "float32"), np.zeros(4, "int32"))
    return model


def _monitor(run, model, minutes, steps=4):
    monitor = RunMonitor(
        run,
        lambda m: {"accuracy": 0.5},
        "accuracy",
        patience=5,
        plateau_halving=0,
        train_examples=10,
        log=lambda *_: None,
        steps=steps,
        checkpoint_every_minutes=minutes,
    )
    monitor.set_model(model)
    return monitor


def _state(model):
    generators = [g.state for layer in model._flatten_layers() for g in layer._seed_generators]
    return [keras.ops.convert_to_numpy(v) for v in model.metrics_variables + generators]


@pytest.mark.slow
def test_a_mid_epoch_checkpoint_holds_what_the_rest_of_the_epoch_needs(tmp_path):
    run = RunDirectory(tmp_path).create()
    model = _model()
    monitor = _monitor(run, model, minutes=0)
    monitor.on_epoch_begin(0)
    for step in range(3):
        model.train_on_batch(np.full((4, 3), step, "float32"), np.ones(4, "int32"))
        monitor.on_train_batch_end(step, {"loss": 0.7})
    mid = read_json(run / "checkpoints" / "mid.json")
    assert (mid["epoch"], mid["step"], mid["weights"]) == (0, 3, "mid-1-3.weights.h5")
    assert sorted(p.name for p in (run / "checkpoints").glob("mid-*")) == ["mid-1-3.weights.h5"]
    saved, weights = _state(model), [w.copy() for w in model.get_weights()]

    # A fresh process: weights loaded by the caller, the rest restored at the epoch's start.
    resumed = _model()
    resumed.optimizer.build(resumed.trainable_variables)
    resumed.load_weights(run / "checkpoints" / mid["weights"])
    resumed.reset_metrics()
    monitor = _monitor(run, resumed, minutes=None)
    monitor.on_epoch_begin(0)
    for got, expected in zip(_state(resumed) + resumed.get_weights(), saved + weights):
        np.testing.assert_array_equal(got, expected)

    monitor.on_train_batch_end(3, {"loss": 0.7})
    monitor.on_epoch_end(0, {"loss": 0.7, "accuracy": 0.5})
    assert run.epochs()[0]["train_seconds"] >= mid["train_seconds"]
    assert read_json(run / "checkpoints" / "last.json")["epoch"] == 1
    assert not (run / "checkpoints" / "mid.json").exists()
    assert not list((run / "checkpoints").glob("mid-*"))


@pytest.mark.slow
def test_no_mid_epoch_checkpoint_before_the_interval_after_a_nan_or_at_the_last_step(tmp_path):
    run = RunDirectory(tmp_path).create()
    mid = run / "checkpoints" / "mid.json"
    model = _model()
    monitor = _monitor(run, model, minutes=5, steps=4)
    monitor.on_epoch_begin(0)
    for step in range(3):
        monitor.on_train_batch_end(step, {"loss": 0.7})
    assert not mid.exists()
    monitor = _monitor(run, model, minutes=0, steps=4)
    monitor.on_epoch_begin(0)
    for step, loss in enumerate([0.7, float("nan"), float("nan")]):
        monitor.on_train_batch_end(step, {"loss": loss})
    assert read_json(mid)["step"] == 1
    mid.unlink()
    monitor = _monitor(run, model, minutes=0, steps=1)
    monitor.on_epoch_begin(0)
    monitor.on_train_batch_end(0, {"loss": 0.7})  # the epoch's own checkpoint follows
    assert not mid.exists()


@pytest.mark.slow
def test_a_nan_drops_the_epochs_mid_epoch_checkpoint(tmp_path):
    run = RunDirectory(tmp_path).create()
    monitor = _monitor(run, _model(), minutes=0)
    monitor.on_epoch_begin(0)
    monitor.on_train_batch_end(0, {"loss": 0.7})
    assert run.resume_point()["step"] == 1
    with pytest.raises(FloatingPointError, match="keeps the checkpoint of epoch 0"):
        monitor.on_epoch_end(0, {"loss": float("nan")})
    assert run.resume_point() is None and not list((run / "checkpoints").glob("mid-*"))


def test_the_interval_is_a_config_field_that_names_no_run_directory():
    registered = registry.get("gcnn/quora/cnn")
    assert registered.checkpoint_every_minutes == 5.0
    config = apply_overrides(registered, [parse_override("checkpoint_every_minutes=0")])
    assert config.checkpoint_every_minutes == 0.0
    assert default_run_dir("runs", registered, config) == default_run_dir(
        "runs", registered, registered
    )
    # A killed run may resume with another interval: its results do not depend on it.
    assert loop._same_config(registered.to_dict(), config)
    assert not loop._same_config(registered.to_dict(), config.replace(epochs=3))
    assert (
        apply_overrides(registered, [("checkpoint_every_minutes", None)]).checkpoint_every_minutes
        is None
    )
    with pytest.raises(ValueError, match="checkpoint_every_minutes must be 0 or more"):
        registered.replace(checkpoint_every_minutes=-1.0)
