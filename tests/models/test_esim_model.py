"""The ESIM baseline: paper-configured parameter count, padding invariance, the model harness
(save/load, gradients), learning."""

import keras
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params
from tests.models.harness import check_padding, run_model_test

SMALL = dict(encoder_units=6, projection_units=6, composition_units=6, mlp_hidden=6)


def _small_model(vocab_size=40, embedding_dim=8, **kwargs):
    inputs = ModelInputs(vocab_size=vocab_size, num_classes=3, embedding_dim=embedding_dim)
    return build_model("esim", inputs, **SMALL, **kwargs)


def test_paper_esim_parameter_count():
    assert "esim" in model_names()
    model = build_model("esim", ModelInputs(vocab_size=1000, num_classes=3, embedding_dim=300))
    # One LSTM direction, 300 -> 300: 4 gates x (300 input + 300 recurrent) x 300 + 4 x 300
    # biases = 721,200; a BiLSTM is 1,442,400, and ESIM has two (input encoder, composition).
    # Projection F: 2400 (= 4 x 600) x 300 + 300 = 720,300. MLP hidden: pooled 2400
    # (= [mean; max] of 600 on both sides) x 300 + 300 = 720,300. Logits: 300 x 3 + 3 = 903.
    # Total 4,326,303: the ~4.3M the ESIM paper reports for itself.
    expected = 2 * 1_442_400 + 720_300 + 720_300 + 903
    assert expected == 4_326_303
    assert count_params(model, exclude_embeddings=True) == expected
    assert count_params(model) == expected + 1000 * 300


def test_padding_does_not_change_predictions():
    model = _small_model()
    rng = np.random.RandomState(0)
    a = rng.randint(2, 40, size=(3, 5)).astype("int32")
    b = rng.randint(2, 40, size=(3, 4)).astype("int32")
    a[0, 3:] = 0  # a shorter first premise
    b[1, 2:] = 0  # and a shorter second hypothesis
    check_padding(model, {"a_ids": a, "b_ids": b}, pads=(6, 3))


@pytest.mark.slow
def test_harness():
    batch = {"a_ids": np.array([[3, 4, 5, 0]], "int32"), "b_ids": np.array([[6, 7, 0]], "int32")}
    run_model_test(_small_model(), batch)


@pytest.mark.slow
def test_a_few_training_steps_reduce_the_loss():
    # Without dropout, so that a few steps on one tiny batch show the gradient path works.
    model = _small_model(
        embedding_dropout=0.0, projection_dropout=0.0, pooled_dropout=0.0, mlp_dropout=0.0
    )
    rng = np.random.RandomState(1)
    a = rng.randint(1, 40, size=(16, 7)).astype("int32")
    b = rng.randint(1, 40, size=(16, 5)).astype("int32")
    a[::2, 4:] = 0
    b[::3, 3:] = 0
    batch = {"a_ids": a, "b_ids": b}
    labels = rng.randint(0, 3, size=16)
    model.compile(
        optimizer=keras.optimizers.Adam(3e-2, global_clipnorm=10.0),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        jit_compile=False,
    )
    before = model.evaluate(batch, labels, verbose=0)
    model.fit(batch, labels, epochs=30, batch_size=16, verbose=0)
    after = model.evaluate(batch, labels, verbose=0)
    assert after < 0.7 * before
