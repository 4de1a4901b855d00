"""A paper's rows trained on data of your own render the same table without the paper's
columns: ours only, no paper values, deltas, timings or notes on the papers' protocol."""

import json

from gcnn_match.data.registry import DatasetSpec
from gcnn_match.evidence.runs import collect
from gcnn_match.experiments import own_data, registry
from gcnn_match.reporting import tables
from tests.reporting.finished_runs import finished_run

MINE = DatasetSpec(
    name="mine",
    task="classification",
    labels=("different", "same"),
    splits={},
    official_splits=("train", "holdout", "test"),
)


def test_rows_on_your_data_have_no_paper_column(tmp_path):
    cnn, glu = (own_data.on_dataset(c, MINE) for c in registry.select(table="gcnn-quora")[:2])
    run = finished_run(tmp_path, 1, [0, 1, 1, 0], [0, 1, 0, 0])
    metrics = json.loads((run / "metrics.json").read_text("utf-8"))
    (run / "metrics.json").write_text(json.dumps({**metrics, "dev_accuracy": 0.5}), "utf-8")
    rows = collect([cnn, glu], {cnn.name: [run], glu.name: []})
    markdown = tables.render_markdown(rows, title="GCNN rows on mine", paper_column=False)
    head, rule, first, second = markdown.splitlines()[2:6]
    assert head == (
        "| row | dev accuracy | test accuracy | seeds | time/epoch (s) | best / run epochs "
        "| run / registered epochs | params (non-emb.) | data (train/dev/test) |"
    )
    assert rule == "|" + "---|" * 9
    assert first == "| CNN | 50.00 | 75.00 | 1 | 11.0 | 2/3 | 3 / 20 (cap unknown) | 60 | 9/1/4 |"
    assert "- Vectors: random." in markdown  # the one row that ran: said once, under the rows
    assert second.startswith("| GLU | not run | not run | 0 | not run |")
    assert "paper" not in markdown.lower() and "Scale:" not in markdown
