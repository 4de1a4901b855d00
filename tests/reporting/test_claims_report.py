"""The claims report on synthetic records: verdicts, the rows against their floors, "not run"
with its command, time ratios with and without an interval, the markdown and the forest
plots."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from gcnn_match.baselines import floor
from gcnn_match.claims import assess, plans, records, verdicts
from gcnn_match.claims.registry import Claim, select
from gcnn_match.data import registry as datasets
from gcnn_match.reporting import claims_report
from tests.claims.synthetic_records import row_lines, write_lines

GCNN_BEATS_CNN = ("gcnn/quora/gcnn", "gcnn/quora/cnn", "test_accuracy")
GCNN_LIKE_ESIM = ("gcnn/multinli/gcnn", "gcnn/multinli/esim_our_implement", "test_accuracy")
ESIM_SLOWER = ("gcnn/quora/esim_our_implement", "gcnn/quora/gcnn", "seconds_per_epoch")
COIN_FASTER = ("BERT", "COIN", "seconds_per_batch")


NONE = dict.fromkeys(
    ["accuracy-like", "time", "parameters", "GCNN", "ATTCONV", "C-LSTMs", "COIN", "all"], 0
)


def _counted(text, verdict):
    """{column: count} of the counts table's row `verdict` in rendered `text`."""
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("| verdict |"))
    row = next(line for line in lines if line.startswith(f"| {verdict} |"))
    names = [cell.strip() for cell in header.strip("|").split("|")][1:]
    return dict(zip(names, (int(cell) for cell in row.strip("|").split("|")[1:])))


def _claim(key):
    [claim] = [c for c in select() if (c.a, c.b, c.metric) == key]
    return claim


@pytest.mark.parametrize(
    "accuracy_a,accuracy_b,verdict",
    [(0.85, 0.75, "confirmed"), (0.75, 0.85, "contradicted"), (0.80, 0.80, "inconclusive")],
)
def test_a_difference_claim_gets_its_verdict_from_the_records(
    tmp_path, accuracy_a, accuracy_b, verdict
):
    rng = np.random.default_rng(0)
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(
        tmp_path,
        "gcnn-quora",
        row_lines(a, accuracy_a, rng=rng),
        row_lines(b, accuracy_b, rng=rng),
    )
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.verdict == verdict
    assert outcome.low < outcome.estimate < outcome.high
    assert outcome.estimate == pytest.approx(accuracy_a - accuracy_b, abs=0.02)
    assert outcome.sample == "5 vs 5 seeds, 2000 units"
    assert outcome.epochs == "A 8–12 / 20; B 8–12 / 20"
    assert outcome.scale == "low-resource"


def test_the_preferred_scale_with_both_rows_is_used(tmp_path):
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9), row_lines(b, 0.7))
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9), scale="full")  # B never ran at full
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path, ("full", "low-resource"))
    assert (outcome.scale, outcome.verdict) == ("low-resource", "confirmed")


@pytest.mark.parametrize(
    "wrong_in_b,verdict", [(0.0, "confirmed"), (0.1, "contradicted"), (0.0125, "inconclusive")]
)
def test_a_comparable_claim_is_judged_against_its_margin(tmp_path, wrong_in_b, verdict):
    """Both rows get the same examples right, up to 1% per seed; B also misses `wrong_in_b`
    of A's right answers (Δ of about 0, 8 and 1 points against a margin of 1)."""
    rng = np.random.default_rng(3)
    base = rng.random(3000) < 0.8
    a, b = GCNN_LIKE_ESIM[:2]
    lines = []
    for row, wrong in ((a, 0.0), (b, wrong_in_b)):
        frame = row_lines(row, 0.0, "test", units=len(base), rng=rng)
        seeds = frame["seed"].to_numpy()
        kept = np.tile(base & (rng.random(len(base)) >= wrong), seeds.max())
        frame["correct"] = (kept ^ (rng.random(len(frame)) < 0.01)).astype(int)
        lines.append(frame)
    write_lines(tmp_path, "gcnn-multinli", *lines)
    [outcome] = assess.assess([_claim(GCNN_LIKE_ESIM)], tmp_path)
    assert outcome.verdict == verdict


def test_different_configs_are_said(tmp_path):
    a, b = GCNN_BEATS_CNN[:2]
    capped = row_lines(b, 0.7).assign(config="low-resource-e300-epochs6", max_epochs=6)
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9), capped)
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.note == "configs differ: A low-resource-e300, B low-resource-e300-epochs6"
    assert outcome.epochs == "A 8–12 / 20; B 8–12 / 20 (cap 6)"


def _capped(frame, cap=6):
    return frame.assign(config=f"low-resource-e300-epochs{cap}", max_epochs=cap, epochs=cap)


@pytest.mark.slow
def test_a_config_both_rows_ran_is_preferred_to_each_rows_own_best(tmp_path):
    """A ran 5 seeds under a 6-epoch cap and 5 without, B only without: the claim compares the
    uncapped runs (A's capped ones score lower, so using them would flip the verdict)."""
    a, b = GCNN_BEATS_CNN[:2]
    capped_a = _capped(row_lines(a, 0.6))
    write_lines(tmp_path, "gcnn-quora", capped_a, row_lines(a, 0.9), row_lines(b, 0.7))
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.verdict == "confirmed" and outcome.note == ""
    assert outcome.epochs == "A 8–12 / 20; B 8–12 / 20"
    # Of the configs both ran, the one with the most seeds in both, then the highest cap.
    lines = [capped_a, row_lines(a, 0.9), row_lines(b, 0.7), _capped(row_lines(b, 0.95, seeds=3))]
    write_lines(tmp_path, "gcnn-quora", *lines)
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.verdict == "confirmed" and outcome.sample == "5 vs 5 seeds, 2000 units"
    lines = [capped_a, row_lines(a, 0.9, seeds=3), row_lines(b, 0.7, seeds=3)]
    write_lines(tmp_path, "gcnn-quora", *lines, _capped(row_lines(b, 0.95)))
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.verdict == "contradicted"
    assert outcome.epochs == "A 6 / 20 (cap 6); B 6 / 20 (cap 6)"
    # A's own best (5 seeds, the highest cap: 30 epochs, above the registered 20) is not one
    # B ran: the registered runs both have are compared.
    above = _capped(row_lines(a, 0.6), cap=30)
    write_lines(tmp_path, "gcnn-quora", above, row_lines(a, 0.9), row_lines(b, 0.7))
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.verdict == "confirmed" and outcome.note == ""


def test_a_row_short_of_five_seeds_is_not_run_yet_with_the_command_for_the_rest(tmp_path):
    """A has 2 seeds under a 6-epoch cap, B 5 under the registered schedule: no verdict; the
    command trains A to its registered schedule, where B's runs are."""
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", _capped(row_lines(a, 0.9, seeds=2)), row_lines(b, 0.7))
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.verdict == "not run" and outcome.estimate is None
    assert outcome.note == (
        "2 vs 5 of 5 seeds recorded; configs differ: A low-resource-e300-epochs6, "
        "B low-resource-e300"
    )
    assert outcome.sample == "2 vs 5 seeds, 2000 units"
    assert outcome.command.endswith("--rows=gcnn --scale=low-resource --seeds=1,2,3,4,5")
    cell = claims_report.render_markdown([outcome], "make claims")
    assert "not run (2 vs 5 of 5 seeds recorded; configs differ: " in cell


def _vote_claim(key):
    """A claim that a majority-vote row beats its member seeds (the papers draw none: COIN
    sets its ensemble against other systems only)."""
    return Claim(
        paper="COIN",
        statement="the vote beats its seeds",
        a=key[0],
        b=key[1],
        metric=key[2],
        expected="greater",
        quote="q",
    )


@pytest.mark.slow  # the vote is recomputed in each of 10,000 draws
def test_the_ensemble_claim_compares_the_vote_with_the_single_seeds(tmp_path):
    key = ("coin/quora/coin_ensemble", "coin/quora/coin_ours", "test_accuracy")
    vote = row_lines(key[0], 0.92, seeds=1).assign(seed=0, config="low-resource-e300-vote")
    write_lines(tmp_path, "coin-quora", vote.assign(epochs=30), row_lines(key[1], 0.85))
    [outcome] = assess.assess([_vote_claim(key)], tmp_path)
    assert outcome.sample == "vote vs 5 seeds, 2000 units" and outcome.verdict == "confirmed"
    # The vote ran the epochs of the seeds it votes over (its record keeps their longest).
    assert outcome.epochs == "A 8–12 / 30 (cap 20); B 8–12 / 30 (cap 20)"
    # The vote is recomputed from the member seeds drawn: its seed variance is in the interval.
    assert outcome.note == ""


@pytest.mark.slow  # the vote is recomputed in each of 10,000 draws
def test_the_ensemble_claim_on_f1_measures_the_f1_of_the_vote_and_of_each_seed(tmp_path):
    key = ("coin/lcqmc/coin_ensemble", "coin/lcqmc/coin_ours", "test_f1")
    members = row_lines(key[1], 0.85)
    vote = row_lines(key[0], 0.92, seeds=1).assign(seed=0, config="low-resource-e300-vote")
    write_lines(tmp_path, "coin-lcqmc", vote, members)
    [outcome] = assess.assess([_vote_claim(key)], tmp_path)
    # Every gold label is the positive "same": F1 = 2·TP / (2·TP + FN) per seed.
    right = members.pivot(index="seed", columns="uid", values="correct").to_numpy()
    voted = right.sum(axis=0) >= 3
    f1_of = lambda hits: 2 * hits.sum(-1) / (hits.shape[-1] + hits.sum(-1))  # noqa: E731
    assert outcome.estimate == pytest.approx(f1_of(voted) - f1_of(right).mean())
    assert outcome.sample == "vote vs 5 seeds, 2000 units" and outcome.verdict == "confirmed"


def test_rows_without_records_are_not_run_with_the_command_that_runs_them(tmp_path):
    a, _ = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9))
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.verdict == "not run"
    assert outcome.command == (
        "python experiments/reproduce.py --table=gcnn-quora --rows=cnn --scale=low-resource "
        "--seeds=1,2,3,4,5"
    )
    [nothing] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path / "empty")
    assert "--rows=gcnn,cnn" in nothing.command


def test_beside_a_capped_row_the_missing_row_trains_with_it_to_their_schedule(tmp_path):
    """No cap in the command: a capped row's verdict would be "undertrained at this budget"."""
    a, _ = GCNN_BEATS_CNN[:2]
    capped = row_lines(a, 0.9).assign(config="low-resource-e300-epochs6", max_epochs=6)
    write_lines(tmp_path, "gcnn-quora", capped)
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.command.endswith("--rows=gcnn,cnn --scale=low-resource --seeds=1,2,3,4,5")


def test_a_not_run_claim_says_which_runs_lack_predictions_and_how_long_the_rest_takes(tmp_path):
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9))
    run_set = {
        "name": b,
        "configuration": "low-resource-seed*-e300-epochs6",
        "seeds": [1, 2, 3],
        "best_epoch": [1, 2, 3],
        "epochs_run": [6, 6, 6],
        "epoch_cap": 6,
        "seconds_per_epoch": [360.0, 1.0],
        "provenance": [],
    }
    (tmp_path / "gcnn-quora-low-resource.json").write_text(json.dumps([run_set]))
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert outcome.note == f"{b}: 3 seeds recorded without per-example test predictions"
    # Five seeds, each to its selected epoch plus the patience (7 on average), of 0.1 h.
    assert outcome.hours == pytest.approx(3.5)
    cell = claims_report.render_markdown([outcome], "make claims")
    assert "--seeds=1,2,3,4,5` (about 3.5 h)" in cell


def test_not_run_claims_name_the_data_missing_from_the_folder_checked(tmp_path):
    """Quora's low-resource splits (dev, test) are there, MultiNLI's are not."""
    data_dir = tmp_path / "data"
    for split in ("dev", "test"):
        path = data_dir / datasets.get_dataset("quora").splits[split][0].path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    claims = [_claim(GCNN_BEATS_CNN), _claim(GCNN_LIKE_ESIM)]
    quora, multinli = assess.assess(claims, tmp_path / "results", data_dir=data_dir)
    assert (quora.verdict, quora.missing_data) == ("not run", "")
    assert multinli.verdict == "not run"
    assert multinli.missing_data == (
        "multinli (dev_matched, dev_mismatched, test_matched, test_mismatched)"
    )
    # The commands read the folder checked.
    assert quora.command.endswith(f" --data_dir={data_dir}")
    assert multinli.command.endswith(f" --data_dir={data_dir}")
    text = claims_report.render_markdown([quora, multinli], "make claims", data_dir=data_dir)
    assert _counted(text, "not run")["GCNN"] == 2
    assert _counted(text, "of which not run, data missing")["GCNN"] == 1
    assert f"no file in `{data_dir}`, the data folder checked" in text
    assert f"| not run (data missing: {multinli.missing_data}): `{multinli.command}` |" in text
    assert f"| not run: `{quora.command}` |" in text
    unchecked = assess.assess(claims, tmp_path / "results")
    assert [o.missing_data for o in unchecked] == ["", ""]
    assert "--data_dir" not in unchecked[1].command
    assert "data missing" not in claims_report.render_markdown(unchecked, "make claims")


def test_a_claim_on_a_split_the_low_resource_scale_trains_on_is_planned_at_full_scale(tmp_path):
    """MultiNLI's low-resource scale trains on dev-matched: its matched claims are planned at
    the full scale, which reads train too, its mismatched ones (on test) at low resource."""
    matched, mismatched = (
        _claim(("gcnn/multinli/gcnn", "gcnn/multinli/cnn", metric))
        for metric in ("dev_matched_accuracy", "test_accuracy")
    )
    assert (plans.command_scale(matched), plans.command_scale(mismatched)) == (
        "full",
        "low-resource",
    )
    outcomes = assess.assess([matched, mismatched], tmp_path / "results", data_dir=tmp_path)
    assert ["--scale=full" in o.command for o in outcomes] == [True, False]
    assert "--scale=low-resource" in outcomes[1].command
    assert [o.missing_data.endswith("test_mismatched, train)") for o in outcomes] == [True, False]


def _floor_record(results_dir, table, majority, tfidf_lr, scale="low-resource"):
    record = {
        "floors": [
            {"name": "majority", "row": "reference: majority class", "metrics": majority},
            {"name": "tfidf_lr", "row": "reference: TF-IDF + LR", "metrics": tfidf_lr},
        ]
    }
    results_dir.mkdir(parents=True, exist_ok=True)
    path = results_dir / f"floor-{table}-{scale}.json"
    path.write_text(json.dumps(record), "utf-8")


@pytest.mark.slow
def test_each_difference_says_where_its_rows_lie_against_the_floors(tmp_path):
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9), row_lines(b, 0.7))
    [no_floor] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    assert no_floor.floor.describe() == "no floor"
    _floor_record(
        tmp_path,
        "gcnn-quora",
        {"test_accuracy": 0.5, "dev_accuracy": 0.99},
        {"test_accuracy": 0.8, "dev_accuracy": 0.99},
    )
    [outcome] = assess.assess([_claim(GCNN_BEATS_CNN)], tmp_path)
    mean_a, mean_b = outcome.floor.means
    assert mean_a == pytest.approx(0.9, abs=0.01) and mean_b == pytest.approx(0.7, abs=0.01)
    assert outcome.floor.floors == (("majority class", 0.5), ("TF-IDF + LR", 0.8))
    assert outcome.floor.describe() == (
        f"A {100 * mean_a:.2f}, B {100 * mean_b:.2f}: both above majority class (50.00); "
        "A above, B below TF-IDF + LR (80.00)"
    )
    # The verdict rule ignores the floors.
    assert outcome.verdict == no_floor.verdict == "confirmed"
    text = claims_report.render_markdown(assess.assess(select("GCNN"), tmp_path), "make claims")
    assert "| our Δ [95% CI] | p (Holm) | verdict |" in text
    [line] = [row for row in text.splitlines() if '<a id="gcnn-gcnn-beats-cnn-quora"></a>' in row]
    assert line.startswith("| 1 | GCNN beats CNN")
    assert "· scale: low-resource · floors: A 9" in line
    assert "B below TF-IDF + LR (80.00) · vs paper: " in line
    assert "| < 0.0001 (< 0.0001) | **confirmed** |" in line


@pytest.mark.slow
def test_a_row_names_the_judged_metric_and_the_side_its_draws_lean_to(tmp_path):
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.7), row_lines(b, 0.9))
    outcomes = assess.assess(select("GCNN") + select("COIN"), tmp_path)
    text = claims_report.render_markdown(outcomes, "make claims")
    rows = {
        row.split('<a id="')[1].split('"')[0]: row for row in text.splitlines() if '<a id="' in row
    }
    beats_cnn = rows["gcnn-gcnn-beats-cnn-quora"]
    assert "(quora, test_accuracy)<a" in beats_cnn
    # GCNN 20 points below CNN: the claimed side's p is 1, the other side's 0.
    assert "| 1.0000; against < 0.0001 (< 0.0001) |" in beats_cnn
    assert "| **contradicted** |" in beats_cnn
    # COIN's ablations report the split that selected the checkpoint: judged on test.
    context = rows["coin-context-in-cross-attention-helps-quora"]
    assert "(quora, test_accuracy in place of dev_accuracy)<a" in context
    # MultiNLI's test labels are Kaggle-only: the row names the paper's column beside ours.
    mismatched = rows["gcnn-gcnn-beats-cnn-mismatched-multinli"]
    assert "(multinli, test_accuracy against the paper's test_mismatched_accuracy)<a" in mismatched
    matched = rows["gcnn-gcnn-beats-cnn-matched-multinli"]
    assert "(multinli, dev_matched_accuracy against the paper's test_matched_accuracy)<a" in matched


@pytest.mark.slow  # renders every claim of a table
def test_a_claim_s_note_follows_its_quote(tmp_path):
    outcomes = assess.assess(select("ATTCONV"), tmp_path)
    text = claims_report.render_markdown(outcomes, "make claims")
    [line] = [row for row in text.splitlines() if "beats Attentive-LSTM (ALL)" in row]
    assert "“gold evi.”” (the paper's own cells miss the quoted margin" in line
    assert "(fever, test_label_accuracy against the paper's dev_label_accuracy)" in line


def _bench(results_dir, steps):
    """results/bench.json of ESIM (4x slower per pair) and GCNN on a GPU, the paper's kind of
    device; `steps`: {row: step seconds}."""
    bench = {
        "results": [
            {
                "name": name,
                "train_pairs_per_second_bucket": rate,
                "timed_steps_bucket": len(steps[name]) if steps else 5,
                "environment": {"cpu": "CPU X", "cpu_count": 2, "gpus": ["GPU X"]},
                **({"train_step_seconds_bucket": steps[name]} if steps else {}),
            }
            for name, rate in (("gcnn/quora/esim_our_implement", 50.0), ("gcnn/quora/gcnn", 200.0))
        ]
    }
    (results_dir / "bench.json").write_text(json.dumps(bench), "utf-8")


def test_time_ratios_get_an_interval_over_the_recorded_steps(tmp_path):
    rng = np.random.default_rng(0)
    # ESIM's steps take twice GCNN's on batches of half the pairs (50 pairs at 50 pairs/s vs
    # 100 at 200): the ratio is of time per pair, 4, as the throughputs give it.
    steps = {
        "gcnn/quora/esim_our_implement": list(rng.lognormal(0.0, 0.1, 20)),
        "gcnn/quora/gcnn": list(0.5 * rng.lognormal(0.0, 0.1, 20)),
    }
    _bench(tmp_path, steps)
    latency = {
        "results": [
            {"model": model, "mean": mean, "std": 0.1, "batches": 50, "batch_seconds": seconds}
            for model, mean, seconds in (
                ("COIN", 0.05, list(0.05 * rng.lognormal(0.0, 0.1, 50))),
                ("BERT", 0.5, list(0.5 * rng.lognormal(0.0, 0.1, 50))),
            )
        ]
    }
    (tmp_path / "latency.json").write_text(json.dumps(latency), "utf-8")
    slower, faster = assess.assess([_claim(ESIM_SLOWER), _claim(COIN_FASTER)], tmp_path)
    assert slower.estimate == pytest.approx(4.0)
    assert 3.0 < slower.low < 4.0 < slower.high < 5.0
    assert (slower.verdict, slower.note, slower.sample) == ("confirmed", "", "20 vs 20 timed steps")
    seconds = {m["model"]: np.mean(m["batch_seconds"]) for m in latency["results"]}
    assert faster.estimate == pytest.approx(seconds["BERT"] / seconds["COIN"])
    assert faster.low < faster.estimate < faster.high and faster.verdict == "confirmed"
    _bench(tmp_path, {name: values[:5] for name, values in steps.items()})
    [few] = assess.assess([_claim(ESIM_SLOWER)], tmp_path)
    assert few.note == "under 10 timed steps in a row: the interval may be too narrow"
    text = claims_report.render_markdown([slower, faster], "make claims")
    assert f"| {slower.estimate:.2f}× [{slower.low:.2f}×, {slower.high:.2f}×] |" in text


def test_time_ratios_without_repeats_have_no_interval(tmp_path):
    _bench(tmp_path, None)
    latency = {
        "results": [
            {"model": "COIN", "mean": 0.05, "std": 0.005, "batches": 1000},
            {"model": "BERT", "mean": 0.5, "std": 0.05, "batches": 1000},
        ]
    }
    (tmp_path / "latency.json").write_text(json.dumps(latency), "utf-8")
    slower, faster = assess.assess([_claim(ESIM_SLOWER), _claim(COIN_FASTER)], tmp_path)
    assert slower.estimate == pytest.approx(4.0) and slower.low is None
    assert slower.verdict == "inconclusive"
    assert "no interval: bench.json keeps each row's mean throughput" in slower.note
    assert "lies on the claimed side" in slower.note
    assert faster.estimate == pytest.approx(10.0) and faster.verdict == "inconclusive"
    assert "mean and standard deviation (A 10%, B 10% of the mean)" in faster.note
    [missing] = assess.assess([_claim(ESIM_SLOWER)], tmp_path / "empty")
    assert missing.command == (
        "python experiments/epoch_times.py --jit_compile --padding=fixed --epochs=5 "
        "--table=gcnn-quora --json=results/epoch-times-gpu.json"
    )


def test_a_claim_against_a_cited_row_says_so_and_measures_nothing(tmp_path):
    a = GCNN_BEATS_CNN[0]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.95))
    [outcome] = assess.assess([_claim((a, "BiMPM [12]", "test_accuracy"))], tmp_path)
    assert outcome.verdict == "cited row, not reproduced"
    assert outcome.estimate is None and outcome.note == "BiMPM [12]: 88.17 in the paper"
    assert outcome.claim.paper_value == pytest.approx(0.8866 - 0.8817)
    [line] = [
        row for row in claims_report.render_paper([outcome], "GCNN") if row.startswith("| 1 |")
    ]
    assert "GCNN vs BiMPM [12] (quora, test_accuracy)" in line
    assert "| – |" in line and "**cited row, not reproduced**" in line


FEVER_SUB = (
    "attconv/fever/advan_context_conc",
    "attconv/fever/light_context_conc",
    "test_fever_score",
)


def _fever_lines(row, label_accuracy, fever_score, rng):
    """Lines of a FEVER row: right labels at `label_accuracy`, of which the fraction
    `fever_score / label_accuracy` also have their evidence."""
    lines = row_lines(row, label_accuracy, rng=rng)
    evidence = rng.random(len(lines)) < fever_score / label_accuracy
    return lines.assign(fever_correct=lines["correct"] * evidence)


def test_a_fever_score_claim_is_judged_on_the_records_per_claim_term(tmp_path):
    """SUB from `fever_correct`, not from the label accuracy: A's labels are no better than
    B's, its evidence checks are."""
    rng = np.random.default_rng(0)
    a, b, _ = FEVER_SUB
    write_lines(
        tmp_path,
        "attconv-fever",
        _fever_lines(a, 0.6, 0.45, rng),
        _fever_lines(b, 0.6, 0.30, rng),
    )
    [outcome] = assess.assess([_claim(FEVER_SUB)], tmp_path)
    assert outcome.verdict == "confirmed"
    assert outcome.estimate == pytest.approx(0.15, abs=0.02)
    assert outcome.claim.paper_value == pytest.approx(0.3944 - 0.3775)
    [label] = [
        c
        for c in select()
        if (c.a, c.b, c.metric) == (a, b, "test_label_accuracy") and c.table_id == "attconv-fever"
    ]
    assert assess.assess([label], tmp_path)[0].verdict == "inconclusive"


def test_a_fever_score_claim_on_records_without_the_per_claim_term_is_not_run_saying_so(
    tmp_path,
):
    """Only that claim: the others of the report are judged."""
    a, b, _ = FEVER_SUB
    write_lines(tmp_path, "attconv-fever", row_lines(a, 0.6), row_lines(b, 0.6))
    fever, gcnn = assess.assess([_claim(FEVER_SUB), _claim(GCNN_BEATS_CNN)], tmp_path)
    assert (fever.verdict, fever.command) == ("not run", "")
    assert fever.note == (
        f"{a}: its test records hold no fever_correct, which its runs did not write "
        "(predictions/test_official.tsv); runs trained again record it"
    )
    [line] = [
        row for row in claims_report.render_paper([fever], "ATTCONV") if row.startswith("| 1 |")
    ]
    assert line.endswith(f"| not run ({fever.note}) |")
    assert gcnn.verdict == "not run" and gcnn.command  # no records of its own


def test_a_vote_is_compared_with_its_seeds_on_labels_only():
    with pytest.raises(ValueError, match="accuracy or F1, not fever_correct"):
        records.vote_comparison(pd.DataFrame(), [], "fever_correct")


def test_a_fever_score_claim_without_records_names_its_command_and_missing_data(tmp_path):
    [outcome] = assess.assess([_claim(FEVER_SUB)], tmp_path, data_dir=tmp_path)
    assert outcome.verdict == "not run"
    assert "--table=attconv-fever" in outcome.command
    assert outcome.missing_data.startswith("fever (")


def test_a_parameter_claim_compares_the_counts_of_the_built_models(tmp_path):
    key = ("clstm/snli/lc_lstms", "clstm/snli/attention_lstms_rocktaschel_et_al_2015", "params")
    [outcome] = assess.assess([_claim(key)], tmp_path)
    # LC with two LSTMs (85,000 weights, docs/clstm.md) against attention LSTMs.
    assert outcome.sample.startswith("85,000 vs ")
    assert outcome.verdict == "confirmed" and outcome.estimate < 1 and outcome.low is None
    # A count that differs from the paper's says so, with the listed reason.
    assert "A: paper 45K, ours 85,000, no match: text reading: separate weights" in outcome.note
    assert outcome.claim.paper_value == pytest.approx(45_000 / 252_000)


@pytest.mark.parametrize("gain_tc,verdict", [(0.10, "confirmed"), (-0.10, "contradicted")])
def test_a_contrast_of_four_rows_gets_its_verdict_from_the_records(tmp_path, gain_tc, verdict):
    [claim] = [c for c in select("C-LSTMs") if c.c is not None]
    rng = np.random.default_rng(0)
    accuracies = (0.70 + gain_tc, 0.70, 0.72, 0.72)  # LC gains nothing from four directions
    write_lines(
        tmp_path,
        "c-lstms-snli",
        *(row_lines(row, acc, rng=rng) for row, acc in zip(claim.rows, accuracies)),
    )
    [outcome] = assess.assess([claim], tmp_path)
    assert outcome.verdict == verdict
    assert outcome.estimate == pytest.approx(gain_tc, abs=0.03)
    assert outcome.low < outcome.estimate < outcome.high
    assert outcome.sample == "5 vs 5 vs 5 vs 5 seeds, 2000 units"
    [missing] = assess.assess([claim], tmp_path / "empty")
    assert missing.verdict == "not run"
    assert "--rows=tc_lstms,tc_lstms_single_direction,lc_lstms,lc_lstms_single_direction" in (
        missing.command
    )


def test_a_contrast_of_capped_rows_says_each_row_s_shortfall(tmp_path):
    [claim] = [c for c in select("C-LSTMs") if c.c is not None]
    capped = [
        row_lines(row, 0.7).assign(config="low-resource-e100-epochs2", max_epochs=2, epochs=2)
        for row in claim.rows
    ]
    write_lines(tmp_path, "c-lstms-snli", *capped)
    record = [
        {
            "name": row,
            "configuration": "low-resource-seed*-e100-epochs2",
            "seeds": [1, 2, 3, 4, 5],
            "best_epoch": [2] * 5,
            "epochs_run": [2] * 5,
            "epoch_cap": 2,
            "seconds_per_epoch": [360.0, 1.0],
            "provenance": [],
        }
        for row in claim.rows
    ]
    (tmp_path / "c-lstms-snli-low-resource.json").write_text(json.dumps(record))
    [outcome] = assess.assess([claim], tmp_path)
    assert outcome.verdict == "undertrained at this budget"
    for label in "ABCD":
        assert f"{label} 5 of 5 seeds short by 5 epochs (selected 2, 2, 2, 2, 2; cap 2 of 20" in (
            outcome.note
        )
    # Four rows, five seeds each of 7 epochs (2 + the patience) of 0.1 h.
    assert outcome.hours == pytest.approx(14.0)


def test_a_row_against_the_majority_class_reads_the_floor_predictions(tmp_path):
    key = ("attconv/snli/w_o_context_i_e_hypothesis_only", "majority class", "test_accuracy")
    claim = _claim(key)
    rows = row_lines(claim.a, 0.6, units=300)
    write_lines(tmp_path, "attconv-snli", rows)
    gold = ["same"] * 100 + ["different"] * 200  # the majority label is right on a third
    floor_lines = pd.DataFrame(
        {
            "split": "test",
            "uid": [f"u{i}" for i in range(300)],
            "gold": gold,
            "majority": "same",
            "tfidf_lr": "same",
        }
    )
    path = floor.predictions_path(tmp_path, "attconv-snli", "low-resource")
    path.parent.mkdir(parents=True, exist_ok=True)
    floor_lines.to_csv(path, index=False)
    [outcome] = assess.assess([claim], tmp_path)
    assert outcome.verdict == "confirmed"
    assert outcome.estimate == pytest.approx(0.6 - 1 / 3, abs=0.05)
    assert outcome.sample == "5 seeds vs one fixed prediction, 300 units"
    assert claim.paper_value == pytest.approx(0.687 - 0.343)
    [missing] = assess.assess([claim], tmp_path / "empty")
    assert "--rows=w_o_context_i_e_hypothesis_only " in missing.command


def test_the_markdown_counts_and_lists_every_claim(tmp_path):
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9), row_lines(b, 0.7))
    claims = select("GCNN")
    outcomes = assess.assess(claims, tmp_path)
    text = claims_report.render_markdown(
        outcomes, "make claims", {"GCNN": "figures/claims-gcnn.png"}
    )
    assert _counted(text, "confirmed") == {**NONE, "GCNN": 1, "accuracy-like": 1, "all": 1}
    assert _counted(text, "cited row, not reproduced")["GCNN"] == 2
    assert _counted(text, "not run")["GCNN"] == 18
    assert _counted(text, "claims")["ATTCONV"] == 0
    assert "![GCNN: our Δ beside the paper's](figures/claims-gcnn.png)" in text
    [line] = [row for row in text.splitlines() if '<a id="gcnn-gcnn-beats-cnn-quora"></a>' in row]
    assert line.startswith("| 1 | GCNN beats CNN")
    assert "GCNN beats CNN: GCNN vs CNN (quora, test_accuracy)" in line
    assert "| +0.74 | +20." in line and "| **confirmed** |" in line
    assert "“In Table 2, the results again demonstrate the superiority" in line
    assert (
        "not run: `python experiments/reproduce.py --table=gcnn-quora --rows=glu "
        "--scale=low-resource --seeds=1,2,3,4,5`"
    ) in text
    counts_rows = 1 + len(verdicts.VERDICTS) + 2  # header, verdicts, method sentences, claims
    rows = [row for row in text.splitlines() if row.startswith("| ")]
    assert len(rows) == counts_rows + 1 + len(claims)


@pytest.mark.slow
def test_the_forest_plot_is_written(tmp_path):
    a, b = GCNN_BEATS_CNN[:2]
    write_lines(tmp_path, "gcnn-quora", row_lines(a, 0.9), row_lines(b, 0.7))
    outcomes = assess.assess(select("GCNN"), tmp_path)
    path = claims_report.plot_forest(
        outcomes, claims_report.figure_path(tmp_path / "figures", "GCNN"), "GCNN"
    )
    assert path.name == "claims-gcnn.png"
    assert path.read_bytes().startswith(b"\x89PNG") and path.stat().st_size > 10_000


@pytest.mark.slow
def test_make_claims_renders_from_the_records_alone(tmp_path):
    """experiments/claims.py in a fresh process: CLAIMS.md and one figure per paper."""
    a, b = GCNN_BEATS_CNN[:2]
    results = tmp_path / "results"
    write_lines(results, "gcnn-quora", row_lines(a, 0.9), row_lines(b, 0.7))
    output = tmp_path / "CLAIMS.md"
    readme, design = tmp_path / "README.md", tmp_path / "design.md"
    for path in (readme, design):
        path.write_text("# Document\n")
    done = subprocess.run(
        [
            sys.executable,
            "experiments/claims.py",
            f"--results_dir={results}",
            f"--output={output}",
            f"--figures_dir={tmp_path / 'figures'}",
            f"--readme={readme}",
            f"--design_doc={design}",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    glance = readme.read_text().split("<!-- begin claims-glance -->\n")[1]
    assert glance.startswith("| verdict | accuracy-like | time | parameters | all |")
    assert _counted(glance, "confirmed")["accuracy-like"] == 1
    rule = design.read_text().split("<!-- begin claims-rule -->\n")[1].split("<!-- end")[0]
    assert rule.splitlines() == verdicts.rule_lines()
    confirmed = _counted(done.stdout, "confirmed")
    assert (confirmed["GCNN"], confirmed["accuracy-like"]) == (1, 1)  # counts need no records
    assert "![GCNN: our Δ beside the paper's](figures/claims-gcnn.png)" in output.read_text()
    assert sorted(p.name for p in (tmp_path / "figures").iterdir()) == [
        "claims-attconv.png",
        "claims-c-lstms.png",
        "claims-coin.png",
        "claims-gcnn.png",
    ]
    bad = subprocess.run(
        [sys.executable, "experiments/claims.py", "--scales=huge"], capture_output=True, text=True
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: --scales: 'huge'")
    missing = tmp_path / "no such folder"
    bad = subprocess.run(
        [sys.executable, "experiments/claims.py", f"--data_dir={missing}"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and bad.stderr.startswith("error: --data_dir: ")
    assert "not a folder" in bad.stderr and "Traceback" not in bad.stderr
