"""Progress inside a training epoch: one line per report in a log, erased on a terminal."""

import io

import keras
import numpy as np
import pytest

from gcnn_match.training.epoch_progress import EpochProgress, PredictProgress

pytestmark = pytest.mark.slow  # each test trains a model or predicts with one


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _fit(stream):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((6, 2), "float32"), np.zeros((6, 1), "float32")
    history = model.fit(
        x,
        y,
        batch_size=2,
        epochs=2,
        verbose=0,
        callbacks=[EpochProgress(3, 2, stream=stream, interval=0, delay=0)],
    )
    return history.history["loss"]


def test_a_log_gets_steps_and_the_running_loss():
    stream = io.StringIO()
    losses = _fit(stream)
    lines = stream.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        f"epoch {e}/2: {s}/3 steps ({100 * s / 3:.0f}%)" for e in (1, 2) for s in (1, 2, 3)
    ]
    # The last report of an epoch shows the epoch's loss, as Keras' history records it.
    assert lines[2].split(", ")[1] == f"loss {losses[0]:.4f}"
    assert lines[5].split(", ")[1] == f"loss {losses[1]:.4f}"


def test_a_terminal_line_is_erased_after_each_epoch():
    stream = _Terminal()
    _fit(stream)
    text = stream.getvalue()
    assert "\n" not in text
    epochs = text.split("epoch 2/2")
    assert epochs[0].endswith("\r") and epochs[0].rstrip("\r").endswith(" ")
    assert text.endswith("\r") and text.rstrip("\r").split("\r")[-1].strip() == ""


def _predict(stream):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    progress = PredictProgress(5, "quora/test: predicting", stream=stream, interval=0, delay=0)
    return model.predict(np.ones((5, 2), "float32"), batch_size=2, verbose=0, callbacks=[progress])


def test_a_long_prediction_reports_its_pairs():
    stream = io.StringIO()
    assert _predict(stream).shape == (5, 1)
    assert [line.split(",")[0] for line in stream.getvalue().splitlines()] == [
        f"quora/test: predicting: {n}/5 pairs ({20 * n}%)" for n in (2, 4, 5)
    ]


def test_a_predictions_terminal_line_is_erased():
    stream = _Terminal()
    _predict(stream)
    text = stream.getvalue()
    assert "5/5 pairs" in text and text.endswith("\r") and text.split("\r")[-2].strip() == ""
