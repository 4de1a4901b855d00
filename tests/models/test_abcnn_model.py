"""ABCNN (ATTCONV's attentive-pooling baseline): Table 7 count. Its padding, harness and
training checks run with the ATTCONV family's (tests/models/test_attconv_models.py)."""

import numpy as np

from gcnn_match.experiments.param_counts import CONVENTIONS
from gcnn_match.layers.abcnn_pooling import ABCNNPooling
from gcnn_match.models.registry import ModelInputs, build_model, model_names
from gcnn_match.training.loop import count_params


def _inputs(**changes):
    return ModelInputs(**{"vocab_size": 40, "num_classes": 3, "embedding_dim": 300, **changes})


def _small(**kwargs):
    return build_model("abcnn", _inputs(embedding_dim=6), hidden=5, **kwargs)


def _batch(seed=0, size=3):
    rng = np.random.RandomState(seed)
    a = rng.randint(2, 40, size=(size, 5)).astype("int32")
    b = rng.randint(2, 40, size=(size, 4)).astype("int32")
    a[0, 3:] = 0
    b[1, 2:] = 0
    return {"a_ids": a, "b_ids": b}


def test_table_7_count_is_the_convolutions():
    """d = e = 300: the pooling has no weights, so Table 7's convention counts the shared
    width-3 convolution, 900 x 300 = 270,000 (the paper prints 834K: a listed mismatch,
    docs/attconv.md#abcnn); Keras adds its 300 biases and the 900 -> 3 classifier."""
    assert "abcnn" in model_names()
    model = build_model("abcnn", _inputs())
    assert CONVENTIONS["attconv-snli"].count(model) == 270_000
    assert count_params(model, exclude_embeddings=True) == 270_000 + 300 + 900 * 3 + 3
    assert isinstance(model.get_layer("attention"), ABCNNPooling)
