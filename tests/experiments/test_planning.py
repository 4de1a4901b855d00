"""The run plan of experiments/reproduce.py: directories per row and seed, shared runs, what is
left to train, the data it reads and the duration estimate."""

import pytest

from gcnn_match.config.overrides import OverrideError
from gcnn_match.experiments import planning, registry


def test_each_row_plans_one_run_directory_per_seed(tmp_path):
    gcnn = registry.get("gcnn/quora/gcnn")
    planned = planning.planned_runs(gcnn, [1, 2], "low-resource", tmp_path)
    assert [d for _, d in planned] == [
        tmp_path / "gcnn/quora/gcnn/low-resource-seed1-e300",
        tmp_path / "gcnn/quora/gcnn/low-resource-seed2-e300",
    ]
    assert [(c.scale, c.seed) for c, _ in planned] == [("low-resource", 1), ("low-resource", 2)]
    # Overrides apply to every run and name its directory, as train.py's do.
    dirs = planning.run_dirs(gcnn, [3], "full", tmp_path, [("epochs", 6)])
    assert dirs == [tmp_path / "gcnn/quora/gcnn/full-seed3-e300-epochs6"]


def test_scale_and_seed_come_from_the_plan_not_an_override(tmp_path):
    gcnn = registry.get("gcnn/quora/gcnn")
    with pytest.raises(OverrideError, match="choose the seed with --seeds"):
        planning.planned_runs(gcnn, [1], "full", tmp_path, [("seed", 2)])
    with pytest.raises(OverrideError, match="unknown config key 'epoch'"):
        planning.planned_runs(gcnn, [1], "full", tmp_path, [("epoch", 2)])


def test_a_scale_the_dataset_has_no_splits_for_is_refused_before_anything_runs(tmp_path):
    standin = registry.get("attconv/yelp_stars_standin/light")  # no train split
    with pytest.raises(ValueError, match="only --scale=low-resource applies"):
        planning.plan([standin], [1], "full", tmp_path)
    assert planning.plan([standin], [1], "low-resource", tmp_path)


def test_an_ensemble_row_plans_its_members_one_to_n(tmp_path):
    ensemble = registry.get("coin/quora/coin_ensemble")
    planned = planning.planned_runs(ensemble, [1], "low-resource", tmp_path)
    assert [c.name for c, _ in planned] == ["coin/quora/coin_ours"] * ensemble.ensemble_size
    assert [c.seed for c, _ in planned] == list(range(1, ensemble.ensemble_size + 1))


def test_rows_sharing_runs_plan_them_once(tmp_path):
    rows = [
        registry.get(name)
        for name in (
            "coin/quora/coin_ours",
            "coin/quora/ablation_original",
            "coin/quora/coin_ensemble",
        )
    ]
    planned = planning.plan(rows, [1, 2], "low-resource", tmp_path)
    dirs = [d for _, d in planned]
    assert len(dirs) == len(set(dirs)) == 5  # the vote's 5 seeds include the rows' seeds 1, 2
    assert dirs[:2] == [
        tmp_path / "coin/quora/coin_ours/low-resource-seed1-e300",
        tmp_path / "coin/quora/coin_ours/low-resource-seed2-e300",
    ]


def test_pending_leaves_out_finished_runs(tmp_path):
    planned = planning.plan([registry.get("gcnn/quora/gcnn")], [1, 2, 3], "smoke", tmp_path)
    finished = planned[1][1]
    finished.mkdir(parents=True)
    (finished / "metrics.json").write_text("{}")
    (planned[2][1]).mkdir(parents=True)  # interrupted: still pending
    assert [c.seed for c in planning.pending(planned)] == [1, 3]


def test_ensure_data_asks_for_every_split_the_pending_runs_read(monkeypatch, tmp_path):
    calls, checked = [], []
    monkeypatch.setattr(planning, "ensure_dataset", lambda *args: calls.append(args))
    monkeypatch.setattr(
        planning, "check_files", lambda config, data_dir: checked.append(config.train_split)
    )
    gcnn = registry.get("gcnn/quora/gcnn")
    pending = [gcnn.replace(scale="low-resource"), gcnn.replace(scale="full")]
    planning.ensure_data(pending, tmp_path)
    # The low-resource run selects on a held-out part of its training split: no file of its own.
    assert calls == [("quora", tmp_path, ["dev", "test", "train"])]
    # Then every pending run's files are opened, as the run reads them (scaled).
    assert checked == ["dev", "train"]


def test_estimate_extrapolates_one_runs_first_steps_to_every_pending_run():
    gcnn = registry.get("gcnn/quora/gcnn")
    cnn = registry.get("gcnn/quora/cnn")
    pending = [
        gcnn.replace(epochs=4, scale="low-resource"),
        cnn.replace(epochs=6, scale="low-resource"),
    ]
    estimate = planning.estimate(pending, "gcnn/quora/gcnn", 0.5, 100)
    assert (estimate.epochs, estimate.runs, estimate.total_seconds) == (6, 2, 0.5 * 100 * 6 * 2)
    assert str(estimate).startswith(
        "throughput (gcnn/quora/gcnn, its first steps): 0.50 s/step, 100 steps"
    )
    assert "at most ~10m00s for 2 runs x 6 epochs" in str(estimate)
    # The smoke scale trains one epoch whatever the configs say.
    smoke = [c.replace(scale="smoke") for c in pending]
    assert planning.estimate(smoke, "gcnn/quora/gcnn", 0.5, 100).total_seconds == 0.5 * 100 * 2 * 2
