"""Figure 6(a)-style attention maps of ATTCONV (Yin & Schütze, TACL 2018, Sec. 4.3).

The paper shows, for one SNLI pair, how each hypothesis token h^x_i spreads its attention over
the premise (the softmax of Eq. 1). `pair_attention_figure` runs a trained "attconv" model's
attention sub-graph (`gcnn_match.models.attconv.attention_model`) on one pair and writes that
matrix as a heatmap PNG; `attention_heatmap` draws any (rows x columns) weight matrix.
"""
import pathlib

import numpy as np
from matplotlib.figure import Figure

from gcnn_match.models.attconv import attention_model


def attention_heatmap(weights, row_tokens, column_tokens, path, title=None):
    """Writes `weights` (len(row_tokens), len(column_tokens)) as a labelled heatmap PNG."""
    weights = np.asarray(weights, dtype="float32")
    if weights.shape != (len(row_tokens), len(column_tokens)):
        raise ValueError(f"weights {weights.shape} do not match {len(row_tokens)} row and "
                         f"{len(column_tokens)} column tokens")
    figure = Figure(figsize=(1.0 + 0.45 * len(column_tokens), 1.0 + 0.4 * len(row_tokens)))
    axes = figure.add_subplot()
    image = axes.imshow(weights, cmap="Blues", vmin=0.0, vmax=max(float(weights.max()), 1e-6),
                        aspect="auto")
    axes.set_xticks(range(len(column_tokens)), labels=column_tokens, rotation=60, ha="right")
    axes.set_yticks(range(len(row_tokens)), labels=row_tokens)
    axes.set_xlabel("context t_y (premise)")
    axes.set_ylabel("t_x (hypothesis)")
    if title:
        axes.set_title(title)
    figure.colorbar(image, ax=axes, fraction=0.05)
    figure.tight_layout()
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", dpi=120)
    return path


def pair_attention_figure(model, premise_ids, hypothesis_ids, premise_tokens,
                          hypothesis_tokens, path, title=None):
    """Heatmap of one pair's hypothesis-over-premise attention in a trained ATTCONV model.

    `premise_ids` / `hypothesis_ids` are the pair's word ids (1-D, no padding needed);
    the tokens label the axes and must have the same lengths.
    """
    batch = {"a_ids": np.asarray([premise_ids], dtype="int32"),
             "b_ids": np.asarray([hypothesis_ids], dtype="int32")}
    weights = np.asarray(attention_model(model).predict_on_batch(batch))[0]
    return attention_heatmap(weights, hypothesis_tokens, premise_tokens, path, title=title)
