"""Figure 4 of COIN (Hu et al., EMNLP 2021): cross-attention of the first and last blocks.

    maps = alignment_maps(model, features, index=0)            # {"block 1": (L_a, L_b), ...}
    plot_alignment(maps, tokens_a, tokens_b, "figures/coin_alignment.png")
"""
import pathlib

import keras
import numpy as np

from gcnn_match.models.coin import cross_attention_model


def alignment_maps(model, features, index=0, blocks=(1, -1)):
    """Weights softmax_j(E_ij) of example `index`, per block, cropped to its true lengths."""
    outputs = cross_attention_model(model, blocks)(features, training=False)
    len_a = int(np.sum(np.asarray(features["a_ids"])[index] > 0))
    len_b = int(np.sum(np.asarray(features["b_ids"])[index] > 0))
    return {key.replace("_a", "").replace("_", " "):
            keras.ops.convert_to_numpy(value)[index, :len_a, :len_b]
            for key, value in outputs.items() if key.endswith("_a")}


def plot_alignment(maps, tokens_a, tokens_b, path):
    """Heatmaps side by side (rows: words of a, columns: words of b); writes a PNG."""
    import matplotlib

    matplotlib.use("Agg")  # files only; no display on the training machines
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(maps), figsize=(4.5 * len(maps), 4), squeeze=False)
    for ax, (title, weights) in zip(axes[0], maps.items()):
        ax.imshow(weights, cmap="viridis", vmin=0.0, vmax=1.0)  # lighter = higher
        ax.set_xticks(range(len(tokens_b)), tokens_b, rotation=90)
        ax.set_yticks(range(len(tokens_a)), tokens_a)
        ax.set_title(title)
    fig.tight_layout()
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
