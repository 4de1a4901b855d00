"""ATTCONV models and the baselines of its tables: Table 7 parameter counts, padding
invariance, the model harness (save/load, gradients), training steps, and the attention
sub-model used by the Figure 6 helper."""

import keras
import numpy as np
import pytest

from gcnn_match.experiments.param_counts import CONVENTIONS
from gcnn_match.models.attconv import attention_model
from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params
from tests.models.harness import check_padding, run_model_test

# (builder, kwargs) of every model the tests cover.
MODELS = {
    "light": ("attconv", {"variant": "light"}),
    "advanced": ("attconv", {"variant": "advanced"}),
    "no_conv": ("attconv", {"variant": "no_conv"}),
    "no_context": ("attconv", {"variant": "no_context"}),
    "light_code_classifier": ("attconv", {"variant": "light", "classifier": "code"}),
    "advanced_code_classifier": ("attconv", {"variant": "advanced", "classifier": "code"}),
    "light_additive": ("attconv", {"variant": "light", "matching": "additive"}),
    "bicnn": ("bicnn", {}),
    "apcnn": ("apcnn", {}),
    # The authors' light scripts; properly masked here, the registered rows use the code's
    # masking (code_faithful=True).
    "code_light": ("attconv_code_light", {"code_faithful": False}),
    # The baselines of other papers (docs/attconv.md#baselines-of-other-papers).
    "abcnn": ("abcnn", {}),
    "abcnn_code_classifier": ("abcnn", {"classifier": "code"}),
    "bi_lstm": ("lstm_encoders", {"dropout": 0.2}),
    "bi_lstm_bidirectional": ("lstm_encoders", {"bidirectional": True}),
    "multichannel_cnn": ("multichannel_cnn", {}),
    "multichannel_cnn_non_static": ("multichannel_cnn", {"multichannel": False}),
    "cnn_internal_attention": ("cnn_internal_attention", {}),
    "cnn_internal_attention_unnormalized": ("cnn_internal_attention", {"normalize": False}),
}
# The small sizes of the builders without ATTCONV's `hidden`.
SMALL_SIZES = {
    "lstm_encoders": dict(units=4, projection_units=5, mlp_layers=2, mlp_units=6),
    "multichannel_cnn": dict(filters=4),
}
# Models whose padding check takes over a second.
SLOW_PADDING = {"bi_lstm_bidirectional"}
# The single-text models, which read text "b" (Yelp's review, on both sides of the pair).
SINGLE_TEXT = ("multichannel_cnn", "cnn_internal_attention")

# Table 7 "#para" by its convention (d = e = 300): weights without embeddings, biases and the
# classifier (docs/attconv.md#parameter-counts).
TABLE_7 = {
    "no_context": 270_000,  # one width-3 conv, 300 x 900
    "bicnn": 270_000,  # the same conv, shared by both texts
    "light": 360_000,  # W1 (300 x 900) + W2 (300 x 300)
    "no_conv": 360_000,  # 4 position-wise layers of 300 x 300
    "apcnn": 360_000,  # conv 270K + the 300 x 300 attentive-pooling matrix U
    "cnn_internal_attention": 270_300,  # conv 270K + the attention's score vector v (300)
}
# Advanced: our count of Eq. 7-13: f_mgran (8 d^2, shared by source and focus; its width-1
# branch is f_bene, Eq. 13 = Eq. 10) + W1 (3 d^2) + W2 (2 d^2) = 13 d^2. It does NOT match the
# paper's 900K (10 d^2), which needs W_h = W_g inside f_gconv, against Eq. 7-8
# (docs/attconv.md#the-beneficiary-eq-13).
ADVANCED_OURS = 13 * 300 * 300


def _inputs(**changes):
    values = dict(vocab_size=40, num_classes=3, embedding_dim=300)
    values.update(changes)
    return ModelInputs(**values)


_table_7_count = CONVENTIONS["attconv-snli"].count


def test_registry_lists_the_models():
    assert {"attconv", "bicnn", "apcnn"} | {builder for builder, _ in MODELS.values()} <= set(
        model_names()
    )
    with pytest.raises(ValueError, match="variant"):
        build_model("attconv", _inputs(), variant="heavy")
    with pytest.raises(ValueError, match="hypothesis alone"):
        build_model("attconv", _inputs(), variant="no_context", classifier="code")


@pytest.mark.parametrize("key", sorted(TABLE_7))
def test_table_7_parameter_counts(key):
    builder, kwargs = MODELS[key]
    model = build_model(builder, _inputs(), **kwargs)
    assert _table_7_count(model) == TABLE_7[key]


def test_advanced_parameter_count_is_ours_not_the_papers():
    model = build_model("attconv", _inputs(), variant="advanced")
    assert _table_7_count(model) == ADVANCED_OURS == 1_170_000
    assert _table_7_count(model) != 900_000  # Table 7; unresolved, see ADVANCED_OURS
    own = build_model("attconv", _inputs(), variant="advanced", share_beneficiary_weights=False)
    assert _table_7_count(own) == 15 * 300 * 300 == 1_350_000


def test_code_light_counts():
    """docs/attconv.md#authors-light-configuration, d = e = 300: gate 2 d^2, width-3 attentive
    conv 3 d^2 + d^2, width-1 d^2 + d^2, hidden layer 8 d x d, and the gamma and beta of the two
    batch normalisations (4 d), by Table 7's convention; then the biases (gate 2 d, convs 2 d,
    hidden d) and the 9 d -> 3 classifier."""
    model = build_model("attconv_code_light", _inputs())
    d = 300
    assert _table_7_count(model) == 16 * d * d + 4 * d == 1_441_200
    assert count_params(model, exclude_embeddings=True) == 1_441_200 + 5 * d + 9 * d * 3 + 3


def test_full_light_count_with_biases_and_classifier():
    model = build_model("attconv", _inputs())
    # 360,000 + bias b (300) + logistic regression 300 x 3 + 3.
    assert count_params(model, exclude_embeddings=True) == 360_000 + 300 + 903
    code = build_model("attconv", _inputs(), classifier="code")
    assert count_params(code, exclude_embeddings=True) == 360_000 + 300 + 1200 * 3 + 3


def _small(key, **changes):
    builder, kwargs = MODELS[key]
    return build_model(
        builder,
        _inputs(embedding_dim=6, **changes),
        **SMALL_SIZES.get(builder, {"hidden": 5}),
        **dict(kwargs, **({"fc_layers": 2} if key == "no_conv" else {})),
    )


def _batch(rng, batch=3, length_a=5, length_b=4):
    a = rng.randint(2, 40, size=(batch, length_a)).astype("int32")
    b = rng.randint(2, 40, size=(batch, length_b)).astype("int32")
    a[0, 3:] = 0  # a shorter premise
    b[1, 2:] = 0  # a shorter hypothesis
    return {"a_ids": a, "b_ids": b}


@pytest.mark.parametrize(
    "key",
    [pytest.param(k, marks=pytest.mark.slow) if k in SLOW_PADDING else k for k in sorted(MODELS)],
)
def test_padding_does_not_change_predictions(key):
    check_padding(_small(key), _batch(np.random.RandomState(0)), pads=(4, 3))


@pytest.mark.parametrize("key", SINGLE_TEXT)
def test_single_text_models_read_text_b_only(key):
    model = _small(key)
    batch = _batch(np.random.RandomState(6))
    other = dict(batch, a_ids=np.random.RandomState(9).randint(2, 40, size=(3, 2)).astype("int32"))
    np.testing.assert_array_equal(np.asarray(model(batch)), np.asarray(model(other)))


def test_code_faithful_model_depends_on_padding():
    model = build_model("attconv", _inputs(embedding_dim=6), hidden=5, code_faithful=True)
    batch = _batch(np.random.RandomState(1))
    short = keras.ops.convert_to_numpy(model(batch))
    padded = keras.ops.convert_to_numpy(
        model({"a_ids": np.pad(batch["a_ids"], [(0, 0), (0, 4)]), "b_ids": batch["b_ids"]})
    )
    assert not np.allclose(short, padded, atol=1e-7)


def test_code_light_depends_on_padding_and_on_the_batch():
    """With the scripts' masking a prediction changes with the padding; with any masking it
    changes with the other examples of the batch (batch statistics in both normalisations),
    so the registered rows are padded to their cut-offs and evaluated in batches of the
    training size (docs/attconv.md#authors-light-configuration)."""
    batch = _batch(np.random.RandomState(5), batch=4)
    faithful = build_model("attconv_code_light", _inputs(embedding_dim=6), hidden=5)
    short = keras.ops.convert_to_numpy(faithful(batch))
    padded = keras.ops.convert_to_numpy(
        faithful({"a_ids": np.pad(batch["a_ids"], [(0, 0), (0, 4)]), "b_ids": batch["b_ids"]})
    )
    assert not np.allclose(short, padded, atol=1e-7)
    masked = _small("code_light")
    together = keras.ops.convert_to_numpy(masked(batch))
    apart = keras.ops.convert_to_numpy(masked({k: v[:3] for k, v in batch.items()}))
    assert not np.allclose(together[:3], apart, atol=1e-7)


@pytest.mark.slow
@pytest.mark.parametrize(
    "key",
    [
        "light",
        "advanced",
        "no_conv",
        "apcnn",
        "code_light",
        "abcnn",
        "bi_lstm",
        "bi_lstm_bidirectional",
        "multichannel_cnn",
        "cnn_internal_attention",
    ],
)
def test_harness(key):
    matrix = np.random.RandomState(1).rand(40, 6).astype("float32")
    run_model_test(_small(key, embedding_matrix=matrix), _batch(np.random.RandomState(2)))


@pytest.mark.slow
@pytest.mark.parametrize(
    "key",
    [
        "light",
        "advanced",
        "no_conv",
        "no_context",
        "bicnn",
        "apcnn",
        "code_light",
        "abcnn",
        "bi_lstm",
        "cnn_internal_attention",
    ],
)
def test_a_few_adagrad_steps_reduce_the_loss(key):
    from gcnn_match.config.experiment import OptimizerConfig
    from gcnn_match.training.optimizers import build_optimizer

    model = _small(key)
    rng = np.random.RandomState(3)
    batch = _batch(rng, batch=8)
    labels = rng.randint(0, 3, size=8)
    model.compile(
        optimizer=build_optimizer(OptimizerConfig("adagrad", learning_rate=0.1)),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    first = model.train_on_batch(batch, labels)
    for _ in range(10):
        last = model.train_on_batch(batch, labels)
    assert last < first


@pytest.mark.parametrize("key", ["light", "advanced", "no_conv"])
def test_attention_model_exposes_hypothesis_over_premise_weights(key):
    model = _small(key)
    batch = _batch(np.random.RandomState(4))
    weights = keras.ops.convert_to_numpy(attention_model(model)(batch)["attention"])
    assert weights.shape == (3, 4, 5)
    real_b = (batch["b_ids"] > 0).astype("float32")
    np.testing.assert_allclose(weights.sum(-1), real_b, atol=1e-5)
    assert np.all(weights[0, :, 3:] == 0)  # padded premise tokens get no attention


@pytest.mark.slow
def test_the_code_light_row_trains_on_scitail_with_fixed_padding(shared_data, tmp_path):
    """The registered row end to end at smoke scale: its code-faithful masking pads every batch
    to the cut-offs and evaluates in batches of the training size."""
    from gcnn_match.data.experiment_data import apply_scale
    from gcnn_match.experiments import registry
    from gcnn_match.training.loop import run_experiment

    config = registry.get("attconv/scitail/attconv_light_authors_code").replace(
        scale="smoke",
        embedding_width=None,
        max_train_examples=100,
        max_eval_examples=50,
        model_kwargs={"code_faithful": True, "hidden": 8},
    )
    resolved = apply_scale(config)
    assert resolved.padding == "fixed" and resolved.eval_batch_size == config.batch_size == 50
    metrics = run_experiment(
        config, tmp_path / "run", shared_data, tmp_path / "cache", log=lambda *_: None
    )
    assert 0.0 <= metrics["test_accuracy"] <= 1.0
