"""The driver prepares each run's data once, and its duration estimate costs no extra start-up."""

import keras
import pytest

from gcnn_match.experiments import driver, registry
from gcnn_match.training import loop


class _Interrupt(Exception):
    pass


def _planned(tmp_path):
    config = registry.get("gcnn/quora/cnn").replace(
        scale="smoke",
        batch_size=32,
        max_train_examples=320,
        max_eval_examples=96,
        model_kwargs={
            "variant": "cnn",
            "hidden": 8,
            "context_layers": 1,
            "aggregation_layers": 1,
            "mlp_hidden": 8,
        },
    )
    return [(config, tmp_path / "run")]


def _counting_preparation(monkeypatch):
    calls = []
    real = loop.prepare_data

    def prepare_data(*args, **kwargs):
        calls.append(args[0].name)
        return real(*args, **kwargs)

    monkeypatch.setattr(loop, "prepare_data", prepare_data)
    return calls


def _crash_in_second_epoch(monkeypatch):
    real_fit = keras.Model.fit

    def fit(self, *args, **kwargs):
        class Crash(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                if epoch == 1:
                    raise _Interrupt()

        kwargs["callbacks"] = list(kwargs.get("callbacks", [])) + [Crash()]
        return real_fit(self, *args, **kwargs)

    monkeypatch.setattr(keras.Model, "fit", fit)
    return real_fit


@pytest.mark.slow
def test_each_run_prepares_its_data_once_and_a_resume_starts_once(
    shared_data, tmp_path, monkeypatch, capsys
):
    planned, cache = _planned(tmp_path), tmp_path / "cache"
    calls = _counting_preparation(monkeypatch)
    real_fit = _crash_in_second_epoch(monkeypatch)
    with pytest.raises(_Interrupt):
        driver.train_pending(planned, shared_data, cache)
    first = capsys.readouterr().out
    assert calls == ["gcnn/quora/cnn"]
    # 10 steps per epoch: the estimate is timed on the run's own first steps.
    assert first.count("throughput (gcnn/quora/cnn, its first steps): ") == 1
    assert "10 steps/epoch; at most ~" in first and "for 1 runs x 2 epochs" in first

    monkeypatch.setattr(keras.Model, "fit", real_fit)
    calls.clear()
    driver.train_pending(planned, shared_data, cache)
    resumed = capsys.readouterr().out
    assert "resuming after epoch 1" in resumed
    assert calls == ["gcnn/quora/cnn"]  # the resumed run's own preparation, no probe's
    assert resumed.count("throughput (gcnn/quora/cnn, its first steps): ") == 1
    assert (planned[0][1] / "metrics.json").exists()

    calls.clear()
    driver.train_pending(planned, shared_data, cache)
    assert calls == [] and "throughput (" not in capsys.readouterr().out
