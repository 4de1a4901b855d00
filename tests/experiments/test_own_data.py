"""Registered rows as templates of runs on a dataset of your own: what a template keeps and
what it takes from the dataset, --model, the rows that cannot run on it, the reproduce plan."""

import dataclasses

import pytest

from gcnn_match.config.overrides import apply_overrides, default_run_dir
from gcnn_match.data import registry as data_registry
from gcnn_match.data.registry import DatasetSpec, FileSpec
from gcnn_match.experiments import own_data, planning, registry


def _dataset(task="classification", dev=True, test=True):
    files = {"train": (FileSpec("/data/train.tsv", "columns"),)}
    return DatasetSpec(
        name="mine",
        task=task,
        labels=("no", "yes"),
        splits=files,
        official_splits=("train", "dev" if dev else "holdout", "test" if test else None),
    )


def test_a_template_keeps_the_row_s_settings_and_takes_the_dataset_s_splits():
    row = registry.get("gcnn/quora/gcnn")
    config = own_data.on_dataset(row, _dataset(dev=False))
    assert config.name == "mine/gcnn/quora/gcnn" and config.dataset == "mine"
    assert (config.train_split, config.dev_split, config.test_split) == ("train", "holdout", "test")
    assert config.targets == {} and config.target_notes == ""
    assert config.compare == (("dev_accuracy", "dev_accuracy"), ("test_accuracy", "test_accuracy"))
    assert config.table_key == "gcnn-quora"
    kept = ("model", "model_kwargs", "optimizer", "max_len_a", "embeddings", "epochs", "tokenizer")
    assert all(getattr(config, field) == getattr(row, field) for field in kept)
    no_test = own_data.on_dataset(row, _dataset(test=False))
    assert no_test.test_split is None and no_test.compare == (("dev_accuracy", "dev_accuracy"),)


def test_rows_that_cannot_run_on_the_dataset_say_why():
    with pytest.raises(ValueError, match="clstm/yahoo/nbow is a ranking row and mine a class"):
        own_data.on_dataset(registry.get("clstm/yahoo/nbow"), _dataset())
    fever = registry.get("attconv/fever/light_context_conc")
    with pytest.raises(ValueError, match="reads claims with their evidence sentences"):
        own_data.on_dataset(fever, _dataset())
    ranking = own_data.on_dataset(registry.get("clstm/wikiqa/nbow"), _dataset("ranking"))
    assert ranking.compare[0] == ("dev_map", "dev_map")
    notes = []
    rows = registry.select(paper="C-LSTMs")
    usable = own_data.usable_rows(rows, _dataset(), log=notes.append)
    assert {c.dataset for c in usable} == {"snli"} and len(notes) == len(rows) - len(usable)


def test_model_replaces_the_row_s_model_and_names_the_run_directory(tmp_path):
    registered, changes = own_data.template("gcnn/quora/cnn", "esim", _dataset())
    config = apply_overrides(registered, changes)
    assert (config.model, config.model_kwargs) == ("esim", {})
    assert default_run_dir(tmp_path, registered, config).parent == tmp_path / registered.name
    assert default_run_dir(tmp_path, registered, config).name.startswith("full-seed1-")
    assert own_data.template("gcnn/quora/cnn", "compare_aggregate", _dataset())[1] == []
    alone, changes = own_data.template(None, "esim", _dataset("ranking"))
    assert (alone.name, alone.model, alone.select_metric, changes) == (
        "mine/custom/esim",
        "esim",
        "map",
        [],
    )
    with pytest.raises(ValueError, match="--experiment is required"):
        own_data.template(None, "esim", None)
    with pytest.raises(ValueError, match="--experiment: unknown experiment 'gcnn/quora/cnnn' "):
        own_data.template("gcnn/quora/cnnn", None, _dataset())


def test_the_plan_on_your_dataset_puts_every_run_under_its_name(tmp_path):
    ensemble = registry.get("coin/quora/coin_ensemble")
    planned = planning.planned_runs(ensemble, [1], "full", tmp_path, dataset=_dataset())
    assert {c.name for c, _ in planned} == {"mine/coin/quora/coin_ours"}
    assert planned[0][1] == tmp_path / "mine/coin/quora/coin_ours/full-seed1-e300"
    assert [c.dataset for c, _ in planned] == ["mine"] * ensemble.ensemble_size


def test_rows_of_two_tables_that_train_alike_on_your_dataset_train_once_for_both(tmp_path):
    # GCNN's Table 1 prints each row on MultiNLI and on SNLI with one configuration.
    multinli, snli = registry.get("gcnn/multinli/cnn"), registry.get("gcnn/snli/cnn")
    mine = _dataset()
    assert planning.trained_by(snli, mine) == multinli
    planned = planning.plan([multinli, snli], [1, 2], "full", tmp_path, dataset=mine)
    assert [c.name for c, _ in planned] == ["mine/gcnn/multinli/cnn"] * 2
    dirs = [d for _, d in planned]
    for table in ("gcnn-multinli", "gcnn-snli"):
        _, shown, run_dirs = planning.table_runs(table, [1, 2], "full", tmp_path, dataset=mine)
        row = next(c for c in shown if c.name.endswith("/cnn"))
        assert row.name == f"mine/{table.replace('-', '/')}/cnn" and run_dirs[row.name] == dirs
    # On the papers' own datasets the two rows train on different data, each its own runs.
    assert planning.trained_by(snli) == snli
    assert len(planning.plan([multinli, snli], [1], "low-resource", tmp_path)) == 2


def test_flags_describe_your_files_or_name_the_missing_one(tmp_path, monkeypatch):
    from absl import flags

    monkeypatch.setattr(data_registry, "DATASETS", dict(data_registry.DATASETS))
    values = flags.FlagValues()
    own_data.define_flags(values)
    values(["train.py"])
    assert own_data.dataset_from_flags(values) is None
    values(["train.py", "--test_file=t.tsv"])
    with pytest.raises(ValueError, match="--test_file: describes files of your own: give --tr"):
        own_data.dataset_from_flags(values)
    (tmp_path / "train.tsv").write_text("a\tb\t0\nc\td\t1\n")
    values(["train.py", f"--train_file={tmp_path / 'train.tsv'}", "--dataset_name=mine"])
    values.test_file = None
    spec = own_data.dataset_from_flags(values, log=lambda _: None)
    assert data_registry.get_dataset("mine") is spec and spec.labels == ("0", "1")
    values.dataset_file = "mine.json"
    with pytest.raises(ValueError, match="--dataset_file: it describes the files already"):
        own_data.dataset_from_flags(values)


def test_low_resource_has_no_meaning_on_your_files():
    own_data.check_scale("low-resource", None)
    with pytest.raises(ValueError, match="--scale: low-resource trains on a dataset's official"):
        own_data.check_scale("low-resource", dataclasses.replace(_dataset()))
