"""The registered ATTCONV rows: names, paper targets and the paper's common set-up."""
from gcnn_match.experiments import registry


def test_scitail_and_snli_rows_are_registered_with_paper_settings():
    scitail = registry.select(paper="ATTCONV", dataset="scitail")
    snli = registry.select(paper="ATTCONV", dataset="snli")
    assert len(scitail) == 6 and len(snli) == 6
    light = registry.get("attconv/snli/attconv_light")
    assert light.targets == {"test_accuracy": 0.863,
                             "trainable_params_without_embeddings": 360_000}
    assert registry.get("attconv/scitail/attconv_advanced").targets == {"test_accuracy": 0.792}
    for config in scitail + snli:
        assert config.name.startswith(f"attconv/{config.dataset}/")
        assert config.optimizer.name == "adagrad" and config.optimizer.learning_rate == 0.01
        assert config.batch_size == 50 and config.embeddings_trainable
        assert config.embeddings == "word2vec-googlenews|glove-6b-50d-packaged"
        assert "word2vec" in config.target_notes
        assert config.model in ("attconv", "bicnn", "apcnn")
    assert {c.max_len_a for c in scitail} == {50} and {c.max_len_a for c in snli} == {70}
    assert "attconv-scitail" in registry.tables() and "attconv-snli" in registry.tables()
