"""Decomp-Att (Parikh et al. 2016): its counts against Parikh et al.'s and Table 7's, the
model harness, attention that reads the values it is given, and learning."""

import keras
import numpy as np
import pytest

from gcnn_match.experiments.param_counts import CONVENTIONS
from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params
from tests.models.harness import check_padding, run_model_test


def _inputs(**changes):
    return ModelInputs(**{"vocab_size": 40, "num_classes": 3, "embedding_dim": 300, **changes})


def _small(**kwargs):
    return build_model("decomposable_attention", _inputs(embedding_dim=6), units=5, **kwargs)


def _batch(seed=0, size=3):
    rng = np.random.RandomState(seed)
    a = rng.randint(2, 40, size=(size, 6)).astype("int32")
    b = rng.randint(2, 40, size=(size, 4)).astype("int32")
    a[0, 3:] = 0  # a shorter first premise
    b[1, 2:] = 0  # and a shorter second hypothesis
    return {"a_ids": a, "b_ids": b}


def test_counts_are_parikh_et_als_and_table_7s():
    """At e = 300 and 200 units: projection 300 x 200 (no bias); F_intra 2 x (200 x 200 + 200);
    F (400 -> 200 -> 200), G (800 -> 200 -> 200), H (400 -> 200 -> 200), each layer with its
    bias; 23 distance biases; the 200 -> 3 classifier. Parikh et al. report 582K (382K without
    intra-attention); Table 7's convention (no biases, no classifier) gives its 580K exactly."""
    assert "decomposable_attention" in model_names()
    model = build_model("decomposable_attention", _inputs())
    layer_pair = lambda n_in: n_in * 200 + 200 + 200 * 200 + 200  # noqa: E731
    expected = 60_000 + layer_pair(200) + layer_pair(400) + layer_pair(800) + layer_pair(400)
    assert count_params(model, exclude_embeddings=True) == expected + 23 + 603 == 582_226
    assert CONVENTIONS["attconv-snli"].count(model) == 580_000
    vanilla = build_model("decomposable_attention", _inputs(), intra_attention=False)
    assert count_params(vanilla, exclude_embeddings=True) == 381_803  # Parikh et al.'s 382K


@pytest.mark.parametrize("intra_attention", [True, False])
def test_padding_does_not_change_predictions(intra_attention):
    check_padding(_small(intra_attention=intra_attention), _batch(), pads=(5, 3))


@pytest.mark.slow
def test_harness():
    run_model_test(_small(), _batch())


def test_the_attention_averages_the_unmapped_texts():
    """β_i averages b̄ (the 2u-wide [b; b']), not F(b̄): the compare network G reads 4u."""
    model = _small()
    assert model.get_layer("compare").layers[1].kernel.shape == (20, 5)
    assert model.get_layer("attend").layers[1].kernel.shape == (10, 5)


@pytest.mark.slow
def test_a_few_training_steps_reduce_the_loss():
    model = _small(dropout=0.0)
    batch = _batch(seed=1, size=16)
    labels = np.random.RandomState(1).randint(0, 3, size=16)
    model.compile(
        optimizer=keras.optimizers.Adam(3e-2),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    before = model.evaluate(batch, labels, verbose=0)
    model.fit(batch, labels, epochs=30, batch_size=16, verbose=0)
    assert model.evaluate(batch, labels, verbose=0) < 0.5 * before
