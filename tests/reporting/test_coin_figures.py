"""COIN Figure 4: alignment maps of the first and last blocks written as a PNG."""
import numpy as np

from gcnn_match.models.registry import ModelInputs, build_model
from gcnn_match.reporting.coin_figures import alignment_maps, plot_alignment


def test_alignment_figure_is_written(tmp_path):
    model = build_model("coin", ModelInputs(vocab_size=20, num_classes=2, embedding_dim=4),
                        d=4, n_h=2, blocks=2)
    features = {"a_ids": np.array([[2, 3, 4, 0], [5, 6, 7, 8]], "int32"),
                "b_ids": np.array([[9, 10, 0], [11, 12, 13]], "int32")}
    maps = alignment_maps(model, features, index=0)
    assert list(maps) == ["block 1", "block 2"]
    assert maps["block 2"].shape == (3, 2)
    np.testing.assert_allclose(maps["block 1"].sum(-1), 1.0, atol=1e-5)
    path = plot_alignment(maps, ["what", "is", "it"], ["why", "?"], tmp_path / "fig" / "a.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
