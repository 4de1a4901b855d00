"""Figure 4 of COIN (Hu et al., EMNLP 2021): cross-attention of the first and last blocks.

maps = alignment_maps(model, features, index=0)            # {"block 1": (L_a, L_b), ...}
plot_alignment(maps, tokens_a, tokens_b, "figures/coin_alignment.png")
"""

import keras
import numpy as np

from gcnn_match.models.coin import cross_attention_model
from gcnn_match.reporting.heatmaps import heatmap, new_figure, save_png


def alignment_maps(model, features, index=0, blocks=(1, -1)):
    """Weights softmax_j(E_ij) of example `index`, per block, cropped to its true lengths."""
    outputs = cross_attention_model(model, blocks)(features, training=False)
    len_a = int(np.sum(np.asarray(features["a_ids"])[index] > 0))
    len_b = int(np.sum(np.asarray(features["b_ids"])[index] > 0))
    return {
        key.replace("_a", "").replace("_", " "): keras.ops.convert_to_numpy(value)[
            index, :len_a, :len_b
        ]
        for key, value in outputs.items()
        if key.endswith("_a")
    }


def plot_alignment(maps, tokens_a, tokens_b, path, title=None):
    """Heatmaps side by side (rows: words of a, columns: words of b); writes a PNG.

    Lighter is higher, as in the paper's Figure 4; one colour scale [0, 1] for all blocks so
    that a sharper distribution in a later block shows as such.
    """
    figure = new_figure(1.5 + (1.2 + 0.3 * len(tokens_b)) * len(maps), 1.6 + 0.3 * len(tokens_a))
    for number, (name, weights) in enumerate(maps.items(), 1):
        axes = figure.add_subplot(1, len(maps), number)
        image = heatmap(axes, weights, tokens_a, tokens_b, cmap="viridis", vmin=0.0, vmax=1.0)
        axes.set_title(name)
    figure.colorbar(image, ax=figure.axes, fraction=0.03)
    if title:
        figure.suptitle(title)
    return save_png(figure, path)
