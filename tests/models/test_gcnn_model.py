"""The compare-aggregate model: paper parameter counts, padding invariance, the model harness
(save/load, gradients)."""

import keras
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params
from tests.models.harness import check_padding, run_model_test

VARIANTS = ("gcnn", "glu", "cnn", "gcnn_no_forget", "gcnn_no_output")

# Paper-sized word-only GCNN without the embedding table (hidden 300, k = 3, 2 classes):
# encoders (300-d input): 4 context layers 4 * 810,900 = 3,243,600; aggregation
# 1200 -> 300 with projection 3,600,900, then 810,900 (see the layer tests).
# MLP: 1200 * 300 + 300 = 360,300; softmax layer 300 * 2 + 2 = 602. Total 8,016,302.
GCNN_WORD_ONLY = 3_243_600 + 3_600_900 + 810_900 + 360_300 + 602


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
    assert count_params(model, exclude_embeddings=True) == GCNN_WORD_ONLY == 8_016_302
    assert count_params(model) == GCNN_WORD_ONLY + 1000 * 300


@pytest.mark.parametrize("with_pos", [False, True])
def test_paper_char_and_pos_parameter_counts(with_pos):
    # x_i = [w; c] is 300 + 100 = 400 wide, [w; c; pos] 300 + 100 + 47 = 447 (Sec. 2.3).
    # Only the first context layer sees x_i, and it now needs the projection P (m_in -> 300):
    #   400: 3*(3*400*300) + 3*300 + 400*300 = 1,080,000 + 900 + 120,000 = 1,200,900
    #   447: 3*(3*447*300) + 3*300 + 447*300 = 1,206,900 + 900 + 134,100 = 1,341,900
    # instead of 810,900 for 300 -> 300 (+390,000 / +531,000). The char GCNN (40 -> 100,
    # 2 layers, k = 3): (3*(3*40*100) + 300 + 40*100) + (3*(3*100*100) + 300)
    #   = 40,300 + 90,300 = 130,600; the char table adds 40 * |chars|. The POS one-hot has
    # no weights.
    chars = 80
    inputs = _paper_inputs(char_vocab_size=chars, pos_vocab_size=50 if with_pos else None)
    model = build_model("compare_aggregate", inputs, char_features=True, pos_features=with_pos)
    first_context_layer = 1_341_900 if with_pos else 1_200_900
    expected = GCNN_WORD_ONLY - 810_900 + first_context_layer + 130_600
    assert count_params(model, exclude_embeddings=True) == expected
    assert expected == (8_677_902 if with_pos else 8_536_902)
    assert count_params(model) == expected + 1000 * 300 + chars * 40
    assert model.get_layer("context_encoder").conv_layers[0].projection.kernel.shape == (
        447 if with_pos else 400,
        300,
    )


def test_features_need_their_inputs():
    with pytest.raises(ValueError, match="char_vocab_size"):
        build_model("compare_aggregate", _paper_inputs(), char_features=True)
    with pytest.raises(ValueError, match="pos_vocab_size"):
        build_model("compare_aggregate", _paper_inputs(), pos_features=True)


def _pair_batch(rng, vocab, lengths_a, lengths_b, max_chars=None, with_pos=False):
    """A right-padded batch; optional char ids (words of 1..max_chars - 2 chars) and POS."""
    batch = {}
    for side, lengths in (("a", lengths_a), ("b", lengths_b)):
        width = max(lengths)
        real = np.arange(width)[None, :] < np.asarray(lengths)[:, None]
        batch[f"{side}_ids"] = (rng.randint(2, vocab, size=real.shape) * real).astype("int32")
        if max_chars:
            chars = rng.randint(1, 20, size=real.shape + (max_chars,))
            word_len = rng.randint(1, max_chars - 1, size=real.shape)
            chars *= np.arange(max_chars) < word_len[..., None]
            batch[f"{side}_chars"] = (chars * real[..., None]).astype("int32")
        if with_pos:
            batch[f"{side}_pos"] = (rng.randint(1, 48, size=real.shape) * real).astype("int32")
    return batch


@pytest.mark.parametrize("with_pos", [False, True])
def test_padding_does_not_change_predictions_with_char_and_pos(with_pos):
    inputs = _paper_inputs(
        vocab_size=50,
        embedding_dim=8,
        char_vocab_size=20,
        max_chars=6,
        pos_vocab_size=48 if with_pos else None,
    )
    model = build_model(
        "compare_aggregate",
        inputs,
        hidden=8,
        mlp_hidden=8,
        context_layers=2,
        aggregation_layers=2,
        char_features=True,
        pos_features=with_pos,
        char_dim=4,
        char_units=5,
    )
    batch = _pair_batch(
        np.random.RandomState(0), 50, [5, 3, 4], [4, 4, 2], max_chars=6, with_pos=with_pos
    )
    (short,) = check_padding(model, batch, pads=(4, 4))  # 4 padding words: id 0, no chars, POS 0
    # The features do reach the prediction: other characters / tags change it.
    changed = dict(batch, a_chars=np.where(batch["a_chars"] > 0, 19, 0).astype("int32"))
    if with_pos:
        changed["a_pos"] = np.where(batch["a_pos"] > 0, 12, 0).astype("int32")
    assert not np.allclose(short, keras.ops.convert_to_numpy(model(changed, training=False)))


@pytest.mark.slow
def test_harness_with_char_and_pos_features():
    inputs = _paper_inputs(
        vocab_size=30, embedding_dim=6, char_vocab_size=20, max_chars=5, pos_vocab_size=48
    )
    model = build_model(
        "compare_aggregate",
        inputs,
        hidden=6,
        mlp_hidden=6,
        char_features=True,
        pos_features=True,
        char_dim=4,
        char_units=5,
    )
    batch = _pair_batch(np.random.RandomState(2), 30, [4, 2], [3, 3], max_chars=5, with_pos=True)
    run_model_test(model, batch)


@pytest.mark.parametrize("variant", VARIANTS)
def test_padding_does_not_change_predictions(variant):
    inputs = _paper_inputs(vocab_size=50, embedding_dim=8)
    model = build_model(
        "compare_aggregate",
        inputs,
        variant=variant,
        hidden=8,
        mlp_hidden=8,
        context_layers=2,
        aggregation_layers=2,
    )
    rng = np.random.RandomState(0)
    a = rng.randint(2, 50, size=(3, 5)).astype("int32")
    b = rng.randint(2, 50, size=(3, 4)).astype("int32")
    a[0, 3:] = 0  # a shorter first premise
    check_padding(model, {"a_ids": a, "b_ids": b}, pads=(6, 3))


@pytest.mark.slow
def test_harness():
    inputs = _paper_inputs(
        vocab_size=30,
        embedding_dim=6,
        embedding_matrix=np.random.RandomState(1).rand(30, 6).astype("f"),
    )
    model = build_model("compare_aggregate", inputs, hidden=6, mlp_hidden=6)
    batch = {"a_ids": np.array([[3, 4, 5, 0]], "int32"), "b_ids": np.array([[6, 7, 0]], "int32")}
    run_model_test(model, batch)


def test_frozen_embeddings_are_not_trained():
    inputs = _paper_inputs(vocab_size=30, embedding_dim=6, embeddings_trainable=False)
    model = build_model("compare_aggregate", inputs, hidden=6, mlp_hidden=6)
    assert all("embedding" not in w.path for w in model.trainable_weights)
