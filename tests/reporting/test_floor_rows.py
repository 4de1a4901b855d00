"""A table's floor shows as reference rows under its rows, in the table's own columns, with a
note saying what the rows are; a table without a floor record is unchanged."""

from gcnn_match.evidence.runs import collect
from gcnn_match.experiments import own_data, registry
from gcnn_match.reporting import floor_rows, tables
from tests.reporting.finished_runs import finished_run
from tests.reporting.test_table_of_your_own_data import MINE

RECORD = {
    "key": "coin-lcqmc",
    "scale": "low-resource",
    "examples": {"train": 9, "dev": 1, "test": 4},
    "selection": "held-out (dev) accuracy",
    "command": "python experiments/floor.py --table=coin-lcqmc",
    "floors": [
        {
            "name": "majority",
            "row": "reference: majority class",
            "label": "same",
            "metrics": {"dev_accuracy": 0.5, "test_accuracy": 0.6, "test_f1": 0.75},
        },
        {
            "name": "tfidf_lr",
            "row": "reference: TF-IDF + LR",
            "C": 0.3,
            "metrics": {"dev_accuracy": 0.7, "test_accuracy": 0.738, "test_f1": 0.7},
        },
    ],
}


def _rows(tmp_path, configs):
    run = finished_run(tmp_path, 1, [0, 1, 1, 0], [0, 1, 0, 0])
    return collect(configs, {configs[0].name: [run]})


def test_reference_rows_sit_under_the_paper_rows(tmp_path):
    configs = registry.select(table="coin-lcqmc")
    markdown = tables.render_markdown(_rows(tmp_path, configs), title="COIN Table 1")
    shown = floor_rows.add_reference_rows(markdown, RECORD, "results/floor-coin-lcqmc.json")
    lines = shown.splitlines()
    head = lines.index(next(line for line in lines if line.startswith("| row ")))
    assert lines[head].startswith("| row | paper: test accuracy | ours: test accuracy | Δ ")
    assert lines[head + 2].startswith("| COIN (Ours) | ")
    assert lines[head + 3].startswith("| COIN (ensemble) | ")
    majority, lr = lines[head + 4], lines[head + 5]
    assert majority == (
        "| *reference: majority class* | – | 60.00 | – | – | 75.00 | – | – | – | – | – | – | – "
        "| 9/1/4 |"
    )
    assert lr.startswith("| *reference: TF-IDF + LR* | – | 73.80 | – | – | 70.00 | – |")
    assert all(line.count("|") == lines[head].count("|") for line in (majority, lr))
    note = lines[head + 7]
    assert note.startswith("- *Reference* rows: computed by this project, not the paper's")
    assert "always 'same'" in note and "C = 0.3 chosen by the held-out (dev) accuracy" in note
    assert "`results/floor-coin-lcqmc.json`, computed by `python experiments/floor.py" in note
    assert lines[head + 8].startswith("- Scale: low-resource")
    assert floor_rows.add_reference_rows(markdown, None, "x") == markdown


def test_reference_rows_in_a_table_of_your_own_data(tmp_path):
    configs = [own_data.on_dataset(c, MINE) for c in registry.select(table="gcnn-quora")[:2]]
    markdown = tables.render_markdown(_rows(tmp_path, configs), paper_column=False)
    shown = floor_rows.add_reference_rows(markdown, RECORD, "runs/mine/floor-mine-full.json")
    assert "| *reference: TF-IDF + LR* | 70.00 | 73.80 | – | – | – | – | – | 9/1/4 |" in shown
