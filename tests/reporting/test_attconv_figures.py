"""The Figure 6-style attention heatmap of an ATTCONV model is written as a PNG."""
import numpy as np
import pytest

from gcnn_match.models.registry import ModelInputs, build_model
from gcnn_match.reporting.attconv_figures import attention_heatmap, pair_attention_figure

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_pair_attention_figure_writes_a_png(tmp_path):
    model = build_model("attconv", ModelInputs(vocab_size=20, num_classes=3, embedding_dim=4),
                        hidden=4)
    premise = ["an", "animal", "is", "outside"]
    hypothesis = ["a", "dog", "jumping"]
    path = pair_attention_figure(model, [2, 3, 4, 5], [6, 7, 8], premise, hypothesis,
                                 tmp_path / "figures" / "attention.png", title="light")
    assert path.read_bytes()[:8] == PNG_MAGIC


def test_heatmap_checks_the_token_counts(tmp_path):
    with pytest.raises(ValueError, match="do not match"):
        attention_heatmap(np.ones((2, 3)), ["a"], ["b", "c", "d"], tmp_path / "x.png")
