"""COIN: paper parameter count, ablations, padding invariance, the model harness (save/load,
gradients), attention maps."""

import keras
import numpy as np
import pytest

from gcnn_match.experiments.param_counts import CONVENTIONS
from gcnn_match.models.coin import cross_attention_model
from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params
from tests.models.harness import check_padding, run_model_test

ABLATIONS = {
    "original": {},
    "w/o context": {"use_context": False},
    "simple fusion": {"fusion": "simple"},
    "w/o aggregat.": {"aggregation": False},
    "simple pool": {"pooling": "max"},
}


def _tiny(**changes):
    values = dict(vocab_size=30, num_classes=2, embedding_dim=6)
    values.update(changes)
    return ModelInputs(**values)


def _tiny_model(**kwargs):
    # e = 6, d = 8 -> D = 14; n_h = 2 divides both d and D (the "w/o aggregat." width).
    return build_model("coin", _tiny(), d=8, n_h=2, blocks=2, **kwargs)


def _batch(rng, batch=3, len_a=5, len_b=4):
    a = rng.randint(2, 30, size=(batch, len_a)).astype("int32")
    b = rng.randint(2, 30, size=(batch, len_b)).astype("int32")
    a[0, 3:] = 0
    b[1, 2:] = 0
    return {"a_ids": a, "b_ids": b}


def test_paper_quora_parameter_count():
    assert "coin" in model_names()
    inputs = ModelInputs(
        vocab_size=1000, num_classes=2, embedding_dim=300, embeddings_trainable=False
    )
    model = build_model("coin", inputs)  # d = 225, n_h = 5, 3 blocks
    e, d, n_h = 300, 225, 5
    D = e + d  # noqa: N806 (the paper's block width)
    encoder = (3 * e * d + d) + (3 * d * d + d)  # 2 convs, kernel 3
    block = (
        D * d  # W_c, no bias (Eq. 5)
        + D * d
        + d  # F1 (Eq. 4)
        + 3 * (2 * D * d + d)  # G1-G3 (Eq. 7-9)
        + 3 * d * D
        + D  # W_f, b_f (Eq. 10)
        + D * D
        + D * D
        + D
    )  # W_1, W_2, b_g (Eq. 11)
    aggregation = 3 * D * d + d
    pooling = n_h * d + d * d  # W_a^z, W_v^z (Eq. 13-14)
    prediction = (4 * d * d + d) + (d * 2 + 2)
    expected = encoder + 3 * block + aggregation + pooling + prediction
    assert expected == 6_522_077  # Table 2 / Table 5: 6.5M
    assert count_params(model, exclude_embeddings=True) == expected
    assert count_params(model) == expected  # the GloVe vectors are fixed
    assert CONVENTIONS["coin-quora"].count(model) == expected
    # "w/o context" drops W_c of each block.
    plain = build_model("coin", inputs, use_context=False)
    assert count_params(plain) == expected - 3 * D * d


@pytest.mark.slow
@pytest.mark.parametrize("row", sorted(ABLATIONS))
def test_every_ablation_builds_and_trains_a_step(row):
    model = _tiny_model(**ABLATIONS[row])
    model.compile(
        optimizer=keras.optimizers.Adam(1e-3, global_clipnorm=5.0),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        run_eagerly=True,
    )  # tracing the graph costs more than the tiny step
    batch = _batch(np.random.RandomState(0))
    before = [np.array(w) for w in model.trainable_weights]
    loss = model.train_on_batch(batch, np.array([0, 1, 1]))
    assert np.isfinite(loss)
    changed = [not np.allclose(b, np.array(w)) for b, w in zip(before, model.trainable_weights)]
    assert all(changed)
    assert model.losses  # the L2 penalty on kernels


@pytest.mark.parametrize("row", ["original", "w/o aggregat."])
def test_padding_does_not_change_predictions(row):
    model = _tiny_model(**ABLATIONS[row])
    check_padding(model, _batch(np.random.RandomState(1)), pads=(6, 3))


@pytest.mark.slow
def test_harness():
    inputs = _tiny(
        embedding_matrix=np.random.RandomState(1).rand(30, 6).astype("f"),
        embeddings_trainable=False,
    )
    model = build_model("coin", inputs, d=8, n_h=2, blocks=2)
    run_model_test(model, _batch(np.random.RandomState(2)))
    assert all("embedding" not in w.path for w in model.trainable_weights)


def test_cross_attention_maps_of_first_and_last_block():
    model = build_model("coin", _tiny(), d=8, n_h=2, blocks=3)
    batch = _batch(np.random.RandomState(3))
    maps = cross_attention_model(model)(batch)
    assert sorted(maps) == ["block_1_a", "block_1_b", "block_3_a", "block_3_b"]
    weights = keras.ops.convert_to_numpy(maps["block_3_a"])
    assert weights.shape == (3, 5, 4)
    real_a = (batch["a_ids"] > 0).astype("float32")
    # Each real word of a distributes its attention over the real words of b.
    np.testing.assert_allclose(weights.sum(-1), real_a, atol=1e-5)
    assert np.all(weights[1][:, 2:] == 0)


def test_invalid_options():
    with pytest.raises(ValueError, match="fusion"):
        _tiny_model(fusion="sum")
    with pytest.raises(ValueError, match="pooling"):
        _tiny_model(pooling="mean")
