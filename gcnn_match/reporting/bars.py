"""Paper-vs-ours bar charts of a reproduced table, drawn from its `results/<table>-<scale>.json`
(the rows `evidence.runs.collect` returns).

    write_table_figures("results", "figures")   # figures/<table>-<scale>.png per table

One panel per compared metric (the rows' `compare` pairs, as in the markdown table); for each
row the paper's number and ours (mean over seeds, the standard deviation as an error bar), in
percent. A row that was not run has no "ours" bar and says so. Each PNG keeps the SHA-256 of the
record it was drawn from (`drawn_from`), so a figure left behind by a newer record is found.
"""

import json
import pathlib

import numpy as np
from matplotlib.figure import Figure
from PIL import Image

from gcnn_match.data import download
from gcnn_match.evidence import runs
from gcnn_match.reporting.heatmaps import save_png

_BAR = 0.38


def is_table(rows):
    """Whether a loaded results file is a paper-vs-ours table (not e.g. bench.json)."""
    return (
        isinstance(rows, list)
        and bool(rows)
        and all(isinstance(r, dict) and "targets" in r and "compare" in r for r in rows)
    )


def paper_vs_ours(rows, title=None):
    """The figure for `rows`. Each panel's containers are (paper bars, ours bars); bar widths
    are 100 x the JSON values; "ours" holds bars for the rows that ran, in row order."""
    compare = rows[0]["compare"]
    figure = Figure(figsize=(5.5 * len(compare) + 1.5, 1.6 + 0.55 * len(rows)))
    panels = figure.subplots(1, len(compare), squeeze=False)[0]
    positions = np.arange(len(rows))[::-1]  # first row on top, as in the paper's table
    names = [row["row"] for row in rows]
    for axes, (paper_key, our_key) in zip(panels, compare):
        paper = [
            100 * row["targets"][paper_key] if row["targets"].get(paper_key) is not None else np.nan
            for row in rows
        ]
        ran = [i for i, row in enumerate(rows) if row.get(our_key) and row[our_key][0] is not None]
        ours = [100 * rows[i][our_key][0] for i in ran]
        spread = [100 * (rows[i][our_key][1] or 0.0) for i in ran]
        paper_bars = axes.barh(
            positions + _BAR / 2,
            paper,
            _BAR,
            color="#9aa5b1",
            label=f"paper: {paper_key.replace('_', ' ')}",
        )
        ours_bars = axes.barh(
            positions[ran] - _BAR / 2,
            ours,
            _BAR,
            xerr=spread,
            capsize=3,
            color="#2f6db5",
            label=f"ours: {our_key.replace('_', ' ')}",
        )
        axes.bar_label(
            paper_bars,
            labels=["" if np.isnan(v) else f"{v:.1f}" for v in paper],
            padding=2,
            fontsize="x-small",
        )
        axes.bar_label(
            ours_bars, labels=[_label(rows[i], our_key) for i in ran], padding=2, fontsize="x-small"
        )
        for i in sorted(set(range(len(rows))) - set(ran)):
            axes.text(
                1,
                positions[i] - _BAR / 2,
                "not run",
                va="center",
                fontsize="x-small",
                color="#b03030",
            )
        axes.set_yticks(positions, labels=names)
        axes.set_xlabel("%")
        axes.set_xlim(0, 130)  # room for the labels right of a full bar
        axes.legend(
            loc="upper center",
            bbox_to_anchor=(0.5, -0.5 / len(rows) - 0.08),
            ncol=2,
            fontsize="x-small",
            frameon=False,
        )
    scales = sorted({row["scale"] for row in rows if row.get("scale")})
    note = f"ours: {', '.join(scales)} scale, mean ± std over seeds" if scales else ""
    figure.suptitle("\n".join(t for t in (title, note) if t), fontsize="medium")
    figure.tight_layout()
    return figure


def _label(row, key):
    """A bar's label: "75.1 ± 0.6 (5 seeds)", with "cap 6" for a row run under an epoch cap of 6."""
    mean, std = row[key]
    seeds = row.get("runs") or len(row.get("seeds", ()))
    text, said = f"{100 * mean:.1f}", []
    if seeds and seeds > 1:
        text += f" ± {100 * std:.1f}"
        said.append(f"{seeds} seeds")
    cap = runs.epoch_cap(row, row.get("registered_epochs")) if row.get("epochs_run") else None
    if cap is not None:
        said.append(f"cap {cap}")
    return text + (f" ({', '.join(said)})" if said else "")


def table_title(rows, stem):
    first = rows[0]
    return f"{first.get('table_id', stem)}: {first.get('table', '')}".strip(": ")


# The PNG text chunk holding the SHA-256 of the record a table figure was drawn from.
SOURCE_KEY = "Source SHA-256"


def record_digest(path):
    """The SHA-256 (hex) of the record file at `path`, as a table figure keeps it."""
    return download.sha256_of(path)


def drawn_from(png):
    """The SHA-256 of the record the table figure `png` was drawn from; None if it keeps none."""
    with Image.open(png) as image:
        return image.text.get(SOURCE_KEY)


def write_table_figures(results_dir, figures_dir, log=print):
    """A PNG per table in `results_dir/*.json` into `figures_dir` (same stem); returns paths."""
    written = []
    for path in sorted(pathlib.Path(results_dir).glob("*.json")):
        rows = json.loads(path.read_text("utf-8"))
        if not is_table(rows):
            continue
        figure = paper_vs_ours(rows, title=table_title(rows, path.stem))
        png = pathlib.Path(figures_dir) / f"{path.stem}.png"
        written.append(save_png(figure, png, metadata={SOURCE_KEY: record_digest(path)}))
        log(f"{path} -> {written[-1]}")
    return written
