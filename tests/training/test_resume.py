"""An interrupted run resumes from its last finished epoch and ends where it would have."""

import json

import keras
import pytest

from gcnn_match.experiments import registry
from gcnn_match.training import loop


class _Interrupt(Exception):
    pass


def _config():
    return registry.get("gcnn/quora/cnn").replace(
        scale="low-resource",
        epochs=2,
        batch_size=32,
        max_train_examples=320,
        max_eval_examples=96,
        model_kwargs={
            "variant": "cnn",
            "hidden": 16,
            "context_layers": 1,
            "aggregation_layers": 1,
            "mlp_hidden": 16,
        },
    )


@pytest.mark.slow
def test_resume_after_a_crash_matches_an_uninterrupted_run(shared_data, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    reference = loop.run_experiment(
        _config(), tmp_path / "ref", shared_data, cache, log=lambda *_: None
    )

    real_fit = keras.Model.fit

    def crash_in_second_epoch(self, *args, **kwargs):
        class Crash(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch, logs=None):
                if epoch == 1:
                    raise _Interrupt()

        kwargs["callbacks"] = list(kwargs.get("callbacks", [])) + [Crash()]
        return real_fit(self, *args, **kwargs)

    monkeypatch.setattr(keras.Model, "fit", crash_in_second_epoch)
    with pytest.raises(_Interrupt):
        loop.run_experiment(_config(), tmp_path / "run", shared_data, cache, log=lambda *_: None)
    assert not (tmp_path / "run" / "metrics.json").exists()
    assert json.loads((tmp_path / "run/checkpoints/last.json").read_text())["epoch"] == 1

    monkeypatch.setattr(keras.Model, "fit", real_fit)
    lines = []
    resumed = loop.run_experiment(_config(), tmp_path / "run", shared_data, cache, log=lines.append)
    assert any("resuming after epoch 1" in line for line in lines)
    assert resumed["epochs_run"] == 2
    assert resumed["test_accuracy"] == pytest.approx(reference["test_accuracy"], abs=1e-6)
    assert resumed["dev_accuracy"] == pytest.approx(reference["dev_accuracy"], abs=1e-6)


def test_changed_config_in_the_same_directory_is_refused(shared_data, tmp_path):
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "config.json").write_text(json.dumps({"name": "something else"}))
    with pytest.raises(ValueError, match="different config"):
        loop.run_experiment(
            _config(), tmp_path / "run", shared_data, tmp_path / "cache", log=lambda *_: None
        )
