"""A tiny real run (Quora, a small CNN, 10 steps an epoch) and a crash at the start of its
second epoch, for the tests of resuming: tests/training/test_resume.py (the training loop) and
tests/experiments/test_driver.py (the driver)."""

import contextlib

import keras
import pytest

from gcnn_match.experiments import registry

TINY_CNN = {
    "variant": "cnn",
    "hidden": 8,
    "context_layers": 1,
    "aggregation_layers": 1,
    "mlp_hidden": 8,
}


class Interrupt(Exception):
    """What the crash raises."""


def tiny_config(**changes):
    """The Quora CNN row on 320 training and 96 evaluation pairs, batches of 32, with `changes`
    (its scale, its epochs)."""
    return registry.get("gcnn/quora/cnn").replace(
        batch_size=32,
        max_train_examples=320,
        max_eval_examples=96,
        model_kwargs=TINY_CNN,
        **changes,
    )


@contextlib.contextmanager
def crash_in_second_epoch():
    """Within the block, `keras.Model.fit` raises `Interrupt` when a second epoch begins (as
    a kill after the first epoch's checkpoint would stop it); the block must end in that
    crash. The real `fit` is back after the block."""
    real_fit = keras.Model.fit

    class Crash(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            if epoch == 1:
                raise Interrupt()

    def fit(self, *args, **kwargs):
        kwargs["callbacks"] = list(kwargs.get("callbacks", [])) + [Crash()]
        return real_fit(self, *args, **kwargs)

    keras.Model.fit = fit
    try:
        with pytest.raises(Interrupt):
            yield
    finally:
        keras.Model.fit = real_fit
