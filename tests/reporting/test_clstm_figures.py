"""C-LSTMs Figure 3: the plotted grid is the top block's h_ijk that dynamic pooling reads."""

import keras
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model
from gcnn_match.reporting.clstm_figures import neuron_grid, plot_neuron, strongest_neuron

# Example 0: X (a) has 3 real words of 5, Y (b) 2 of 4.
FEATURES = {
    "a_ids": np.array([[2, 3, 4, 0, 0], [5, 6, 7, 8, 9]], "int32"),
    "b_ids": np.array([[10, 11, 0, 0], [12, 13, 14, 15]], "int32"),
}


def _model(cell):
    return build_model(
        "clstm",
        ModelInputs(vocab_size=20, num_classes=3, embedding_dim=4),
        cell=cell,
        num_layers=2,
        units=3,
    )


@pytest.mark.parametrize("cell,width", [("tight", 3), ("loose", 6)])
def test_grid_is_what_the_dynamic_pooling_of_the_model_reads(cell, width):
    model = _model(cell)
    pooled = keras.ops.convert_to_numpy(
        keras.Model(model.input, model.get_layer("dynamic_pooling").output)(FEATURES)
    )
    for index, shape in ((0, (3, 2, width)), (1, (5, 4, width))):
        grid = neuron_grid(model, FEATURES, index=index)
        assert grid.shape == shape
        # (p, q) = (1, 1): the pooled vector is each neuron's max over the real cells.
        np.testing.assert_allclose(grid.reshape(-1, width).max(axis=0), pooled[index], atol=1e-6)
        assert strongest_neuron(grid) == int(np.argmax(pooled[index]))


def test_padded_cells_are_zero_and_padding_changes_no_real_cell():
    model = _model("tight")
    full = keras.ops.convert_to_numpy(
        keras.Model(model.input, model.get_layer("coupled_lstm").output)(FEATURES)
    )[0]
    assert np.all(full[3:] == 0) and np.all(full[:, 2:] == 0)
    alone = {"a_ids": FEATURES["a_ids"][:1, :3], "b_ids": FEATURES["b_ids"][:1, :2]}
    np.testing.assert_allclose(neuron_grid(model, alone), full[:3, :2], atol=1e-6)


@pytest.mark.slow
def test_figure_is_a_png_and_the_neuron_is_checked(tmp_path):
    grid = neuron_grid(_model("tight"), FEATURES)
    path = plot_neuron(grid, 2, ["a", "red", "shirt"], ["green", "shirt"], tmp_path / "n.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000
    with pytest.raises(ValueError, match="use 0..2"):
        plot_neuron(grid, 3, ["a", "red", "shirt"], ["green", "shirt"], tmp_path / "x.png")
