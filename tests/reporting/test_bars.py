"""Paper-vs-ours bars: bar lengths are the table JSON's values in percent, a row not run has
no "ours" bar, one PNG is written per table, and each committed figure was drawn from its
committed record as it is now."""

import json

import pytest
from matplotlib.container import BarContainer

from gcnn_match.reporting.bars import (
    drawn_from,
    is_table,
    paper_vs_ours,
    record_digest,
    write_table_figures,
)
from tests.conftest import REPO

ROWS = [
    {
        "row": "CNN",
        "targets": {"test_accuracy": 0.8792},
        "scale": "low-resource",
        "compare": [["test_accuracy", "test_accuracy"]],
        "runs": 3,
        "seeds": [1, 2, 3],
        "test_accuracy": [0.7568, 0.0112],
    },
    {
        "row": "GLU",
        "targets": {"test_accuracy": 0.8832},
        "runs": 0,
        "seeds": [],
        "compare": [["test_accuracy", "test_accuracy"]],
    },
    {
        "row": "GCNN",
        "targets": {"test_accuracy": 0.8866},
        "scale": "low-resource",
        "compare": [["test_accuracy", "test_accuracy"]],
        "runs": 1,
        "seeds": [1],
        "test_accuracy": [0.7596, 0.0],
    },
]


def _widths(container):
    return [patch.get_width() for patch in container.patches]


def _bars(axes):
    """(paper bars, ours bars) of a panel."""
    return [c for c in axes.containers if isinstance(c, BarContainer)]


def test_bar_lengths_are_the_json_values():
    [axes] = paper_vs_ours(ROWS, title="gcnn-quora").axes
    paper, ours = _bars(axes)
    assert _widths(paper) == pytest.approx([87.92, 88.32, 88.66])
    assert _widths(ours) == pytest.approx([75.68, 75.96])  # GLU was not run
    # "ours" bars sit on the CNN and GCNN rows; the first row is drawn on top.
    row_at = {round(y): t.get_text() for y, t in zip(axes.get_yticks(), axes.get_yticklabels())}
    rows_of_ours = [row_at[round(p.get_y() + p.get_height())] for p in ours.patches]
    assert rows_of_ours == ["CNN", "GCNN"]
    assert any(t.get_text() == "not run" for t in axes.texts)
    errors = ours.errorbar.lines[2][0].get_segments()
    assert [seg[1][0] - seg[0][0] for seg in errors] == pytest.approx([2 * 1.12, 0.0])


def test_a_capped_row_says_its_cap_beside_its_seeds():
    rows = [ROWS[0], dict(ROWS[2], epoch_cap=6, epochs_run=[6], registered_epochs=20)]
    [axes] = paper_vs_ours(rows).axes
    labels = {t.get_text() for t in axes.texts}
    assert {"75.7 ± 1.1 (3 seeds)", "76.0 (cap 6)"} <= labels


def test_one_panel_per_compared_metric():
    rows = [
        dict(
            ROWS[0],
            compare=[["test_matched_accuracy", "dev_accuracy"], ["test_accuracy", "test_accuracy"]],
            targets={"test_matched_accuracy": 0.76, "test_accuracy": 0.9},
            dev_accuracy=[0.7, 0.01],
        )
    ]
    first, second = paper_vs_ours(rows).axes
    assert _widths(_bars(first)[1]) == pytest.approx([70.0])
    assert _widths(_bars(second)[0]) == pytest.approx([90.0])


def test_a_png_per_table_file_and_other_json_is_ignored(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    (results / "gcnn-quora-low-resource.json").write_text(json.dumps(ROWS))
    (results / "bench.json").write_text(json.dumps({"environment": {}, "results": []}))
    written = write_table_figures(results, tmp_path / "figures", log=lambda *_: None)
    assert [p.name for p in written] == ["gcnn-quora-low-resource.png"]
    assert written[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not is_table({"results": []}) and is_table(ROWS)
    assert drawn_from(written[0]) == record_digest(results / "gcnn-quora-low-resource.json")


def _committed_tables():
    return [
        path
        for path in sorted((REPO / "results").glob("*.json"))
        if is_table(json.loads(path.read_text("utf-8")))
    ]


@pytest.mark.parametrize("record", _committed_tables(), ids=lambda path: path.stem)
def test_each_committed_figure_is_drawn_from_its_record_as_committed(record):
    png = REPO / "figures" / f"{record.stem}.png"
    assert png.exists() and drawn_from(png) == record_digest(record), (
        f"figures/{png.name} is not drawn from {record.name} as it is: run "
        "`python experiments/figures.py --nocurves`"
    )
