"""The paper's embedding width over narrower stand-in vectors: what the model reads, which
columns train, and a run with the width set."""

import json

import keras
import numpy as np
import pytest

from gcnn_match.data.pipeline import PairEncoder
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.data.vocab import Vocabulary
from gcnn_match.experiments import registry
from gcnn_match.experiments.param_counts import CONVENTIONS, matches
from gcnn_match.models.registry import build_model
from gcnn_match.training.loop import model_inputs, run_experiment

WORDS = ["what", "is", "the", "cat", "zzqxv"]  # the last one is not in GloVe


def _inputs(name, tmp_path):
    config = registry.get(name)
    encoder = PairEncoder(TextPolicy(lowercase=True), Vocabulary(WORDS), 40, 40)
    inputs, summary = model_inputs(
        config, encoder, tmp_path, tmp_path / "cache", log=lambda *_: None
    )
    return config, inputs, summary


@pytest.mark.slow
@pytest.mark.parametrize(
    "name, trained",
    [("attconv/snli/attconv_light", True), ("coin/quora/coin_ours", False)],
)
def test_padded_columns_train_with_the_vectors_or_stay_fixed(tmp_path, name, trained):
    config, inputs, summary = _inputs(name, tmp_path)
    assert config.embedding_width == inputs.word_dim == 300
    padding = "padded to 300d (OOV init)" if trained else "zero-padded to 300d"
    assert summary.startswith(f"glove-6b-50d-packaged: 50d {padding}, ")
    extra = inputs.embedding_matrix[:, 50:]
    assert np.all(extra[0] == 0) and bool(np.any(extra[1:] != 0)) is trained

    small = {"hidden": 4} if config.model == "attconv" else {"d": 10, "n_h": 2, "blocks": 1}
    model = build_model(config.model, inputs, **dict(config.model_kwargs, **small))
    embedding = model.get_layer("word_embedding")
    assert embedding.trainable is trained
    np.testing.assert_array_equal(embedding.embeddings.numpy(), inputs.embedding_matrix)
    model.compile(
        optimizer=keras.optimizers.SGD(1.0),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        run_eagerly=True,  # tracing costs more than the one step
    )
    batch = {"a_ids": np.array([[2, 3, 4, 5]] * 2), "b_ids": np.array([[5, 4, 3, 0]] * 2)}
    model.train_on_batch(batch, np.array([0, 1]))
    after = embedding.embeddings.numpy()[:, 50:]
    assert bool(np.any(after[2:6] != extra[2:6])) is trained


@pytest.mark.parametrize("name", ["attconv/snli/attconv_light", "clstm/snli/tc_lstms"])
def test_the_padded_stand_in_has_the_papers_parameter_count(tmp_path, name):
    config, inputs, _ = _inputs(name, tmp_path)
    model = build_model(config.model, inputs, **config.model_kwargs)
    ours = CONVENTIONS[registry.table_id(config)].count(model)
    assert matches(ours, config.targets["params"]), ours


@pytest.mark.slow
def test_a_run_at_a_set_width_records_it(shared_data, tmp_path):
    config = registry.get("attconv/snli/attconv_light").replace(
        scale="smoke",
        embedding_width=64,
        max_train_examples=64,
        max_eval_examples=32,
        model_kwargs={"variant": "light", "hidden": 8},
    )
    metrics = run_experiment(
        config, tmp_path / "run", shared_data, tmp_path / "cache", log=lambda *_: None
    )
    assert metrics["embeddings"].startswith("glove-6b-50d-packaged: 50d padded to 64d (OOV init)")
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["embedding_width"] == 64
    shapes = json.loads((tmp_path / "run" / "model_inputs.json").read_text())
    assert shapes["embedding_dim"] == 64


def test_trainable_padding_trains_the_padded_columns_beside_fixed_vectors(tmp_path):
    """COIN's other reading: the 50 GloVe columns stay fixed, the 250 padded ones train."""
    config, inputs, summary = _inputs("coin/quora/coin_ours_trainable_padding", tmp_path)
    assert config.trainable_padding and not config.embeddings_trainable
    assert summary.startswith("glove-6b-50d-packaged: 50d padded to 300d (normal(0, 0.01)), ")
    assert inputs.trainable_padding == 250 and inputs.word_dim == 300
    extra = inputs.embedding_matrix[:, 50:]
    assert np.all(extra[0] == 0) and np.all(extra[1:] != 0)

    model = build_model(config.model, inputs, **dict(config.model_kwargs, d=10, n_h=2, blocks=1))
    embedding = model.get_layer("word_embedding")
    assert [tuple(w.shape) for w in embedding.trainable_weights] == [(len(WORDS) + 2, 250)]
    np.testing.assert_array_equal(embedding.embeddings.numpy(), inputs.embedding_matrix)
    model.compile(
        optimizer=keras.optimizers.SGD(1.0),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        run_eagerly=True,
    )
    batch = {"a_ids": np.array([[2, 3, 4, 5]] * 2), "b_ids": np.array([[5, 4, 3, 0]] * 2)}
    model.train_on_batch(batch, np.array([0, 1]))
    after = embedding.embeddings.numpy()
    np.testing.assert_array_equal(after[:, :50], inputs.embedding_matrix[:, :50])
    assert np.any(after[2:6, 50:] != extra[2:6])
    # The same count as the paper row: the padding is an embedding table, not counted.
    paper_row = registry.get("coin/quora/coin_ours")
    ours = CONVENTIONS["coin-quora"].count(build_model(config.model, inputs, **config.model_kwargs))
    assert matches(ours, paper_row.targets["params"]), ours
