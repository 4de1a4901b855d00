"""The committed records' verdicts: none confirmed or contradicted on an undertrained row, the
split that selected the checkpoint, or another kind of device than the paper's."""

import pathlib

import pytest

from gcnn_match.claims import accuracy, assess, plans, records, verdicts
from gcnn_match.claims.registry import select
from gcnn_match.evidence import predictions
from gcnn_match.evidence.runs import run_set_of
from gcnn_match.experiments import registry as experiments

RESULTS = pathlib.Path(__file__).resolve().parents[2] / "results"
JUDGED = ("confirmed", "contradicted")


def _rows_read(claim, outcome):
    """(row names, their configs) that a claim's verdict reads at its scale: two rows of a
    difference, four of a contrast, row A of a claim against the majority class."""
    store = records.RecordedPredictions(RESULTS)
    metric = plans.judged_metric(claim)
    scale = outcome.scale
    split, _ = predictions.split_and_column(metric)
    if claim.c is not None:
        lines = accuracy.contrast_lines(store, claim, scale, split)
        return claim.rows, [rows["config"].iloc[0] for rows in lines]
    if claim.floor is not None:
        lines = records.one_config(store.lines(claim.table_id, scale, claim.a, split))
        return [claim.a], [lines["config"].iloc[0]]
    found = records.difference(store, claim.table_id, claim.a, claim.b, metric, [scale])
    return (claim.a, claim.b), found.configs


def _short_rows(claim, outcome):
    """The rows a claim reads most of whose seeds ran short of their schedule, from the run
    sets of the configs the claim reads."""
    short = []
    for name, config in zip(*_rows_read(claim, outcome)):
        registered = experiments.get(name)
        if config.endswith("-vote"):
            registered, config = experiments.get(registered.runs_of), config[: -len("-vote")]
        table = experiments.table_id(registered)
        run_set = run_set_of(RESULTS, table, outcome.scale, registered.name, config)
        if verdicts.schedule(registered, run_set).undertrained:
            short.append(name)
    return short


@pytest.mark.slow
def test_no_verdict_rests_on_an_undertrained_row_a_selection_split_or_another_device():
    outcomes = assess.assess(select(), RESULTS)
    judged = [o for o in outcomes if o.verdict in JUDGED]
    assert judged, "the committed records judge some claims"
    for outcome in judged:
        claim = outcome.claim
        if claim.metric == "params":
            continue  # exact counts of the built models: no split, seeds or device
        if claim.is_ratio:
            device = verdicts.PAPER_DEVICE[claim.metric]
            assert ("NVIDIA" in outcome.scale) == (device == "GPU"), outcome.scale
            assert ("CPU inference" in outcome.scale) == (device == "CPU"), outcome.scale
            continue
        split, _ = predictions.split_and_column(plans.judged_metric(claim))
        assert split != verdicts.SELECTION_SPLIT, claim.statement
        assert not _short_rows(claim, outcome), claim.statement
