"""The builders under the papers' names: each builds and predicts one row of logits per pair,
makes its registered row's model (the registered builder with the row's arguments and word
vectors), and turns the vocabulary, vectors and optional features into the model's inputs."""

import inspect

import keras
import numpy as np
import pytest

import gcnn_match.models
from gcnn_match.experiments import registry as experiments
from gcnn_match.models import (
    ABCNN,
    APCNN,
    ATTCONV,
    COIN,
    ESIM,
    GCNN,
    AttentiveLSTM,
    BiCNN,
    BiLSTM,
    CNNInternalAttention,
    DecompAtt,
    LCLSTMs,
    MultichannelCNN,
    TCLSTMs,
    paper_models,
)
from gcnn_match.models import registry as model_registry

# builder -> tiny sizes it builds with in the fast tier.
TINY = {
    GCNN: dict(hidden=4, mlp_hidden=4, context_layers=1, aggregation_layers=1),
    ATTCONV: dict(hidden=4),
    LCLSTMs: dict(units=3),
    TCLSTMs: dict(units=3),
    COIN: dict(d=4, n_h=2, blocks=1),
    ESIM: dict(encoder_units=3, projection_units=3, composition_units=3, mlp_hidden=3),
    BiCNN: dict(hidden=4),
    APCNN: dict(hidden=4),
    ABCNN: dict(hidden=4),
    MultichannelCNN: dict(filters=2),
    CNNInternalAttention: dict(hidden=4),
    BiLSTM: dict(units=3, projection_units=3, mlp_units=3),
    AttentiveLSTM: dict(units=3),
    DecompAtt: dict(units=3),
}

# (builder, its arguments beyond the vocabulary and classes, the registered row it makes).
ROWS = [
    (GCNN, {}, "gcnn/quora/gcnn"),
    (GCNN, {"char_vocabulary_size": 30}, "gcnn/quora/gcnn_char"),
    (GCNN, {"char_vocabulary_size": 30, "pos_tags": True}, "gcnn/quora/gcnn_char_pos"),
    (ATTCONV, {}, "attconv/snli/attconv_light"),
    (ATTCONV, {"variant": "advanced"}, "attconv/snli/attconv_advanced"),
    (LCLSTMs, {}, "clstm/snli/lc_lstms"),
    (TCLSTMs, {}, "clstm/snli/tc_lstms"),
    (COIN, {"embedding_matrix": np.zeros((20, 300), "float32")}, "coin/quora/coin_ours"),
    (ESIM, {}, "gcnn/quora/esim_our_implement"),
    (BiCNN, {}, "attconv/snli/bi_cnn"),
    (APCNN, {}, "attconv/snli/apcnn_dos_santos_et_al_2016"),
    (ABCNN, {}, "attconv/snli/abcnn_yin_et_al_2016"),
    (MultichannelCNN, {}, "attconv/yelp/multichannelcnn_kim"),
    (CNNInternalAttention, {}, "attconv/yelp/cnn_internal_attention"),
    (BiLSTM, {}, "attconv/snli/bi_lstm_bowman_et_al_2015"),
    (AttentiveLSTM, {}, "attconv/snli/attentive_lstm_rocktaschel"),
    (DecompAtt, {}, "attconv/snli/decomp_att_parikh"),
]


def _pairs():
    rng = np.random.default_rng(0)
    a = rng.integers(1, 20, size=(2, 5)).astype("int32")
    b = rng.integers(1, 20, size=(2, 3)).astype("int32")
    a[1, 3:] = 0  # a shorter second premise
    return {"a_ids": a, "b_ids": b}


# ESIM's first eager call takes seconds (its two BiLSTM encoders); its example and row test
# stay in the fast tier.
BUILT = [
    pytest.param(builder, id=builder.__name__, marks=[pytest.mark.slow] if builder is ESIM else [])
    for builder in TINY
]


@pytest.mark.parametrize("builder", BUILT)
def test_builder_makes_a_model_with_one_logit_per_class(builder):
    model = builder(vocabulary_size=20, num_classes=5, embedding_dim=4, **TINY[builder])
    assert isinstance(model, keras.Model)
    logits = keras.ops.convert_to_numpy(model(_pairs(), training=False))
    assert logits.shape == (2, 5)
    assert np.all(np.isfinite(logits))


def _resolved(name, kwargs):
    """Every argument of the builder registered as `name` called with `kwargs`, defaults
    filled in, sequences as tuples (a row's JSON-like lists)."""
    builder = model_registry._registration(name).builder
    arguments = inspect.signature(builder).bind(None, **kwargs)
    arguments.apply_defaults()
    values = dict(arguments.arguments)
    del values["inputs"]
    return {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}


@pytest.fixture
def recorded(monkeypatch):
    """The (name, inputs, kwargs) of each `build_model` call the builders make."""
    calls = []
    monkeypatch.setattr(
        paper_models, "build_model", lambda name, inputs, **kw: calls.append((name, inputs, kw))
    )
    return calls


@pytest.mark.parametrize("builder, arguments, row", ROWS, ids=[row for _, _, row in ROWS])
def test_builder_makes_its_registered_row(recorded, builder, arguments, row):
    builder(vocabulary_size=20, num_classes=2, **arguments)
    ((name, inputs, kwargs),) = recorded
    config = experiments.get(row)
    assert name == config.model
    assert _resolved(name, kwargs) == _resolved(config.model, config.model_kwargs)
    assert inputs.word_dim == (config.embedding_width or config.embedding_dim)
    assert inputs.embeddings_trainable == config.embeddings_trainable


def test_the_vocabulary_comes_from_the_vectors_when_given(recorded):
    vectors = np.arange(24, dtype="float32").reshape(6, 4)
    GCNN(embedding_matrix=vectors, num_classes=3)
    ((_, inputs, _),) = recorded
    assert (inputs.vocab_size, inputs.word_dim, inputs.num_classes) == (6, 4, 3)
    with pytest.raises(ValueError, match="differs from the 6 rows"):
        GCNN(vocabulary_size=7, embedding_matrix=vectors, num_classes=3)
    with pytest.raises(ValueError, match="vocabulary_size or embedding_matrix"):
        GCNN(num_classes=3)


def test_pretrained_vectors_start_the_embedding_and_coin_keeps_them_fixed():
    vectors = np.random.default_rng(1).normal(size=(20, 4)).astype("float32")
    model = COIN(embedding_matrix=vectors, num_classes=2, d=4, n_h=2, blocks=1)
    table = model.get_layer("word_embedding")
    np.testing.assert_array_equal(keras.ops.convert_to_numpy(table.embeddings), vectors)
    assert not table.trainable
    random = COIN(vocabulary_size=20, num_classes=2, embedding_dim=4, d=4, n_h=2, blocks=1)
    assert random.get_layer("word_embedding").trainable


def test_optional_features_add_their_inputs(recorded):
    GCNN(vocabulary_size=20, num_classes=2, char_vocabulary_size=30, max_chars=7, pos_tags=True)
    ATTCONV(vocabulary_size=20, num_classes=2, context_wise=True)
    ((_, gcnn_inputs, gcnn_kwargs), (_, attconv_inputs, attconv_kwargs)) = recorded
    assert (gcnn_inputs.char_vocab_size, gcnn_inputs.max_chars) == (30, 7)
    assert gcnn_inputs.pos_vocab_size == 48  # 47 tags and the padding id
    assert gcnn_kwargs == {"char_features": True, "pos_features": True}
    assert attconv_inputs.segments and attconv_kwargs["context_wise"]


def test_every_export_is_documented_with_its_paper():
    for name in gcnn_match.models.__all__:
        doc = inspect.getdoc(getattr(gcnn_match.models, name))
        for part in ("Reference:", "Args:", "num_classes:", "**kwargs:", "Example:"):
            assert part in doc, f"{name}'s docstring has no {part!r}"


def test_every_export_shows_its_keywords_and_takes_no_others():
    words = ["vocabulary_size", "num_classes", "embedding_matrix", "embedding_dim"]
    for name in gcnn_match.models.__all__:
        builder = getattr(gcnn_match.models, name)
        parameters = inspect.signature(builder).parameters
        assert builder.__name__ == name and list(parameters)[:4] == words, name
        assert parameters["embedding_dim"].default == (100 if "CLSTMs" in name else 300), name
    assert inspect.signature(GCNN).parameters["pos_tags"].default is False
    assert inspect.signature(AttentiveLSTM).parameters["attention"].default == "word_by_word"
    with pytest.raises(TypeError, match="too many positional"):
        BiCNN(20, 2)
    with pytest.raises(TypeError, match="num_classes"):
        COIN(vocabulary_size=20)
