"""Figure 6(a) of ATTCONV (Yin & Schütze, TACL 2018, §4.3 "Visualization").

The paper shows two things light ATTCONV computes for a sentence t_x given its context t_y:
(i) the attention weights e_ij of Eq. 1 after the softmax, how each h^x_i spreads over t_y
(right), and (ii) the attentive convolution's output h^x_i,new of Eq. 5 for 2 of the 300
filters, over which max-pooling picks one (word, left context, right context, attentive
context) combination per filter (left).

    maps = attconv_maps(model, pair.features)      # {"attention": (L_x, L_y), "features": ..}
    plot_attconv(maps, pair.tokens_b, pair.tokens_a, "figures/attconv.png")

Here t_x is the pair's text b (the hypothesis) and t_y its text a (docs/attconv.md#roles).
"""

import keras
import numpy as np

from gcnn_match.models.attconv import attention_model
from gcnn_match.reporting.heatmaps import heatmap, new_figure, save_png


def attconv_maps(model, features, index=0):
    """The Figure 6(a) matrices of example `index` of `features`, cropped to its real tokens.

    Returns {"attention": (L_x, L_y) softmax weights, "features": (L_x, hidden) h_new};
    "features" is absent for the "w/o convolution" variant, which has no attentive
    convolution. Computed by `attention_model`, i.e. with the model's own weights.
    """
    outputs = attention_model(model)(features, training=False)
    len_y = int(np.sum(np.asarray(features["a_ids"])[index] > 0))
    len_x = int(np.sum(np.asarray(features["b_ids"])[index] > 0))
    maps = {"attention": keras.ops.convert_to_numpy(outputs["attention"])[index, :len_x, :len_y]}
    if "features" in outputs:
        maps["features"] = keras.ops.convert_to_numpy(outputs["features"])[index, :len_x]
    return maps


def select_filters(features, count=2):
    """The `count` filters whose max-pooled value stands out most over their mean along t_x.

    The paper shows 2 hand-picked filters out of 300; this picks, deterministically, those
    for which max-pooling singles out one position most clearly (largest max - mean).
    """
    features = np.asarray(features)
    contrast = features.max(axis=0) - features.mean(axis=0)
    return [int(k) for k in np.argsort(-contrast, kind="stable")[:count]]


def plot_attconv(maps, tokens_x, tokens_y, path, filters=None, title=None):
    """Writes Figure 6(a) as a PNG: features of `filters` (left) and the attention (right).

    Args:
        maps: `attconv_maps` output.
        tokens_x, tokens_y: labels of t_x (the rows of the attention) and t_y.
        path: the PNG to write.
        filters: filter indices to show; None: `select_filters(maps["features"])`.
        title: figure title.
    Returns:
        (path, filters shown).
    """
    attention = maps["attention"]
    has_features = "features" in maps
    if has_features and filters is None:
        filters = select_filters(maps["features"])
    filters = list(filters or [])
    height = 1.6 + 0.32 * len(tokens_x)
    attention_width = 1.6 + 0.32 * len(tokens_y)
    features_width = 1.6 + 0.32 * len(tokens_x) if has_features else 0.0
    figure = new_figure(attention_width + features_width, height + 0.4)
    grid = figure.add_gridspec(
        1,
        2 if has_features else 1,
        width_ratios=[features_width, attention_width] if has_features else None,
    )
    if has_features:
        axes = figure.add_subplot(grid[0, 0])
        values = maps["features"][:, filters].T  # (filters, L_x)
        image = heatmap(
            axes,
            values,
            [f"filter {k}" for k in filters],
            tokens_x,
            cmap="RdBu_r",
            vmin=-1.0,
            vmax=1.0,
        )
        for row, column in enumerate(values.argmax(axis=1)):  # the max-pooled position
            axes.add_patch(_box(column, row))
        axes.set_title("h_new (Eq. 5); box: max-pooled")
        figure.colorbar(image, ax=axes, fraction=0.05)
    axes = figure.add_subplot(grid[0, -1])
    image = heatmap(
        axes, attention, tokens_x, tokens_y, vmin=0.0, vmax=max(float(attention.max()), 1e-6)
    )
    axes.set_xlabel("context t_y")
    axes.set_ylabel("t_x")
    axes.set_title("attention softmax_j(e_ij) (Eq. 1)")
    figure.colorbar(image, ax=axes, fraction=0.05)
    if title:
        figure.suptitle(title)
    return save_png(figure, path), filters


def _box(column, row):
    from matplotlib.patches import Rectangle

    return Rectangle(
        (column - 0.5, row - 0.5), 1.0, 1.0, fill=False, edgecolor="black", linewidth=2.0
    )
