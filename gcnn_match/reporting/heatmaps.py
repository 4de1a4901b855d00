"""Token-by-token heatmaps and atomic PNG writes shared by the per-paper figures.

Figures are built on `matplotlib.figure.Figure` directly (no pyplot, no display backend), so
they render the same on a headless training machine and in tests.
"""

import io

import numpy as np
from matplotlib.figure import Figure

from gcnn_match.files import write_atomic


def new_figure(width, height):
    """A figure whose constrained layout keeps rotated token labels and colorbars inside."""
    return Figure(figsize=(width, height), layout="constrained")


def heatmap(
    axes, matrix, row_labels, column_labels, cmap="Blues", vmin=None, vmax=None, origin="upper"
):
    """Draws `matrix` (len(row_labels), len(column_labels)) on `axes`; returns the image.

    `origin="lower"` puts the first row at the bottom (the layout of C-LSTM's Figure 3).
    """
    matrix = np.asarray(matrix, dtype="float32")
    if matrix.shape != (len(row_labels), len(column_labels)):
        raise ValueError(
            f"matrix {matrix.shape} does not match {len(row_labels)} row and "
            f"{len(column_labels)} column labels"
        )
    image = axes.imshow(
        matrix,
        cmap=cmap,
        vmin=vmin,
        vmax=vmax,
        aspect="auto",
        origin=origin,
        interpolation="nearest",
    )
    axes.set_xticks(
        range(len(column_labels)),
        labels=column_labels,
        rotation=60,
        ha="right",
        rotation_mode="anchor",
    )
    axes.set_yticks(range(len(row_labels)), labels=row_labels)
    return image


def save_png(figure, path, dpi=120, metadata=None):
    """Renders `figure` and writes it to `path` atomically (a killed run leaves no half PNG),
    with `metadata` ({key: text}) as the PNG's text chunks."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, metadata=metadata)
    write_atomic(path, buffer.getvalue())
    return path
