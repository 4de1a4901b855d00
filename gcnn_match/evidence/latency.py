"""COIN Table 5, CPU latency: the paper's seconds per batch and parameter counts (Hu et al.
2021, App. B), and our measurements of the same models (`results/latency.json`, written by
`experiments/latency.py`)."""

import pathlib

from gcnn_match.files import read_json

# The paper's seconds per batch (mean, std) and parameter counts.
PAPER = {"COIN": (0.12, 0.03, "6.5M"), "BERT": (1.19, 0.06, "109.5M")}


def record_path(results_dir):
    return pathlib.Path(results_dir) / "latency.json"


def measured(results_dir):
    """{model: its measurement} of the record under `results_dir`; {} when there is none."""
    record = read_json(record_path(results_dir), {"results": []})
    return {result["model"]: result for result in record["results"]}


def environment(results_dir):
    """The machine of the record under `results_dir` (`training/run_dir.environment_record`);
    {} without one."""
    return read_json(record_path(results_dir), {}).get("environment", {})
