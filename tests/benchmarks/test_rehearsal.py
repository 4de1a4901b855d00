"""The rehearsal's synthetic files read through the datasets' own readers, its section renders
its record, and the tiny rehearsal runs end to end."""

import json
import pathlib
import subprocess
import sys

import pytest

from gcnn_match.benchmarks import machine
from gcnn_match.benchmarks.rehearsal import SIZES, write_data
from gcnn_match.data.registry import read_split, resolve_split
from gcnn_match.reporting.rehearsal_report import TITLE, render

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_the_tiny_files_are_read_by_the_official_layouts_readers(tmp_path):
    files = write_data(tmp_path, "tiny")
    size = SIZES["tiny"]
    assert set(files) == {
        "quora/Quora_question_pair_partition/train.tsv",
        "quora/Quora_question_pair_partition/dev.tsv",
        "quora/Quora_question_pair_partition/test.tsv",
        "snli/snli_1.0/snli_1.0_train.jsonl",
        "snli/snli_1.0/snli_1.0_dev.jsonl",
        "snli/snli_1.0/snli_1.0_test.jsonl",
        "embeddings/glove.6B.50d.txt",
    }
    for split, count in zip(("train", "dev", "test"), size.quora):
        assert len(list(read_split("quora", split, tmp_path))) == count
        assert resolve_split("quora", split, tmp_path)[1].format == "bimpm_tsv"
    train = list(read_split("snli", "train", tmp_path))
    assert 0.9 * size.snli[0] <= len(train) <= size.snli[0]  # "-" lines are skipped
    assert train[0].a_tokens and train[0].a_pos and train[0].a_tokens[-1] == "."
    quora_words = {w for ex in read_split("quora", "train", tmp_path) for w in ex.a.split()}
    assert len(quora_words) == size.quora_words  # the whole vocabulary occurs in train
    vectors = {}
    for line in (tmp_path / "embeddings" / "glove.6B.50d.txt").read_text("utf-8").splitlines():
        fields = line.split(" ")
        vectors[" ".join(fields[:-50])] = [float(v) for v in fields[-50:]]
    assert quora_words <= set(vectors)
    assert len(vectors) == 2 * len(quora_words | {w for ex in train for w in ex.a_tokens})
    assert any(" " in word for word in vectors)


def _record(rows):
    return {
        "machine": "cpu2",
        "size": "tiny",
        "steps": 10,
        "command": "python experiments/rehearse.py --size=tiny",
        "environment": {"cpu": "AMD EPYC", "cpu_count": 2},
        "data": {
            "quora": "300/60/60",
            "snli": "300/60/60",
            "vectors": "glove.6B.50d (50-d)",
            "files": {"a": 3 * 2**20, "b": 2**20},
        },
        "rows": rows,
    }


ROW = {
    "name": "gcnn/quora/gcnn",
    "vocab_size": 114_840,
    "data_ready_seconds": 61.25,
    "model_built_seconds": 62.0,
    "first_step_seconds": 70.04,
    "steps": 10,
    "seconds_per_step": 1.5,
    "run_seconds": 300.0,
    "first_step_peak_rss_bytes": 2 * 2**30,
    "peak_rss_bytes": 3 * 2**30,
    "checkpoint_bytes": 512 * 2**20,
    "pipeline_warmup_batches": 10,
    "pipeline_warmup_seconds": 0.52,
    "pipeline_batches": 400,
    "pipeline_pairs_per_second": 9876.4,
}


def test_the_section_has_a_line_per_row_and_names_a_failed_one():
    failed = {"name": "gcnn/snli/gcnn_char_pos", "error": "MemoryError"}
    text = render(_record([ROW, failed]))
    assert text.startswith(TITLE + "\n")
    assert "4 MiB in all" in text
    assert (
        "| gcnn/quora/gcnn | 114,840 | 61.2 | 62.0 | 70.0 | 10 | 1.5 | 300.0 | 2,048 | 3,072 | 512 "
        "| 0.5 | 9876 |" in text
    )
    # A record without the first step's peak shows a dash there.
    earlier = {k: v for k, v in ROW.items() if not k.startswith(("first_step_peak", "pipeline_w"))}
    assert "| 300.0 | - | 3,072 | 512 | - | 9876 |" in render(_record([earlier]))
    assert "| gcnn/snli/gcnn_char_pos | failed: MemoryError |" in text
    assert (
        "first 10 batches (the epoch's schedule, tracing), then its pairs/s over the next 400"
        in text
    )


def test_the_machine_is_named_by_its_gpu_else_its_cores(monkeypatch):
    monkeypatch.setattr(machine.shutil, "which", lambda _: None)
    monkeypatch.setattr(machine.os, "cpu_count", lambda: 16)
    assert machine.machine_name() == "cpu16"
    monkeypatch.setattr(machine.shutil, "which", lambda _: "/usr/bin/nvidia-smi")
    listed = subprocess.CompletedProcess([], 0, stdout="NVIDIA H200\nNVIDIA H200\n")
    monkeypatch.setattr(machine.subprocess, "run", lambda *a, **k: listed)
    assert machine.machine_name() == "h200"


@pytest.mark.slow
def test_the_tiny_rehearsal_records_a_row_and_renders_its_section(tmp_path):
    record_path, output = tmp_path / "rehearsal.json", tmp_path / "BENCHMARKS.md"
    command = [sys.executable, "experiments/rehearse.py", "--size=tiny", "--rows=gcnn/quora/gcnn"]
    command += ["--steps=2", f"--json={record_path}", f"--output={output}"]
    subprocess.run(command, cwd=REPO, check=True, capture_output=True)
    record = json.loads(record_path.read_text("utf-8"))
    assert record["size"] == "tiny" and record["environment"]["cpu_count"] >= 1
    (row,) = record["rows"]
    assert row["name"] == "gcnn/quora/gcnn"
    assert row["steps"] == 2  # stopped inside the 5-step epoch
    assert row["examples"] == {"train": 300, "dev": 60, "test": 60}
    assert row["vocab_size"] > SIZES["tiny"].quora_words
    assert 0 < row["data_ready_seconds"] < row["model_built_seconds"] < row["first_step_seconds"]
    assert row["first_step_seconds"] <= row["steps_seconds"] < row["run_seconds"]
    assert 100 * 2**20 < row["first_step_peak_rss_bytes"] <= row["peak_rss_bytes"]
    assert row["checkpoint_bytes"] > 2**20
    assert row["pipeline_warmup_seconds"] > 0 and row["pipeline_pairs_per_second"] > 0
    text = output.read_text("utf-8")
    assert "<!-- begin rehearsal -->\n" + TITLE in text
    assert "| gcnn/quora/gcnn | " in text
    output.write_text("# Benchmarks\n", "utf-8")
    subprocess.run(command + ["--report_only"], cwd=REPO, check=True, capture_output=True)
    assert "| gcnn/quora/gcnn | " in output.read_text("utf-8")
