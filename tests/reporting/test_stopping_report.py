"""The whole-schedule stopping check's docs sections: what a table's curves decide for its
patience, its lines, and each paper's section as the committed records render it."""

import pathlib
import re

from gcnn_match.evidence import stopping
from gcnn_match.reporting import stopping_report

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _curve(name, values, patience=2, seed=1):
    return {
        "name": name,
        "seed": seed,
        "command": "python experiments/stopping_check.py",
        "row": name.upper(),
        "select_metric": "dev_accuracy",
        "registered_epochs": len(values),
        "registered_patience": patience,
        "seconds_per_epoch": 1.25,
        "recorded_best_epoch": [1, 2],
        "recorded_epochs_run": [3, 4],
        "recorded_epoch_cap": None,
        **stopping.check(values, patience),
    }


EARLY_PEAK = [0.6, 0.5, 0.5, 0.4, 0.4]  # stops at 3 on its best, epoch 1
LATE_PEAK = [0.6, 0.5, 0.5, 0.7, 0.4]  # stops at 3, peaks at 4


def _record(rows, needs_check, pending=()):
    return {"needs_check": needs_check, "rows": rows, "pending": list(pending)}


def test_the_patience_stands_once_most_rows_that_need_the_check_stop_on_their_peak():
    rows = [_curve("a", EARLY_PEAK), _curve("b", EARLY_PEAK)]
    assert stopping_report.decision(_record(rows, ["a", "b", "c"])) == "stands"
    assert stopping_report.decision(_record(rows[:1], ["a", "b", "c"])) == "open"


def test_the_patience_is_too_short_once_most_rows_peak_after_their_stop():
    rows = [_curve("a", LATE_PEAK), _curve("b", LATE_PEAK), _curve("c", EARLY_PEAK)]
    assert stopping_report.decision(_record(rows, ["a", "b", "c"])) == "too short"
    # A curve checked beside (its row needs no check) decides nothing.
    assert stopping_report.decision(_record(rows, ["c", "d", "e"])) == "open"


def test_a_row_line_gives_the_peak_the_stop_and_the_highest_value_after_it():
    markdown = stopping_report.render(
        [("Table 1, x, low-resource", _record([_curve("a", LATE_PEAK)], ["a", "b"]))]
    )
    assert (
        "| Table 1, x, low-resource | A | 1 | 1,2 / 3,4 | 4 of 5 (70.00) | 2: stops 3, selects 1 "
        "(60.00) | 70.00 (epoch 4) | 1.2 |"
    ) in markdown
    assert "dev's best comes after the registered stop on 1 (A)" in markdown


def test_a_row_s_lowest_seed_decides_and_its_other_seeds_are_shown_beside():
    rows = [_curve("a", LATE_PEAK, seed=2), _curve("a", EARLY_PEAK), _curve("b", EARLY_PEAK)]
    record = _record(rows, ["a", "b", "c"])
    assert stopping_report.decision(record) == "stands"
    markdown = stopping_report.render([("T", record)])
    assert "2 of the 3 rows that need the check are checked" in markdown
    assert "1 other curve checked beside" in markdown
    assert "| T | A | 2 |" in markdown
    assert markdown.startswith("Checked by `python experiments/stopping_check.py` (dev only).")


def test_pending_rows_are_listed_with_their_hours():
    record = _record([], ["a", "b"], [{"name": "a", "row": "A", "hours": 0.25}])
    summary = stopping_report.render([("T", record)])
    assert "0 of the 2 rows that need the check are checked" in summary
    assert "Not yet checked (0.2 h of one seed at the recorded speed): A (0.25 h)." in summary
    assert "| T |" not in summary  # no curve, no table


def _section(text):
    found = re.search(
        r"<!-- begin stopping-check -->\n(.*?)<!-- end stopping-check -->", text, re.S
    )
    return found and found.group(1)


def test_each_paper_s_docs_section_is_what_the_committed_records_render():
    sections = stopping_report.doc_sections(ROOT / "results")
    assert sections, "no stopping-check record is committed"
    for doc, markdown in sections.items():
        assert _section((ROOT / doc).read_text("utf-8")) == markdown, (
            f"{doc} is stale: python experiments/stopping_check.py --report_only"
        )
