"""The prose of REPRODUCTION.md quotes only numbers that a committed record, a registered paper
target or a named test holds (gcnn_match/reporting/prose_numbers.py)."""

import json
import pathlib

from gcnn_match.reporting import prose_numbers

REPO = pathlib.Path(__file__).resolve().parents[2]

# Two rows of a table record as reproduce.py writes it: [mean, sample std] of each metric.
RECORD = [
    {"name": "gcnn/quora/gcnn", "test_accuracy": [0.759633, 0.00701], "epochs_run": [6, 6]},
    {"name": "gcnn/quora/cnn", "test_accuracy": [0.756800, 0.01123], "epochs_run": [6, 6]},
]
TABLE = """<!-- begin gcnn-quora:low-resource -->
| GCNN | 12.34 |
<!-- end gcnn-quora:low-resource -->
"""


def _untraced(tmp_path, prose):
    results = tmp_path / "results"
    results.mkdir(exist_ok=True)
    (results / "gcnn-quora-low-resource.json").write_text(json.dumps(RECORD), "utf-8")
    markdown = tmp_path / "REPRODUCTION.md"
    markdown.write_text("# Reproduction results\n\n" + TABLE + prose, "utf-8")
    return [(q.line, q.text) for q in prose_numbers.check(markdown, results, tmp_path)]


def test_a_number_no_record_holds_is_reported_with_its_line(tmp_path):
    prose = (
        "\n## What the GCNN runs show\n\n"
        "- GCNN 75.96 ± 0.70 and CNN 75.68 ± 1.12, 0.28 points apart (paper 88.66 vs 87.92),\n"
        "  after `--epochs=6` of the registered 20 (Table 2; Rocktäschel et al., 2015).\n"
        "- One seed alone reached 76.43.\n"
    )
    assert _untraced(tmp_path, prose) == [(11, "76.43")]


def test_a_result_is_matched_at_the_precision_it_is_printed_with(tmp_path):
    # 75.9633 is 75.96, 76.0 and 76 as printed, never 75.97 or 71.
    prose = "\n## What the GCNN runs show\n\nGCNN 75.96, 76.0 and 76, not 75.97 or 71.\n"
    assert [text for _, text in _untraced(tmp_path, prose)] == ["75.97", "71"]


def test_a_difference_or_a_ratio_is_traced_only_when_the_prose_says_it_is_one(tmp_path):
    # 75.96 / 75.68 = 1.0037; as a plain value, 1.00 would need a record that holds it.
    said = "\n## What the GCNN runs show\n\nGCNN is 1.004× CNN, Δ 0.28.\n"
    assert _untraced(tmp_path, said) == []
    unsaid = "\n## What the GCNN runs show\n\nGCNN over CNN: 1.004.\n"
    assert [text for _, text in _untraced(tmp_path, unsaid)] == ["1.004"]


def test_flops_are_counted_in_units_and_rates_in_gflop_per_second(tmp_path):
    # A record's FLOPs per pair are plain counts, its achieved rates already in GFLOP/s.
    record = {"name": "gcnn/quora/gcnn", "train_flops_per_pair": 3.69e9}
    record["train_gflops_per_second_fixed"] = 184.34
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "bench.json").write_text(json.dumps([record]), "utf-8")
    prose = (
        "\n## What the GCNN runs show\n\n3.69 GFLOP per pair at 184.3 GFLOP/s, not 3.7 GFLOP/s.\n"
    )
    assert [text for _, text in _untraced(tmp_path, prose)] == ["3.7"]


def test_the_prose_on_one_paper_is_traced_to_that_papers_records_only(tmp_path):
    prose = "\n## What the COIN runs show\n\nCOIN reached 75.96.\n"
    assert [text for _, text in _untraced(tmp_path, prose)] == ["75.96"]


def test_the_committed_prose_quotes_only_traceable_numbers():
    untraced = prose_numbers.check(REPO / "REPRODUCTION.md", REPO / "results", REPO)
    assert not untraced, "\n".join(
        f"REPRODUCTION.md:{q.line}: {q.text} is in no committed record (results/), registered "
        f"target or named test: {q.context}"
        for q in untraced
    )
