"""C-LSTM models and their baselines: Table 2 parameter counts, padding invariance, the model
harness (.keras round trip, gradients), and a few training steps that lower the loss."""

import keras
import numpy as np
import pytest
import tensorflow as tf

from gcnn_match.experiments.param_counts import CONVENTIONS
from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params
from gcnn_match.training.ranking import max_margin_ranking_loss
from tests.models.harness import check_padding, run_model_test


def _inputs(embedding_dim=100, **changes):
    values = dict(vocab_size=1000, num_classes=3, embedding_dim=embedding_dim)
    values.update(changes)
    return ModelInputs(**values)


# Table 2 (SNLI), e = 100, k = 50, |θ|_M by its convention (weights without biases, output
# layer and embeddings; docs/clstm.md#parameter-counts), for every reading of the weight
# sharing (docs/clstm.md#open-choices). Table 2 prints LC 45K / four stacked 135K and TC
# 77.5K / four stacked 190K, one and four directions alike: the readings with one weight set
# for the directions and, for LC, one for its LSTM pair. The default LC (two LSTMs) doubles
# LC's blocks; a weight set per direction quadruples every four-directional block.
TABLE_2 = CONVENTIONS["c-lstms-snli"]
SHARED_PAIR, OWN_DIRECTIONS = {"share_streams": True}, {"share_directions": False}
CLSTM_COUNTS = [
    # (cell, stacked blocks, directions, sharing, |θ|_M)
    ("loose", 1, 1, {}, 85_000),
    ("loose", 1, 1, SHARED_PAIR, 45_000),
    ("loose", 1, 4, {}, 85_000),
    ("loose", 1, 4, SHARED_PAIR, 45_000),
    ("loose", 1, 4, OWN_DIRECTIONS, 325_000),
    ("loose", 1, 4, {**SHARED_PAIR, **OWN_DIRECTIONS}, 165_000),
    ("loose", 4, 4, {}, 265_000),
    ("loose", 4, 4, SHARED_PAIR, 135_000),
    ("loose", 4, 4, OWN_DIRECTIONS, 1_045_000),
    ("tight", 1, 1, {}, 77_500),
    ("tight", 1, 4, {}, 77_500),
    ("tight", 1, 4, OWN_DIRECTIONS, 302_500),
    ("tight", 4, 4, {}, 190_000),
    ("tight", 4, 4, OWN_DIRECTIONS, 752_500),
]


def test_registry_lists_the_models():
    assert {"clstm", "sentence_encoder_mlp", "conditional_lstm"} <= set(model_names())


@pytest.mark.parametrize("cell,layers,directions,sharing,expected", CLSTM_COUNTS)
def test_table2_clstm_parameter_counts(cell, layers, directions, sharing, expected):
    model = build_model(
        "clstm", _inputs(), cell=cell, num_layers=layers, directions=directions, **sharing
    )
    assert TABLE_2.count(model) == expected
    # Keras' own count adds the biases (5k or 4k per block and weight set, k for the FC) and
    # the 50 x 3 softmax layer with its bias.
    gates = 5 if cell == "tight" else 4
    stream_sets = 2 if cell == "loose" and not sharing.get("share_streams") else 1
    direction_sets = 1 if sharing.get("share_directions", True) else directions
    biases = gates * 50 * layers * stream_sets * direction_sets + 50
    assert count_params(model, exclude_embeddings=True) == expected + biases + 50 * 3 + 3


def test_table2_baseline_parameter_counts():
    # NBOW (k = 100, 100-d vectors): [a; b] (200) -> 200 -> 200 tanh: 2 * 200 * 200 = 80,000,
    # the paper's 80K under the same count.
    nbow = build_model("sentence_encoder_mlp", _inputs(), kind="nbow", units=100)
    assert TABLE_2.count(nbow) == 80_000
    # The other baselines are listed mismatches: Table 2 copies their source papers' counts.
    # The Keras counts (biases and softmax included) of the source set-up, 300-d vectors
    # projected to k = 100, which the listed reasons quote. Single LSTM:
    # 30,100 + 4 * 100 * 200 + 400 + 303 (softmax) = 110,803 parameters.
    single = build_model("conditional_lstm", _inputs(300), units=100, project_inputs=True)
    assert count_params(single, exclude_embeddings=True) == 110_803
    # Word-by-word attention in the same set-up: + a second LSTM (80,400) and 6k^2 + k
    # attention weights: 251,303 (the paper prints 252K, 0.3% more).
    wbw = build_model(
        "conditional_lstm", _inputs(300), units=100, project_inputs=True, attention="word_by_word"
    )
    assert count_params(wbw, exclude_embeddings=True) == 251_303
    # Not reproduced (reported, not forced): attention LSTMs 231,303 (paper 252K) and
    # parallel LSTMs 241,803 with 100-d vectors and two separate LSTMs (paper 221K).
    final = build_model(
        "conditional_lstm", _inputs(300), units=100, project_inputs=True, attention="final"
    )
    assert count_params(final, exclude_embeddings=True) == 231_303
    parallel = build_model("sentence_encoder_mlp", _inputs(), kind="lstm", units=100)
    assert count_params(parallel, exclude_embeddings=True) == 241_803


def test_footnote_2_stacked_attention_lstm_parameter_count():
    """Four LSTM layers per sentence at k = 50 on the 100-d vectors, word-by-word attention on
    top; the paper prints no count for it. By Table 2's convention: layer 1 4 x (100 + 50) x 50
    = 30,000 and layers 2-4 4 x (50 + 50) x 50 = 20,000 each, per sentence, + 6k^2 + k."""
    model = build_model(
        "conditional_lstm", _inputs(), units=50, num_layers=4, attention="word_by_word"
    )
    assert TABLE_2.count(model) == 2 * (30_000 + 3 * 20_000) + 6 * 50 * 50 + 50 == 195_050
    lstms = [layer.name for layer in model.layers if "lstm" in layer.name]
    assert len(lstms) == 8 and {"premise_lstm_4", "hypothesis_lstm_4"} <= set(lstms)


SMALL = {
    "tc": ("clstm", dict(cell="tight", units=4, num_layers=2)),
    "lc_mqa": ("clstm", dict(cell="loose", units=4, num_layers=2, pool_size=(2, 1))),
    "lc_single": ("clstm", dict(cell="loose", units=3, directions=1)),
    "lc_shared_pair_own_directions": (
        "clstm",
        dict(cell="loose", units=3, num_layers=2, share_streams=True, share_directions=False),
    ),
    "tc_own_directions": ("clstm", dict(cell="tight", units=3, share_directions=False)),
    "nbow": ("sentence_encoder_mlp", dict(kind="nbow", units=4)),
    "parallel": ("sentence_encoder_mlp", dict(kind="lstm", units=4)),
    "single": ("conditional_lstm", dict(units=4)),
    "attention": ("conditional_lstm", dict(units=4, attention="final")),
    "wbw": ("conditional_lstm", dict(units=4, attention="word_by_word", project_inputs=True)),
    "stacked_wbw": ("conditional_lstm", dict(units=4, attention="word_by_word", num_layers=2)),
}


def _small_model(case, head="softmax"):
    name, kwargs = SMALL[case]
    return build_model(name, _inputs(6, vocab_size=40), head=head, **kwargs)


def _batch(seed=0, size=3, n=5, m=4):
    rng = np.random.RandomState(seed)
    a = rng.randint(2, 40, size=(size, n)).astype("int32")
    b = rng.randint(2, 40, size=(size, m)).astype("int32")
    a[0, 3:] = 0
    b[1, 1:] = 0
    return {"a_ids": a, "b_ids": b}


@pytest.mark.parametrize("case", sorted(SMALL))
def test_padding_does_not_change_predictions(case):
    check_padding(_small_model(case), _batch(), pads=(3, 2))


@pytest.mark.slow
@pytest.mark.parametrize(
    "case", ["tc", "lc_mqa", "lc_shared_pair_own_directions", "wbw", "stacked_wbw", "parallel"]
)
def test_harness(case):
    (out,) = run_model_test(_small_model(case, head="score"), _batch(seed=1))
    assert out.shape == (3, 1)


def test_l2_adds_a_penalty_on_the_kernels():
    model = build_model("clstm", _inputs(6, vocab_size=40), units=4, l2=1e-5)
    model(_batch())
    assert len(model.losses) > 0


@pytest.mark.slow
def test_classification_training_lowers_the_loss():
    keras.utils.set_random_seed(0)
    model = _small_model("tc")
    model.compile(
        optimizer=keras.optimizers.Adam(0.05, global_clipnorm=10.0),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    )
    batch = _batch(seed=2, size=6)
    labels = np.array([0, 1, 2, 0, 1, 2])
    first = model.evaluate(batch, labels, verbose=0)
    model.fit(batch, labels, epochs=15, batch_size=6, verbose=0)
    assert model.evaluate(batch, labels, verbose=0) < 0.7 * first


@pytest.mark.slow
def test_ranking_training_lowers_the_max_margin_loss():
    keras.utils.set_random_seed(0)
    model = _small_model("lc_mqa", head="score")
    batch = _batch(seed=3, size=6)
    groups = tf.constant([0, 0, 0, 1, 1, 1])
    labels = tf.constant([1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    optimizer = keras.optimizers.Adam(0.05)

    def loss_now():
        return float(max_margin_ranking_loss(model(batch), groups, labels))

    first = loss_now()
    for _ in range(10):
        with tf.GradientTape() as tape:
            loss = max_margin_ranking_loss(model(batch, training=True), groups, labels)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    assert first > 0 and loss_now() < 0.5 * first
