"""The driver prepares each run's data once, and its duration estimate costs no extra start-up."""

import pytest

from gcnn_match.experiments import driver
from gcnn_match.training import loop
from tests.training.crash_resume import crash_in_second_epoch, tiny_config


def _planned(tmp_path):
    return [(tiny_config(scale="smoke"), tmp_path / "run")]


def _counting_preparation(monkeypatch):
    calls = []
    real = loop.prepare_data

    def prepare_data(*args, **kwargs):
        calls.append(args[0].name)
        return real(*args, **kwargs)

    monkeypatch.setattr(loop, "prepare_data", prepare_data)
    return calls


@pytest.mark.slow
def test_each_run_prepares_its_data_once_and_a_resume_starts_once(
    shared_data, tmp_path, monkeypatch, capsys
):
    planned, cache = _planned(tmp_path), tmp_path / "cache"
    calls = _counting_preparation(monkeypatch)
    with crash_in_second_epoch():
        driver.train_pending(planned, shared_data, cache)
    first = capsys.readouterr().out
    assert calls == ["gcnn/quora/cnn"]
    # 10 steps per epoch: the estimate is timed on the run's own first steps.
    assert first.count("throughput (gcnn/quora/cnn, its first steps): ") == 1
    assert "10 steps/epoch; at most ~" in first and "for 1 runs x 2 epochs" in first

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
