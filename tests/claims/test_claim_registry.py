"""The claims registry: every claim names registered rows, points the way the paper's own
numbers do, and quotes words that are in the paper."""

import re

import pytest

from gcnn_match.claims.assess import reproduce_command
from gcnn_match.claims.registry import Claim, select
from gcnn_match.evidence import latency
from gcnn_match.experiments import registry as experiments

PAPER_FILES = {
    "GCNN": "gcnn_chen2018_interspeech.txt",
    "ATTCONV": "attconv_yin2018_tacl.txt",
    "C-LSTMs": "coupled_lstm_liu2016_emnlp.txt",
    "COIN": "coin_hu2021_emnlp.txt",
}


def _squeezed(text):
    """Text without markup, whitespace and hyphens: what survives the PDF's line breaks."""
    return re.sub(r"[\s\-]+", "", re.sub(r"</?[a-z]+>", "", text))


def test_every_claim_names_registered_rows_of_one_table():
    for claim in select():
        if claim.metric == "seconds_per_batch":
            assert {claim.a, claim.b} <= set(latency.PAPER), claim
            continue
        a, b = (experiments.get(name) for name in (claim.a, claim.b))
        assert experiments.table_id(a) == experiments.table_id(b) == claim.table_id, claim
        if claim.is_ratio:
            assert "seconds_per_epoch" in a.targets and "seconds_per_epoch" in b.targets
        else:
            # The metric is one the rows report, compared with the same paper column.
            assert dict(map(reversed, a.compare))[claim.metric] == claim.paper_metric
            assert dict(map(reversed, b.compare))[claim.metric] == claim.paper_metric
        # `reproduce.py --rows` finds both rows by the names the "not run" command gives.
        slugs = [name.rsplit("/", 1)[-1] for name in (claim.a, claim.b)]
        assert len(experiments.select(table=claim.table_id, rows=slugs)) == 2


def test_the_papers_own_numbers_point_the_claimed_way():
    for claim in select():
        null = 1.0 if claim.is_ratio else 0.0
        if claim.expected == "equivalent":
            assert abs(claim.paper_value - null) < claim.margin, claim
        else:
            assert (claim.paper_value > null) == (claim.expected == "greater"), claim


def test_no_claim_is_registered_twice():
    keys = [(c.a, c.b, c.metric) for c in select()]
    assert len(keys) == len(set(keys))


def test_the_statements_the_issue_lists_are_registered():
    registered = {(c.a, c.b, c.metric) for c in select()}
    expected = [
        ("gcnn/quora/gcnn", "gcnn/quora/cnn", "test_accuracy"),
        ("gcnn/quora/gcnn", "gcnn/quora/glu", "test_accuracy"),
        ("gcnn/quora/gcnn", "gcnn/quora/gcnn_forget_gate", "test_accuracy"),
        ("gcnn/quora/gcnn", "gcnn/quora/gcnn_output_gate", "test_accuracy"),
        ("gcnn/quora/gcnn_char", "gcnn/quora/gcnn", "test_accuracy"),
        ("gcnn/quora/gcnn_char_pos", "gcnn/quora/gcnn_char", "test_accuracy"),
        ("gcnn/multinli/gcnn", "gcnn/multinli/esim_our_implement", "dev_accuracy"),
        ("gcnn/quora/esim_our_implement", "gcnn/quora/gcnn", "seconds_per_epoch"),
        ("gcnn/multinli/esim_our_implement", "gcnn/multinli/gcnn", "seconds_per_epoch"),
        ("gcnn/quora/cnn", "gcnn/quora/gcnn", "seconds_per_epoch"),
        ("attconv/scitail/attconv_advanced", "attconv/scitail/attconv_light", "test_accuracy"),
        ("attconv/scitail/attconv_light", "attconv/scitail/w_o_convolution", "test_accuracy"),
        ("attconv/scitail/attconv_light", "attconv/scitail/apcnn", "test_accuracy"),
        ("attconv/scitail/attconv_light", "attconv/scitail/bi_cnn", "test_accuracy"),
        ("attconv/scitail/attconv_light", "attconv/scitail/w_o_context", "test_accuracy"),
        (
            "attconv/fever/light_context_conc",
            "attconv/fever/light_context_wise",
            "test_label_accuracy",
        ),
        (
            "attconv/fever/advan_context_wise",
            "attconv/fever/light_context_wise",
            "test_label_accuracy",
        ),
        ("clstm/snli/lc_lstms", "clstm/snli/lc_lstms_single_direction", "test_accuracy"),
        ("clstm/snli/four_stacked_tc_lstms", "clstm/snli/tc_lstms", "test_accuracy"),
        ("clstm/snli/tc_lstms", "clstm/snli/lc_lstms", "test_accuracy"),
        ("clstm/yahoo/lc_lstms", "clstm/yahoo/tc_lstms", "test_p@1"),
        (
            "clstm/snli/four_stacked_tc_lstms",
            "clstm/snli/attention_w_by_w_lstms_rocktaschel_et_al_2015",
            "test_accuracy",
        ),
        ("coin/quora/ablation_original", "coin/quora/ablation_w_o_context", "dev_accuracy"),
        ("coin/lcqmc/ablation_original", "coin/lcqmc/ablation_simple_pool", "dev_accuracy"),
        ("coin/quora/coin_ensemble", "coin/quora/coin_ours", "test_accuracy"),
        ("BERT", "COIN", "seconds_per_batch"),
    ]
    assert [key for key in expected if key not in registered] == []


def test_table_3_claims_are_checked_on_the_paper_split_and_on_the_stand_in():
    by_table = {}
    for claim in select("ATTCONV"):
        if claim.paper_table.startswith("Table 3"):
            by_table.setdefault(claim.table_id, []).append(claim)
    paper, standin = by_table.pop("attconv-yelp"), by_table.pop("attconv-yelp_stars_standin")
    assert not by_table
    assert [(c.statement, c.paper_value) for c in paper] == [
        (c.statement, c.paper_value) for c in standin
    ]
    for claim in standin:
        assert claim.paper_table == "Table 3 (Yelp stand-in)"
        # The "not run" command trains the stand-in's rows, the ones that can run offline.
        command = reproduce_command(claim.table_id, [claim.a, claim.b])
        assert "--table=attconv-yelp_stars_standin" in command


def test_paper_values_come_from_the_registered_targets():
    by_key = {(c.a, c.b, c.metric): c for c in select()}
    assert by_key[
        ("gcnn/quora/esim_our_implement", "gcnn/quora/gcnn", "seconds_per_epoch")
    ].paper_value == pytest.approx(4038 / 870)
    assert by_key[
        ("gcnn/multinli/esim_our_implement", "gcnn/multinli/gcnn", "seconds_per_epoch")
    ].paper_value == pytest.approx(9610 / 2412)
    assert by_key[("gcnn/quora/cnn", "gcnn/quora/gcnn", "seconds_per_epoch")].paper_value == (
        pytest.approx(1 / 1.318, abs=1e-3)
    )
    assert by_key[("BERT", "COIN", "seconds_per_batch")].paper_value == pytest.approx(1.19 / 0.12)
    coin_context = by_key[
        ("coin/lcqmc/ablation_original", "coin/lcqmc/ablation_w_o_context", "dev_accuracy")
    ]
    assert coin_context.paper_value == pytest.approx(0.006)


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"expected": "better"}, "expected must be one of"),
        ({"expected": "equivalent"}, "margin goes with"),
        ({"margin": 0.01}, "margin goes with"),
        ({"metric": "test_f1"}, "not a mean over test units"),
    ],
)
def test_a_malformed_claim_says_what_is_wrong(changes, message):
    fields = dict(
        paper="GCNN",
        statement="s",
        a="gcnn/quora/gcnn",
        b="gcnn/quora/cnn",
        metric="test_accuracy",
        expected="greater",
        quote="q",
    )
    with pytest.raises(ValueError, match=message):
        Claim(**{**fields, **changes})


def test_every_quote_occurs_in_its_paper(shared_papers):
    texts = {
        paper: _squeezed((shared_papers / name).read_text("utf-8"))
        for paper, name in PAPER_FILES.items()
    }
    missing = [
        (claim.statement, passage)
        for claim in select()
        for passage in claim.quote.split("[...]")
        if _squeezed(passage) not in texts[claim.paper]
    ]
    assert missing == []
