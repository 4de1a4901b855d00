"""COIN Figure 4: the model's own cross-attention of the first and last blocks, as a PNG."""

import keras
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model
from gcnn_match.reporting.coin_figures import alignment_maps, plot_alignment

FEATURES = {
    "a_ids": np.array([[2, 3, 4, 0], [5, 6, 7, 8]], "int32"),
    "b_ids": np.array([[9, 10, 0], [11, 12, 13]], "int32"),
}


def _model(blocks=3):
    return build_model(
        "coin",
        ModelInputs(vocab_size=20, num_classes=2, embedding_dim=4),
        d=4,
        n_h=2,
        blocks=blocks,
    )


def test_maps_are_the_first_and_last_blocks_cropped_to_the_real_words():
    model = _model()
    maps = alignment_maps(model, FEATURES, index=0)
    assert list(maps) == ["block 1", "block 3"]
    assert maps["block 3"].shape == (3, 2)
    for weights in maps.values():
        np.testing.assert_allclose(weights.sum(-1), 1.0, atol=1e-5)
    # The crop drops only zeros: the layer gives padded columns and rows no weight.
    layer = model.get_layer("cross_attention_3")
    full = keras.ops.convert_to_numpy(keras.Model(model.input, layer.output[2])(FEATURES))[0]
    np.testing.assert_array_equal(full[:, 2:], 0.0)
    np.testing.assert_array_equal(full[3:], 0.0)
    np.testing.assert_allclose(full[:3, :2], maps["block 3"], atol=1e-7)


def test_padding_in_the_batch_does_not_change_a_pair_s_maps():
    model = _model(blocks=2)
    alone = {"a_ids": FEATURES["a_ids"][:1, :3], "b_ids": FEATURES["b_ids"][:1, :2]}
    for key, weights in alignment_maps(model, alone).items():
        np.testing.assert_allclose(weights, alignment_maps(model, FEATURES)[key], atol=1e-5)


@pytest.mark.slow
def test_alignment_figure_is_written(tmp_path):
    maps = alignment_maps(_model(blocks=2), FEATURES, index=0)
    path = plot_alignment(maps, ["what", "is", "it"], ["why", "?"], tmp_path / "fig" / "a.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000
