"""The compare-aggregate model: paper parameter counts, padding invariance, save/load."""
import numpy as np
import pytest

import keras

from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params

VARIANTS = ("gcnn", "glu", "cnn", "gcnn_no_forget", "gcnn_no_output")


def _paper_inputs(**changes):
    values = dict(vocab_size=1000, num_classes=2, embedding_dim=300)
    values.update(changes)
    return ModelInputs(**values)


def test_registry_lists_the_model():
    assert "compare_aggregate" in model_names()
    with pytest.raises(ValueError, match="unknown model"):
        build_model("nope", _paper_inputs())


def test_paper_gcnn_parameter_count():
    model = build_model("compare_aggregate", _paper_inputs())
    # Encoders (300-d input, hidden 300, k=3): 4 context layers 4 * 810,900 = 3,243,600;
    # aggregation 1200 -> 300 with projection 3,600,900, then 810,900 (see the layer tests).
    # MLP: 1200 * 300 + 300 = 360,300; softmax layer 300 * 2 + 2 = 602.
    expected = 3_243_600 + 3_600_900 + 810_900 + 360_300 + 602
    assert count_params(model, exclude_embeddings=True) == expected
    assert count_params(model) == expected + 1000 * 300


@pytest.mark.parametrize("variant", VARIANTS)
def test_padding_does_not_change_predictions(variant):
    inputs = _paper_inputs(vocab_size=50, embedding_dim=8)
    model = build_model("compare_aggregate", inputs, variant=variant, hidden=8, mlp_hidden=8,
                        context_layers=2, aggregation_layers=2)
    rng = np.random.RandomState(0)
    a = rng.randint(2, 50, size=(3, 5)).astype("int32")
    b = rng.randint(2, 50, size=(3, 4)).astype("int32")
    a[0, 3:] = 0  # a shorter first premise
    short = model({"a_ids": a, "b_ids": b}, training=False)
    padded = model({"a_ids": np.pad(a, [(0, 0), (0, 6)]), "b_ids": np.pad(b, [(0, 0), (0, 3)])},
                   training=False)
    np.testing.assert_allclose(keras.ops.convert_to_numpy(short),
                               keras.ops.convert_to_numpy(padded), rtol=1e-5, atol=1e-5)


def test_model_round_trips_through_keras_file(tmp_path):
    inputs = _paper_inputs(vocab_size=30, embedding_dim=6,
                           embedding_matrix=np.random.RandomState(1).rand(30, 6).astype("f"))
    model = build_model("compare_aggregate", inputs, hidden=6, mlp_hidden=6)
    batch = {"a_ids": np.array([[3, 4, 5, 0]], "int32"), "b_ids": np.array([[6, 7, 0]], "int32")}
    path = tmp_path / "model.keras"
    model.save(path)
    restored = keras.models.load_model(path)
    np.testing.assert_allclose(keras.ops.convert_to_numpy(model(batch)),
                               keras.ops.convert_to_numpy(restored(batch)), rtol=1e-6)


def test_frozen_embeddings_are_not_trained():
    inputs = _paper_inputs(vocab_size=30, embedding_dim=6, embeddings_trainable=False)
    model = build_model("compare_aggregate", inputs, hidden=6, mlp_hidden=6)
    assert all("embedding" not in w.path for w in model.trainable_weights)
