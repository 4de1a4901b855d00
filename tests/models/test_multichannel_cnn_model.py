"""MultichannelCNN (Kim 2014): a static and a fine-tuned channel, and training that keeps the
static channel and the max-norm. Its padding, harness and text-b checks run with the ATTCONV
family's (tests/models/test_attconv_models.py)."""

import keras
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params

MATRIX = np.random.RandomState(1).rand(40, 6).astype("float32")


def _small(**kwargs):
    inputs = ModelInputs(vocab_size=40, num_classes=5, embedding_matrix=MATRIX)
    return build_model("multichannel_cnn", inputs, filters=4, **kwargs)


def _batch(seed=0, size=3):
    rng = np.random.RandomState(seed)
    a = rng.randint(2, 40, size=(size, 7)).astype("int32")
    a[1, 2:] = 0  # a text shorter than two of the widths
    return {"a_ids": a, "b_ids": a.copy()}


def test_kims_sizes():
    """Widths 3, 4, 5 with 100 maps each over both 300-d channels (600 inputs per position), a
    5-way softmax on the 300 pooled features; the static channel is not trained."""
    assert "multichannel_cnn" in model_names()
    inputs = ModelInputs(vocab_size=40, num_classes=5, embedding_dim=300)
    model = build_model("multichannel_cnn", inputs)
    convolutions = sum(100 * (width * 600 + 1) for width in (3, 4, 5))
    assert count_params(model, exclude_embeddings=True) == convolutions + 300 * 5 + 5
    assert not model.get_layer("static_embedding").trainable
    single = build_model("multichannel_cnn", inputs, multichannel=False)
    assert count_params(single, exclude_embeddings=True) == convolutions // 2 + 150 + 1505


@pytest.mark.slow
def test_training_keeps_the_static_channel_and_the_norm_limit():
    from gcnn_match.config.experiment import OptimizerConfig
    from gcnn_match.training.optimizers import build_optimizer

    model = _small(dropout=0.0, max_norm=0.5)
    batch = _batch(seed=3, size=8)
    labels = np.random.RandomState(3).randint(0, 5, size=8)
    model.compile(
        optimizer=build_optimizer(OptimizerConfig("adagrad", learning_rate=0.5)),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    first = model.train_on_batch(batch, labels)
    for _ in range(10):
        last = model.train_on_batch(batch, labels)
    assert last < first
    np.testing.assert_array_equal(model.get_layer("static_embedding").get_weights()[0], MATRIX)
    assert not np.allclose(model.get_layer("word_embedding").get_weights()[0], MATRIX)
    norms = np.linalg.norm(model.get_layer("logits").get_weights()[0], axis=0)
    assert np.all(norms <= 0.5 + 1e-5) and np.any(norms > 0.49)
