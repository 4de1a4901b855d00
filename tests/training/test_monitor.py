"""Selection, early stopping and ESIM's plateau schedule of the run monitor."""

import keras
import numpy as np
import pytest

from gcnn_match.files import read_json, write_json
from gcnn_match.training.monitor import RunMonitor
from gcnn_match.training.run_dir import RunDirectory


def _model(learning_rate=0.1):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(learning_rate), loss="mse")
    model.optimizer.build(model.trainable_variables)
    return model


def _drive(monitor, model, dev_scores, set_weights=None):
    """Runs epochs until the monitor stops; returns the epochs run."""
    scores = iter(dev_scores)
    monitor.evaluate_dev = lambda m: {"accuracy": next(scores)}
    monitor.set_model(model)
    for epoch, _ in enumerate(dev_scores):
        monitor.on_epoch_begin(epoch)
        if set_weights is not None:
            model.set_weights(set_weights(epoch))
        monitor.on_epoch_end(epoch, {"loss": 1.0, "accuracy": 0.5})
        if model.stop_training:
            return epoch + 1
    return len(dev_scores)


def test_plateau_halves_the_rate_restores_the_best_weights_then_stops(tmp_path):
    run = RunDirectory(tmp_path).create()
    model = _model()
    monitor = RunMonitor(
        run, None, "accuracy", patience=1, plateau_halving=2, train_examples=10, log=lambda *_: None
    )
    weights = lambda epoch: [np.full((2, 1), float(epoch), "f"), np.zeros(1, "f")]  # noqa: E731
    epochs = _drive(monitor, model, [0.5, 0.7, 0.6, 0.65, 0.6, 0.9], weights)
    assert epochs == 5  # best at epoch 2, two halvings (epochs 3, 4), stop at epoch 5
    assert float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.1 / 4)
    records = run.epochs()
    assert [r["best"] for r in records] == [True, True, False, False, False]
    assert read_json(run / "checkpoints" / "best.json")["epoch"] == 1
    assert read_json(run / "checkpoints" / "last.json")["halvings"] == 2


def test_a_halving_restores_the_best_parameters_but_keeps_the_optimizer_going(tmp_path):
    run = RunDirectory(tmp_path).create()
    model = _model()
    monitor = RunMonitor(
        run, None, "accuracy", patience=1, plateau_halving=2, train_examples=10, log=lambda *_: None
    )
    weights = lambda epoch: [np.full((2, 1), float(epoch), "f"), np.zeros(1, "f")]  # noqa: E731
    model.optimizer.iterations.assign(7)
    _drive(monitor, model, [0.5, 0.7, 0.6], weights)
    np.testing.assert_array_equal(model.get_weights()[0], np.ones((2, 1)))  # best = epoch 2
    assert int(model.optimizer.iterations.numpy()) == 7


def test_early_stopping_after_patience(tmp_path):
    run = RunDirectory(tmp_path).create()
    monitor = RunMonitor(
        run, None, "accuracy", patience=2, plateau_halving=0, train_examples=10, log=lambda *_: None
    )
    assert _drive(monitor, _model(), [0.5, 0.6, 0.55, 0.58, 0.9]) == 4


def test_nan_loss_stops_with_a_clear_error_and_keeps_the_last_good_checkpoint(tmp_path):
    run = RunDirectory(tmp_path).create()
    model = _model()
    monitor = RunMonitor(
        run, None, "accuracy", patience=5, plateau_halving=0, train_examples=10, log=lambda *_: None
    )
    _drive(monitor, model, [0.5])
    monitor.on_epoch_begin(1)
    with pytest.raises(FloatingPointError, match="keeps the checkpoint of epoch 1"):
        monitor.on_epoch_end(1, {"loss": float("nan")})
    assert read_json(run / "checkpoints" / "last.json")["epoch"] == 1
    assert [r["epoch"] for r in run.epochs()] == [1]


def test_an_epoch_repeated_after_a_kill_keeps_its_best_mark(tmp_path):
    # Killed after epoch 2 wrote its best checkpoint but before its resume point: best.json says
    # epoch 2, last.json epoch 1, so the resumed run repeats epoch 2 with the same dev score.
    run = RunDirectory(tmp_path).create()
    model = _model()
    monitor = RunMonitor(
        run, None, "accuracy", patience=1, plateau_halving=1, train_examples=10, log=lambda *_: None
    )
    _drive(monitor, model, [0.5])
    write_json(run / "checkpoints" / "best.json", {"epoch": 1, "value": 0.7})
    resumed = RunMonitor(
        run,
        lambda m: {"accuracy": 0.7},
        "accuracy",
        patience=1,
        plateau_halving=1,
        train_examples=10,
        log=lambda *_: None,
    )
    resumed.set_model(model)
    resumed.on_epoch_begin(1)
    resumed.on_epoch_end(1, {"loss": 1.0, "accuracy": 0.5})
    assert [r["best"] for r in run.epochs()] == [True, True]
    assert read_json(run / "checkpoints" / "last.json")["halvings"] == 0  # no spurious halving
    assert float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.1)


def _tags(folder):
    """The scalar tags of the TensorBoard event files in `folder`."""
    import tensorflow as tf

    return {
        value.tag
        for path in folder.glob("events.out.tfevents.*")
        for event in tf.compat.v1.train.summary_iterator(str(path))
        for value in event.summary.value
    }


@pytest.mark.slow  # trains two epochs and writes TensorBoard summaries
def test_tensorboard_pairs_dev_metrics_with_the_training_ones(tmp_path):
    run = RunDirectory(tmp_path / "run").create()
    model = _model()
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    monitor = RunMonitor(
        run,
        lambda m: {"mae": 0.5, "accuracy": 0.7},
        "accuracy",
        patience=2,
        plateau_halving=0,
        train_examples=4,
        log=lambda *_: None,
    )
    logs = tmp_path / "logs"
    board = keras.callbacks.TensorBoard(str(logs), write_graph=False, update_freq="epoch")
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    model.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[monitor, board])
    train, validation = _tags(logs / "train"), _tags(logs / "validation")
    assert {"epoch_loss", "epoch_mae"} <= train and not any("dev" in tag for tag in train)
    assert validation == {"epoch_mae", "epoch_accuracy"}


def test_the_best_checkpoint_holds_the_weights_and_no_optimizer_state(tmp_path):
    import h5py

    run = RunDirectory(tmp_path).create()
    model = _model()
    model.set_weights([np.array([[0.5], [-2.0]], "f"), np.array([0.25], "f")])
    run.save_best(model)
    full = tmp_path / "full.weights.h5"
    model.save_weights(full)
    with h5py.File(run.best_weights) as best, h5py.File(full) as everything:
        assert "optimizer" not in best and len(everything["optimizer/vars"]) > 0
    # Selected weights read into a fresh model (no optimizer) are the trained model's.
    fresh = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    run.load_best(fresh)
    for got, expected in zip(fresh.get_weights(), model.get_weights(), strict=True):
        np.testing.assert_array_equal(got, expected)
    # Loading them into a training model leaves its optimizer's state as it is.
    model.optimizer.iterations.assign(5)
    run.load_best(model)
    assert int(model.optimizer.iterations.numpy()) == 5
