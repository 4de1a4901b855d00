"""Figure 3 of Coupled-LSTMs (Liu et al., EMNLP 2016, §6.3.2): one neuron over the grid.

"Let h_ijk denote the activation of the k-th neuron at the position of (i, j)" in the last
aggregation layer of TC-LSTMs; the figure shows h_.,.,k of one sentence pair as a heatmap
(sentence X = text a on the vertical axis, first word at the bottom; Y = text b on the
horizontal axis; darker = higher).

    grid = neuron_grid(model, pair.features)        # (n, m, d_out)
    plot_neuron(grid, strongest_neuron(grid), pair.tokens_a, pair.tokens_b, "fig.png")
"""

import keras
import numpy as np

from gcnn_match.models.clstm import grid_model
from gcnn_match.reporting.heatmaps import heatmap, new_figure, save_png


def neuron_grid(model, features, index=0):
    """h_ijk of example `index` of `features` (n, m, d_out), cropped to its real tokens."""
    grid = keras.ops.convert_to_numpy(grid_model(model)(features, training=False))
    len_a = int(np.sum(np.asarray(features["a_ids"])[index] > 0))
    len_b = int(np.sum(np.asarray(features["b_ids"])[index] > 0))
    return grid[index, :len_a, :len_b]


def strongest_neuron(grid):
    """The neuron with the highest activation anywhere on the grid (what max-pooling keeps).

    The paper picks interpretable neurons by hand; this is a deterministic default.
    """
    return int(np.argmax(np.asarray(grid).reshape(-1, grid.shape[-1]).max(axis=0)))


def plot_neuron(grid, neuron, tokens_a, tokens_b, path, title=None):
    """Writes the heatmap of neuron `neuron` (0-based) of `grid` (n, m, d_out) as a PNG."""
    grid = np.asarray(grid)
    if not 0 <= neuron < grid.shape[-1]:
        raise ValueError(
            f"neuron {neuron} out of range: the grid has {grid.shape[-1]} "
            f"(use 0..{grid.shape[-1] - 1})"
        )
    figure = new_figure(max(6.5, 2.2 + 0.36 * len(tokens_b)), 2.0 + 0.3 * len(tokens_a))
    axes = figure.add_subplot()
    image = heatmap(axes, grid[..., neuron], tokens_a, tokens_b, cmap="Greys", origin="lower")
    axes.set_ylabel("X (text a)")
    axes.set_xlabel("Y (text b)")
    axes.set_title(title or f"neuron {neuron}", fontsize="medium")
    figure.colorbar(image, ax=axes, fraction=0.05)
    return save_png(figure, path)
