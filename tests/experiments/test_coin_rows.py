"""COIN rows: names as printed, paper settings and targets, ablation switches."""

import pytest

from gcnn_match.experiments import registry
from gcnn_match.models.registry import ModelInputs, build_model


def test_single_model_rows_have_the_paper_settings():
    quora = registry.get("coin/quora/coin_ours")
    assert (quora.row, quora.table) == ("COIN (ours)", "Table 2")
    assert (quora.tokenizer, quora.lowercase, quora.max_len_a, quora.max_len_b) == (
        "treebank",
        True,
        32,
        32,
    )
    assert (quora.embeddings_trainable, quora.oov_init) == (False, "zeros")
    assert quora.embeddings == "glove.840B.300d|glove-6b-50d-packaged"
    assert quora.model_kwargs == {"d": 225, "n_h": 5, "blocks": 3}
    assert quora.targets["test_accuracy"] == pytest.approx(0.894)
    assert (
        quora.optimizer.learning_rate,
        quora.optimizer.global_clipnorm,
        quora.optimizer.decay,
    ) == (1e-3, 5.0, "exponential:0.95:128000:6e-5")
    assert (quora.batch_size, quora.epochs) == (128, 30)

    lcqmc = registry.get("coin/lcqmc/coin_ours")
    assert (lcqmc.row, lcqmc.table) == ("COIN (Ours)", "Table 1")
    assert (
        lcqmc.tokenizer,
        lcqmc.max_len_a,
        lcqmc.embeddings,
        lcqmc.embedding_dim,
        lcqmc.embeddings_trainable,
    ) == ("chars", 50, "random", 200, True)
    assert lcqmc.model_kwargs["blocks"] == 2
    assert lcqmc.targets == {"test_accuracy": pytest.approx(0.856), "test_f1": pytest.approx(0.865)}
    assert ("test_f1", "test_f1") in lcqmc.compare


def test_ablation_rows():
    rows = ["original", "w/o context", "simple fusion", "w/o aggregat.", "simple pool"]
    for dataset, original in (("quora", 0.896), ("lcqmc", 0.854)):
        configs = [
            c for c in registry.select(paper="COIN", dataset=dataset) if c.table == "Table 3"
        ]
        assert [c.row for c in configs] == rows
        assert configs[0].targets == {"dev_accuracy": pytest.approx(original)}
        assert all(c.compare == (("dev_accuracy", "dev_accuracy"),) for c in configs)
    switch = registry.get("coin/quora/ablation_w_o_context").model_kwargs
    assert switch == {"d": 225, "n_h": 5, "blocks": 3, "use_context": False}
    assert registry.get("coin/lcqmc/ablation_simple_pool").model_kwargs["pooling"] == "max"


@pytest.mark.parametrize(
    "name", ["coin/quora/ablation_w_o_aggregat", "coin/lcqmc/ablation_w_o_aggregat"]
)
def test_registered_widths_build_with_the_runnable_vectors(name):
    # 50-d stand-in vectors (Quora) and 200-d characters (LCQMC): e + d must split into n_h
    # heads when the block output is pooled directly.
    config = registry.get(name)
    dim = 50 if config.dataset == "quora" else config.embedding_dim
    model = build_model(
        "coin", ModelInputs(vocab_size=10, num_classes=2, embedding_dim=dim), **config.model_kwargs
    )
    assert model.output_shape == (None, 2)
