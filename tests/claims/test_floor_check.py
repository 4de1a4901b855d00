"""A claim's rows against the floors of their table: above, below or at each one."""

import json

import pytest

from gcnn_match.claims.floor_check import FloorCheck, check

MAJORITY = ("majority class", 0.604)
TFIDF_LR = ("TF-IDF + LR", 0.721)


@pytest.mark.parametrize(
    "means,text",
    [
        (
            (0.544, 0.477),
            "A 54.40, B 47.70: both below majority class (60.40) and TF-IDF + LR (72.10)",
        ),
        (
            (0.65, 0.5),
            "A 65.00, B 50.00: A above, B below majority class (60.40); "
            "both below TF-IDF + LR (72.10)",
        ),
        (
            (0.604, 0.8),
            "A 60.40, B 80.00: A at, B above majority class (60.40); "
            "A below, B above TF-IDF + LR (72.10)",
        ),
    ],
)
def test_each_floor_says_which_rows_lie_above_it(means, text):
    assert FloorCheck(means, (MAJORITY, TFIDF_LR)).describe() == text


def test_floors_come_from_the_committed_record_of_the_table_and_scale(tmp_path):
    record = {
        "floors": [
            {"row": "reference: random order", "metrics": {"test_p@1": 0.18, "test_map": 0.38}},
            {"row": "reference: TF-IDF + LR", "metrics": {"test_p@1": 0.5}},
        ]
    }
    (tmp_path / "floor-c-lstms-wikiqa-full.json").write_text(json.dumps(record), "utf-8")
    ranking = check(tmp_path, "c-lstms-wikiqa", "full", "test_p@1", (0.6, 0.3))
    assert ranking.floors == (("random order", 0.18), ("TF-IDF + LR", 0.5))
    assert ranking.describe().endswith(
        "both above random order (18.00); A above, B below TF-IDF + LR (50.00)"
    )
    only_random = check(tmp_path, "c-lstms-wikiqa", "full", "test_map", (0.6, 0.3))
    assert only_random.floors == (("random order", 0.38),)
    for table, scale, metric in (
        ("c-lstms-wikiqa", "low-resource", "test_p@1"),  # no record at this scale
        ("c-lstms-wikiqa", "full", "test_mrr"),  # no floor of this metric
    ):
        assert check(tmp_path, table, scale, metric, (0.6, 0.3)).describe() == "no floor"
