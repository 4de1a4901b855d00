"""An interrupted run resumes from its last finished epoch and ends where it would have."""

import json

import pytest

from gcnn_match.training import loop
from tests.training.crash_resume import crash_in_second_epoch, tiny_config


def _config():
    return tiny_config(scale="low-resource", epochs=2)


@pytest.mark.slow
def test_resume_after_a_crash_matches_an_uninterrupted_run(shared_data, tmp_path):
    cache = tmp_path / "cache"
    reference = loop.run_experiment(
        _config(), tmp_path / "ref", shared_data, cache, log=lambda *_: None
    )
    with crash_in_second_epoch():
        loop.run_experiment(_config(), tmp_path / "run", shared_data, cache, log=lambda *_: None)
    assert not (tmp_path / "run" / "metrics.json").exists()
    assert json.loads((tmp_path / "run/checkpoints/last.json").read_text())["epoch"] == 1

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
