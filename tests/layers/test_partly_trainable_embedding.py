"""PartlyTrainableEmbedding: fixed columns beside trainable ones, saved and restored."""

import keras
import numpy as np
import pytest

from gcnn_match.layers import PartlyTrainableEmbedding


def _layer(table, trainable_columns):
    return PartlyTrainableEmbedding(
        table.shape[0],
        table.shape[1],
        trainable_columns,
        embeddings_initializer=keras.initializers.Constant(table),
    )


def test_lookup_split_and_training_step():
    table = np.random.default_rng(0).normal(size=(6, 5)).astype("float32")
    ids = np.array([[1, 2, 0], [5, 5, 3]])
    layer = _layer(table, 2)
    np.testing.assert_allclose(layer(ids), table[ids], rtol=1e-6)
    assert [tuple(w.shape) for w in layer.trainable_weights] == [(6, 2)]
    assert [tuple(w.shape) for w in layer.non_trainable_weights] == [(6, 3)]

    inputs = keras.Input((None,), dtype="int32")
    model = keras.Model(inputs, keras.layers.Dense(1)(layer(inputs)))
    model.compile(optimizer=keras.optimizers.SGD(1.0), loss="mse", run_eagerly=True)
    model.train_on_batch(ids, np.ones((2, 3, 1)))
    after = keras.ops.convert_to_numpy(layer.embeddings)
    np.testing.assert_array_equal(after[:, :3], table[:, :3])
    assert np.any(after[[1, 2, 3, 5], 3:] != table[[1, 2, 3, 5], 3:])


def test_serialization_round_trip(tmp_path):
    table = np.arange(12, dtype="float32").reshape(4, 3)
    inputs = keras.Input((None,), dtype="int32")
    model = keras.Model(inputs, _layer(table, 1)(inputs))
    path = tmp_path / "model.keras"
    model.save(path)
    restored = keras.models.load_model(path)
    ids = np.array([[3, 0, 1]])
    np.testing.assert_array_equal(restored(ids), model(ids))
    assert restored.layers[-1].get_config()["trainable_columns"] == 1


@pytest.mark.parametrize("columns", [0, 3])
def test_the_trainable_columns_leave_both_parts_non_empty(columns):
    with pytest.raises(ValueError, match="trainable_columns must lie between 0 and output_dim"):
        PartlyTrainableEmbedding(4, 3, columns)
