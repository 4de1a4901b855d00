"""Which configs train alike: the fields that only say where a row is printed do not count."""

from gcnn_match.config.experiment import ExperimentConfig


def test_configs_that_differ_only_in_where_they_are_printed_train_alike():
    config = ExperimentConfig(
        name="p/one/r", paper="P", table="Table 1", row="R", dataset="one", model="esim"
    )
    printed_elsewhere = config.replace(
        name="p/two/r",
        table="Table 2",
        row="R (ours)",
        targets={"test_accuracy": 0.8},
        target_notes="Table 2",
        compare=(("dev_accuracy", "dev_accuracy"),),
        table_key="p-two",
        checkpoint_every_minutes=None,
    )
    assert config.trains_like(printed_elsewhere) and printed_elsewhere.trains_like(config)
    assert not config.trains_like(config.replace(dataset="two"))
    assert not config.trains_like(config.replace(optimizer={"learning_rate": 1e-3}))
    assert not config.trains_like(config.replace(model_kwargs={"hidden": 8}))
