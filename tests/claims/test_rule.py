"""The verdict rule as one ordered list of checks (claims/verdicts.py: RULE, decide), on
outcomes made by hand, and the documents rendered from it."""

import dataclasses
import json
import pathlib

import pytest

from gcnn_match.claims import floor_check, parameters, verdicts
from gcnn_match.claims.floor_check import FloorCheck
from gcnn_match.claims.outcome import Outcome
from gcnn_match.claims.registry import Claim, select

REPO = pathlib.Path(__file__).resolve().parents[2]
GCNN, CNN = "gcnn/quora/gcnn", "gcnn/quora/cnn"
ABOVE = FloorCheck((0.7, 0.6), (("majority class", 0.5),))
BELOW = FloorCheck((0.4, 0.3), (("majority class", 0.5),))


def _claim(**fields):
    base = dict(paper="GCNN", statement="s", a=GCNN, b=CNN, metric="test_accuracy")
    return Claim(**{**base, "expected": "greater", "quote": "q", **fields})


def _outcome(reading="confirmed", holm_p=0.001, **fields):
    return Outcome(_claim(), reading, 0.02, 0.01, 0.03, holm_p=holm_p, floor=ABOVE, **fields)


@pytest.mark.parametrize(
    "changes,verdict",
    [
        ({}, "confirmed"),
        ({"reading": "contradicted"}, "contradicted"),
        ({"reading": "inconclusive", "holm_p": 0.9}, "inconclusive"),
        ({"holm_p": 0.025}, verdicts.AFTER_HOLM),  # not below 0.025
        ({"holm_p": 0.0249}, "confirmed"),
        ({"reading": "contradicted", "holm_p": 0.2}, verdicts.AFTER_HOLM),
        ({"near_tail": True, "holm_p": 0.2}, verdicts.BORDERLINE),  # before Holm
        ({"floor": BELOW, "near_tail": True}, verdicts.BELOW_FLOOR),  # before borderline
        ({"short": True, "floor": BELOW}, verdicts.UNDERTRAINED),  # before below floor
        ({"reading": verdicts.NOT_RUN, "holm_p": None}, verdicts.NOT_RUN),
    ],
)
def test_the_first_check_that_holds_gives_the_verdict(changes, verdict):
    assert verdicts.decide(dataclasses.replace(_outcome(), **changes)) == verdict


def test_cited_rows_are_told_apart_by_who_ran_them():
    cited = _claim(cited=(("BiMPM", 0.88),), b="BiMPM")
    own = _claim(cited=(("ABCNN", 0.8),), b="ABCNN", authors_ran=True)
    assert verdicts.decide(Outcome(cited, "")) == verdicts.CITED
    assert verdicts.decide(Outcome(own, "")) == verdicts.NOT_IMPLEMENTED


def test_a_count_the_papers_own_table_puts_the_same_way_is_the_table_against_its_text():
    light, apcnn = "attconv/snli/attconv_light", "attconv/snli/apcnn_dos_santos_et_al_2016"
    [fewer] = [c for c in select("ATTCONV") if (c.a, c.b, c.metric) == (light, apcnn, "params")]
    assert fewer.cells_against  # Table 7 prints 360K for both
    against = Outcome(fewer, "contradicted")
    assert verdicts.decide(against) == verdicts.TABLE_AGAINST_TEXT
    assert verdicts.decide(dataclasses.replace(against, reading="confirmed")) == "confirmed"


def test_the_verdicts_are_listed_in_the_order_of_the_rule_then_the_readings():
    assert verdicts.VERDICTS[: len(verdicts.RULE)] == tuple(c.verdict for c in verdicts.RULE)
    assert verdicts.VERDICTS[len(verdicts.RULE) :] == verdicts.READINGS
    assert [line.split("**")[1] for line in verdicts.rule_lines()] == list(verdicts.VERDICTS)


def test_below_floor_reads_the_tables_main_metric_where_the_claim_reads_another():
    on_f1 = FloorCheck((0.60, 0.59), (("always positive", 0.667),), judged=ABOVE)
    assert not verdicts.below_floor(on_f1)
    assert verdicts.below_floor(dataclasses.replace(on_f1, judged=BELOW))
    assert verdicts.below_floor(on_f1.__class__(on_f1.means, on_f1.floors))


def test_the_f1_floor_of_a_majority_class_is_that_of_always_predicting_positive(tmp_path):
    record = {
        "dataset": "lcqmc",
        "floors": [
            {
                "name": "majority",
                "row": "reference: majority class",
                "label": "different",  # the negative class: its own F1 is 0
                "metrics": {"test_accuracy": 0.6, "test_f1": 0.0},
            }
        ],
    }
    (tmp_path / "floor-coin-lcqmc-low-resource.json").write_text(json.dumps(record))
    check = floor_check.check(tmp_path, "coin-lcqmc", "low-resource", "test_f1", (0.7, 0.6))
    # 40% positive: F1 = 2 × 0.4 / 1.4.
    assert check.floors == (("always positive", pytest.approx(0.8 / 1.4)),)
    check = floor_check.check(tmp_path, "coin-lcqmc", "low-resource", "test_accuracy", (0.7, 0.6))
    assert check.floors == (("majority class", 0.6),)


def test_a_count_claim_shows_the_reading_that_reproduces_the_papers_counts():
    [lc_fewer] = [
        c
        for c in select("C-LSTMs")
        if c.statement == "LC has fewer parameters than TC" and c.metric == "params"
    ]
    outcome = parameters.assess_params(lc_fewer)
    assert outcome.reading == "contradicted"  # the text's two separated LSTMs
    assert (
        "under the reading that reproduces the paper's counts (LC-LSTMs, shared LSTM pair): "
        "45,000 vs 77,500, 0.58×, confirmed"
    ) in outcome.note


def test_the_design_document_states_the_rule_as_rendered():
    design = (REPO / "docs" / "design.md").read_text("utf-8")
    block = design.split("<!-- begin claims-rule -->\n")[1].split("<!-- end claims-rule -->")[0]
    assert block.splitlines() == verdicts.rule_lines()
