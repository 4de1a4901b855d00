"""Registered experiments and the rendered report."""

import json

import pytest

from gcnn_match.evidence.runs import collect
from gcnn_match.experiments import registry
from gcnn_match.reporting import tables
from gcnn_match.reporting.marked_sections import update_section
from gcnn_match.reporting.time_ratios import render_time_ratios

GCNN_QUORA_ROWS = ["CNN", "GLU", "GCNN", "GCNN - forget gate", "GCNN - output gate"]


def test_gcnn_quora_rows_are_registered_with_paper_targets():
    configs = registry.select(table="gcnn-quora")
    assert [c.row for c in configs][:5] == GCNN_QUORA_ROWS
    gcnn = registry.get("gcnn/quora/gcnn")
    assert gcnn.targets["test_accuracy"] == pytest.approx(0.8866)
    assert (gcnn.max_len_a, gcnn.max_len_b, gcnn.batch_size) == (40, 40, 64)
    assert gcnn.optimizer.learning_rate == pytest.approx(4e-4)


def test_rows_can_be_selected_by_printed_name_or_slug():
    names = [c.name for c in registry.select(dataset="quora", rows=["GCNN - forget gate", "glu"])]
    assert names == ["gcnn/quora/glu", "gcnn/quora/gcnn_forget_gate"]
    with pytest.raises(ValueError, match="unknown experiment"):
        registry.get("gcnn/quora/nothing")


def test_report_shows_paper_ours_delta_and_missing_rows(tmp_path):
    configs = registry.select(table="gcnn-quora")[:2]
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.json").write_text(
        json.dumps(
            {
                "seed": 1,
                "scale": "low-resource",
                "test_accuracy": 0.75,
                "seconds_per_epoch": 40.0,
                "embeddings": "glove-6b-50d-packaged",
                "examples": {"train": 9000, "dev": 1000, "test": 10000},
                "trainable_params": 10,
                "trainable_params_without_embeddings": 5,
                "epochs_run": 6,
                "best_epoch": 4,
            }
        )
    )
    rows = collect(configs, {configs[0].name: [run], configs[1].name: []})
    text = tables.render_markdown(rows, title="t", command="cmd")
    assert "| row | paper: test accuracy | ours: test accuracy | Δ | seeds |" in text
    assert (
        "| CNN | 87.92 | 75.00 | -12.92 | 1 | 660 | 40.0 | 4/6 | 6 / 20 (cap unknown) | 5 "
        "| 9000/1000/10000 |"
    ) in text
    assert "| GLU | 88.32 | not run |" in text
    assert "low-resource" in text
    report = tmp_path / "REPRODUCTION.md"
    update_section(report, "gcnn-quora:low-resource", text)
    update_section(report, "gcnn-quora:low-resource", text.replace("75.00", "76.00"))
    content = report.read_text()
    assert content.count("<!-- begin gcnn-quora:low-resource -->") == 1 and "76.00" in content


def test_time_ratios_use_same_run_medians():
    configs = registry.select(table="gcnn-quora")
    rows = [{"row": c.row, "targets": c.targets} for c in configs]
    for row, seconds in zip(rows, (10.0, None, 20.0)):
        row["seconds_per_epoch"] = (seconds, 0.0) if seconds else None
    text = render_time_ratios(rows, registry.time_ratios("gcnn-quora"))
    assert text.startswith("- Time ratios, paper / ours: ") and text.count("\n") == 1
    assert "; GCNN / CNN 1.32 / 2.00;" in text
    assert "ESIM (our implement) / GCNN " in text
