"""ATTCONV Figure 6(a): the plotted matrices are the model's own attention and h_new."""

import keras
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model
from gcnn_match.reporting.attconv_figures import attconv_maps, plot_attconv, select_filters
from gcnn_match.reporting.heatmaps import heatmap, new_figure

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# Example 0: premise (a) 3 real tokens of 5, hypothesis (b) 4 real tokens of 4.
BATCH = {
    "a_ids": np.array([[2, 3, 4, 0, 0], [5, 6, 7, 8, 9]], "int32"),
    "b_ids": np.array([[10, 11, 12, 13], [14, 15, 0, 0]], "int32"),
}


def _model(variant):
    return build_model(
        "attconv",
        ModelInputs(vocab_size=20, num_classes=3, embedding_dim=4),
        variant=variant,
        hidden=6,
    )


def _softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_light_maps_equal_a_numpy_recomputation_of_eq_1_to_5():
    model = _model("light")
    maps = attconv_maps(model, BATCH, index=0)
    table = model.get_layer("word_embedding").get_weights()[0]
    y, x = table[[2, 3, 4]], table[[10, 11, 12, 13]]  # context t_y = a, t_x = b
    attention = _softmax(x @ y.T)  # Eq. 1 (dot) + softmax over the real premise tokens
    np.testing.assert_allclose(maps["attention"], attention, rtol=1e-5, atol=1e-6)
    layer = model.get_layer("attention")
    w1 = keras.ops.convert_to_numpy(layer.conv.kernel)  # (3, e, hidden)
    w2 = keras.ops.convert_to_numpy(layer.context_projection.kernel)
    padded = np.pad(x, ((1, 1), (0, 0)))
    window = sum(padded[k : k + len(x)] @ w1[k] for k in range(3))
    h_new = np.tanh(window + (attention @ y) @ w2 + keras.ops.convert_to_numpy(layer.bias))
    np.testing.assert_allclose(maps["features"], h_new, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("variant", ["light", "advanced"])
def test_features_are_what_max_pooling_reads(variant):
    model = _model(variant)
    pooled = keras.Model(model.input, model.get_layer("max_pooling").output)(BATCH)
    for index in (0, 1):
        maps = attconv_maps(model, BATCH, index=index)
        np.testing.assert_allclose(
            maps["features"].max(axis=0), keras.ops.convert_to_numpy(pooled)[index], atol=1e-6
        )


@pytest.mark.parametrize("variant", ["light", "advanced", "no_conv"])
def test_attention_rows_sum_to_one_over_real_tokens_and_padding_changes_nothing(variant):
    model = _model(variant)
    maps = attconv_maps(model, BATCH, index=1)
    assert maps["attention"].shape == (2, 5)
    np.testing.assert_allclose(maps["attention"].sum(axis=-1), 1.0, atol=1e-5)
    alone = {"a_ids": BATCH["a_ids"][:1, :3], "b_ids": BATCH["b_ids"][:1]}
    for key, value in attconv_maps(model, alone).items():
        np.testing.assert_allclose(value, attconv_maps(model, BATCH)[key], atol=1e-5)
    assert ("features" in maps) == (variant != "no_conv")


@pytest.mark.slow
def test_figure_is_a_png_with_the_chosen_filters(tmp_path):
    maps = attconv_maps(_model("light"), BATCH)
    path, filters = plot_attconv(
        maps,
        list("wxyz"),
        ["an", "animal", "outside"],
        tmp_path / "figures" / "f6.png",
        title="light",
    )
    assert path.read_bytes()[:8] == PNG_MAGIC and path.stat().st_size > 1000
    assert filters == select_filters(maps["features"])
    _, shown = plot_attconv(maps, list("wxyz"), ["a", "b", "c"], tmp_path / "g.png", filters=[5, 0])
    assert shown == [5, 0]


def test_filters_are_ranked_by_how_much_the_max_stands_out():
    features = np.array([[0.9, 0.1, 0.5], [0.8, 0.9, 0.5], [0.9, 0.0, 0.5]])
    assert select_filters(features, count=3) == [1, 0, 2]


def test_without_convolution_only_the_attention_is_drawn(tmp_path):
    maps = attconv_maps(_model("no_conv"), BATCH)
    path, filters = plot_attconv(maps, list("wxyz"), ["a", "b", "c"], tmp_path / "n.png")
    assert filters == [] and path.read_bytes()[:8] == PNG_MAGIC


def test_heatmap_checks_the_label_counts():
    with pytest.raises(ValueError, match="does not match"):
        heatmap(new_figure(2, 2).add_subplot(), np.ones((2, 3)), ["a"], ["b", "c", "d"])
