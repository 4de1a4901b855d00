"""The verdict rules (claims/verdicts.py) on synthetic records with known answers."""

import json

import numpy as np
import pandas as pd
import pytest

from gcnn_match.claims import assess, parameters, records, timing, verdicts
from gcnn_match.claims.floor_check import FloorCheck
from gcnn_match.claims.registry import select
from gcnn_match.evidence import runs, statistics
from gcnn_match.experiments import registry as experiments
from gcnn_match.training.metrics import f1
from tests.claims.synthetic_records import row_lines, write_lines

GCNN, CNN = "gcnn/quora/gcnn", "gcnn/quora/cnn"


def _claim(a, b, metric="test_accuracy"):
    return next(c for c in select() if (c.a, c.b, c.metric) == (a, b, metric))


@pytest.mark.parametrize(
    "selected,run,cap,registered,short",
    [
        (2, 6, None, 20, 0),  # the registered schedule
        (2, 4, 6, 20, 0),  # stopped early itself
        (1, 6, 6, 20, 0),  # early stopping would have ended it at epoch 6
        (2, 6, 6, 20, 1),  # it would have run to epoch 7
        (6, 6, 6, 20, 5),
        (5, 6, 6, 8, 2),  # the schedule ends first
        (2, 2, 2, 20, 5),
        (2, 6, runs.UNKNOWN_CAP, 20, 1),  # a cap the records cannot tell: where the run ended
        (1, 6, runs.UNKNOWN_CAP, 20, 0),
        (2, 20, runs.UNKNOWN_CAP, 20, 0),
    ],
)
def test_a_capped_run_is_short_until_its_early_stopping_would_end_it(
    selected, run, cap, registered, short
):
    assert verdicts.shortfall(selected, run, cap, registered, patience=5) == short


def test_a_row_is_undertrained_when_most_seeds_are_short_and_its_hours_are_estimated():
    def schedule(selected):
        return verdicts.Schedule("r", 20, 5, 6, selected, (6,) * 5, seconds_per_epoch=360.0)

    assert schedule((1, 1, 2, 2, 2)).undertrained
    assert not schedule((1, 1, 1, 2, 2)).undertrained
    # Every seed reruns to its selected epoch plus the patience: 6+6+7+7+7 epochs of 0.1 h,
    # 6.6 epochs a seed on average.
    assert schedule((1, 1, 2, 2, 2)).hours(5) == pytest.approx(3.3)
    assert schedule((1, 1, 2, 2, 2)).hours(2) == pytest.approx(1.32)
    assert schedule((1, 1, 2, 2, 2)).describe() == (
        "3 of 5 seeds short by 1 epochs (selected 1, 1, 2, 2, 2; cap 6 of 20, patience 5)"
    )


@pytest.mark.parametrize(
    "recorded,cap",
    [
        ({"commands": ["python experiments/reproduce.py --table=gcnn-quora --epochs=6"]}, 6),
        ({"provenance": [{"command": None}] * 3}, runs.UNKNOWN_CAP),
    ],
)
def test_a_run_set_without_its_cap_recorded_is_read_by_its_commands(recorded, cap):
    # Seeds that ran 6 of 20 epochs and selected epoch 4 or 5 (patience 5): short under a cap
    # of 6, which the records hold only in the commands that trained them, if at all.
    config = experiments.get("gcnn/quora/gcnn")
    assert (config.epochs, config.early_stopping_patience) == (20, 5)
    run_set = {"best_epoch": [4, 5, 5], "epochs_run": [6, 6, 6], **recorded}
    found = verdicts.schedule(config, run_set)
    assert found.cap == cap
    assert found.undertrained


def test_two_rows_below_the_majority_class_are_below_floor():
    floors = (("majority class", 0.6), ("TF-IDF + LR", 0.7))
    assert verdicts.below_floor(FloorCheck((0.55, 0.5), floors))
    assert not verdicts.below_floor(FloorCheck((0.65, 0.5), floors))
    assert not verdicts.below_floor(FloorCheck((0.55, 0.5), ()))


def test_the_paper_s_size_is_set_against_our_interval():
    claim = _claim(GCNN, CNN)  # the paper's Δ: +0.74 points
    assert verdicts.size_label(claim, -0.001, 0.02) == verdicts.CONSISTENT
    assert verdicts.size_label(claim, 0.05, 0.09) == verdicts.SIZE_DIFFERS
    assert verdicts.size_label(claim, -0.05, -0.01) == verdicts.NOT_THE_PAPERS


def test_holm_adjusts_in_step_down_order():
    adjusted = verdicts.holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_the_holm_family_reads_the_side_the_draws_lean_to():
    claim = _claim(GCNN, CNN)  # GCNN > CNN
    # 99% of the draws below 0: the claimed side's p is 0.99, the contradicting side's 0.01.
    against = np.where(np.arange(1000) < 990, -1.0, 1.0)
    assert verdicts.tails(against, claim) == pytest.approx([0.99, 0.01])
    assert verdicts.leaning_p(against, claim) == pytest.approx(0.01)
    assert verdicts.leaning_p(-against, claim) == pytest.approx(0.01)  # the claimed side


def test_an_equivalence_is_contradicted_on_the_side_beyond_its_margin():
    claim = next(c for c in select() if c.expected == "equivalent")
    beyond = np.full(1000, claim.margin * 2)
    beyond[:10] = 0.0  # 1% of the draws inside the margin
    claimed, inside_above, inside_below = verdicts.tails(beyond, claim)
    assert claimed == pytest.approx(0.99)  # beyond +margin
    assert inside_above == pytest.approx(0.01)
    assert inside_below == pytest.approx(1.0)
    assert verdicts.leaning_p(beyond, claim) == pytest.approx(0.01)


def test_a_p_within_monte_carlo_error_of_the_tail_is_borderline():
    claim = _claim(GCNN, CNN)
    draws = 10_000
    # 2.5% of the replicates at or below 0: exactly at the tail.
    at_tail = np.where(np.arange(draws) < 250, -1.0, 1.0)
    assert verdicts.p_value(at_tail, claim) == pytest.approx(0.025)
    assert verdicts.borderline(at_tail, claim)
    # 2%: 5 standard errors (0.0014) away from 0.025.
    assert not verdicts.borderline(np.where(np.arange(draws) < 200, -1.0, 1.0), claim)
    assert not verdicts.borderline(np.ones(draws), claim)


def test_a_vote_is_recomputed_from_the_drawn_seeds():
    rng = np.random.default_rng(0)
    gold = np.ones(3000, int)
    same = np.tile((rng.random(3000) < 0.8).astype(int), (5, 1))
    # Five identical members: their vote is each of them.
    alike = statistics.compare_vote(same, gold, resamples=500)
    assert (alike.estimate, alike.low, alike.high) == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    independent = (rng.random((5, 3000)) < 0.8).astype(int)
    gain = statistics.compare_vote(independent, gold, resamples=500)
    # The vote of 5 independent 80% voters is right with probability 0.942.
    assert gain.estimate == pytest.approx(0.142, abs=0.02)
    assert gain.low < gain.estimate < gain.high and gain.verdict == "confirmed"
    assert gain.seed_variance


def test_a_vote_s_f1_gain_is_recomputed_from_the_drawn_seeds():
    rng = np.random.default_rng(1)
    gold = rng.integers(0, 2, 3000)
    same = np.tile(np.where(rng.random(3000) < 0.8, gold, 1 - gold), (5, 1))
    alike = statistics.compare_vote(same, gold, resamples=500, positive=1)
    assert (alike.estimate, alike.low, alike.high) == pytest.approx((0.0, 0.0, 0.0), abs=1e-12)
    independent = np.where(rng.random((5, 3000)) < 0.8, gold, 1 - gold)
    gain = statistics.compare_vote(independent, gold, resamples=500, positive=1)
    vote = (independent.sum(axis=0) >= 3).astype(int)
    members = np.mean([f1(gold, seed, positive=1) for seed in independent])
    assert gain.estimate == pytest.approx(f1(gold, vote, positive=1) - members)
    assert gain.low < gain.estimate < gain.high and gain.verdict == "confirmed"


def _record(results_dir, row, selected, cap, seconds_per_epoch=100.0):
    record = [
        {
            "name": row,
            "configuration": f"low-resource-seed*-e300-epochs{cap}",
            "seeds": [1, 2, 3, 4, 5],
            "best_epoch": selected,
            "epochs_run": [cap] * 5,
            "epoch_cap": cap,
            "seconds_per_epoch": [seconds_per_epoch, 1.0],
            "provenance": [],
        }
    ]
    path = results_dir / "gcnn-quora-low-resource.json"
    earlier = json.loads(path.read_text()) if path.exists() else []
    path.write_text(json.dumps(earlier + record))


def _capped(frame, cap=6):
    return frame.assign(config=f"low-resource-e300-epochs{cap}", max_epochs=cap, epochs=cap)


@pytest.mark.slow  # assesses every claim of a table
def test_a_claim_on_an_undertrained_row_is_neither_confirmed_nor_contradicted(tmp_path):
    write_lines(tmp_path, "gcnn-quora", _capped(row_lines(GCNN, 0.9)), _capped(row_lines(CNN, 0.7)))
    _record(tmp_path, GCNN, [1, 1, 1, 1, 1], 6)
    _record(tmp_path, CNN, [1, 1, 3, 3, 3], 6)
    [outcome] = assess.assess([_claim(GCNN, CNN)], tmp_path)
    assert outcome.verdict == verdicts.UNDERTRAINED
    # The claim sets like against like, so both rows train to their schedule: CNN reruns
    # 6 + 6 + 8 + 8 + 8 epochs of 100 s, GCNN 5 x 6.
    assert outcome.command == (
        "python experiments/reproduce.py --table=gcnn-quora --rows=gcnn,cnn "
        "--scale=low-resource --seeds=1,2,3,4,5"
    )
    assert outcome.hours == pytest.approx(1.0 + 5 / 6)
    assert "B 3 of 5 seeds short by 2 epochs" in outcome.note
    # A row with five seeds at its registered schedule already is not trained again.
    write_lines(
        tmp_path,
        "gcnn-quora",
        _capped(row_lines(GCNN, 0.9)),
        row_lines(GCNN, 0.9),
        _capped(row_lines(CNN, 0.7)),
    )
    [outcome] = assess.assess([_claim(GCNN, CNN)], tmp_path)
    assert outcome.verdict == verdicts.UNDERTRAINED
    assert "--rows=cnn " in outcome.command and outcome.hours == pytest.approx(1.0)
    # The same runs, complete by their early stopping, keep their verdict.
    (tmp_path / "gcnn-quora-low-resource.json").unlink()
    _record(tmp_path, GCNN, [1, 1, 1, 1, 1], 6)
    _record(tmp_path, CNN, [1, 1, 1, 3, 3], 6)
    [complete] = assess.assess([_claim(GCNN, CNN)], tmp_path)
    assert complete.verdict == "confirmed" and complete.hours is None


def test_seeds_part_way_to_the_schedule_leave_the_complete_capped_set_judged(tmp_path):
    # GCNN: five seeds under a cap of 6 (short of their schedule) and one seed trained to its
    # schedule; CNN: five seeds at its schedule, the config GCNN's one seed shares.
    write_lines(
        tmp_path,
        "gcnn-quora",
        _capped(row_lines(GCNN, 0.9)),
        row_lines(GCNN, 0.9, seeds=1),
        row_lines(CNN, 0.7),
    )
    _record(tmp_path, GCNN, [3, 3, 3, 3, 3], 6)
    uncapped = {
        "name": GCNN,
        "configuration": "low-resource-seed*-e300",
        "seeds": [1],
        "best_epoch": [8],
        "epochs_run": [13],
        "epoch_cap": None,
        "seconds_per_epoch": [150.0, 0.0],
        "provenance": [],
    }
    path = tmp_path / "gcnn-quora-low-resource.json"
    path.write_text(json.dumps(json.loads(path.read_text()) + [uncapped]))
    [outcome] = assess.assess([_claim(GCNN, CNN)], tmp_path)
    # Five capped seeds against five, not one seed against five.
    assert outcome.sample.startswith("5 vs 5 seeds")
    assert outcome.verdict == verdicts.UNDERTRAINED
    assert "configs differ" in outcome.note
    assert "gcnn/quora/gcnn: 1 of 5 seeds trained to its schedule" in outcome.note
    # The command trains only the seeds the record lacks.
    assert outcome.command.endswith(
        "--rows=gcnn --scale=low-resource --seeds=1,2,3,4,5 --skip_recorded"
    )
    # The four seeds left, timed by the seed at the schedule: 13 epochs of 150 s each.
    assert outcome.hours == pytest.approx(4 * 13 * 150 / 3600)


def test_a_row_recorded_without_predictions_trains_again_with_the_seeds_already_recorded(
    tmp_path,
):
    # GCNN: one seed at its schedule; CNN: five seeds whose run set holds no test predictions.
    write_lines(tmp_path, "gcnn-quora", row_lines(GCNN, 0.9, seeds=1))
    _record(tmp_path, CNN, [3, 3, 3, 3, 3], 6)
    [outcome] = assess.assess([_claim(GCNN, CNN)], tmp_path)
    assert outcome.verdict == "not run"
    assert outcome.note.endswith(
        "gcnn/quora/gcnn: 1 of 5 seeds trained to its schedule; "
        "gcnn/quora/cnn: 5 seeds recorded without per-example test predictions"
    )
    # --skip_recorded would skip CNN's recorded seeds, which must train again to be judged.
    assert outcome.command.endswith("--rows=gcnn,cnn --scale=low-resource --seeds=1,2,3,4,5")


def test_a_vote_counts_as_the_complete_set_it_was_voted_from():
    vote = row_lines("coin/quora/coin_ensemble", 0.9, seeds=1).assign(
        seed=0, config="low-resource-e300-vote"
    )
    partial = row_lines(GCNN, 0.8, seeds=1)  # one seed in the vote's members' config
    own = _capped(row_lines(GCNN, 0.8))  # five seeds under a cap
    # The shared config gives the other row 1 seed, its own 5: the vote does not hold it back.
    compared = records.compared_configs(vote, pd.concat([partial, own]))
    assert compared[1]["seed"].nunique() == 5
    # Where the shared config is complete it is the one read.
    compared = records.compared_configs(vote, pd.concat([row_lines(GCNN, 0.8), own]))
    assert set(compared[1]["config"]) == {"low-resource-e300"}


def test_a_claim_is_not_judged_on_the_split_that_selected_the_checkpoint(tmp_path):
    a, b = "coin/quora/ablation_original", "coin/quora/ablation_simple_fusion"
    write_lines(
        tmp_path, "coin-quora-ablations", row_lines(a, 0.9, "dev"), row_lines(b, 0.5, "dev")
    )
    [outcome] = assess.assess([_claim(a, b, "dev_accuracy")], tmp_path)
    assert outcome.verdict == "not run"
    assert outcome.note == "test predictions not recorded; the dev split selected the checkpoint"
    assert outcome.command.endswith(
        "--rows=ablation_original,ablation_simple_fusion --scale=low-resource --seeds=1,2,3,4,5"
    )
    write_lines(
        tmp_path,
        "coin-quora-ablations",
        row_lines(a, 0.9, "dev"),
        row_lines(b, 0.5, "dev"),
        row_lines(a, 0.6, "test"),
        row_lines(b, 0.7, "test"),
    )
    [on_test] = assess.assess([_claim(a, b, "dev_accuracy")], tmp_path)
    assert on_test.verdict == "contradicted" and on_test.estimate < 0


def _write_bench(results_dir, rates, environment, steps=20, name="bench.json"):
    """A step bench record of rows {name: pairs per second}, `steps` timed steps each."""
    rng = np.random.default_rng(0)
    bench = {
        "results": [
            {
                "name": row,
                "train_pairs_per_second_bucket": rate,
                "timed_steps_bucket": steps,
                "environment": environment,
                "train_step_seconds_bucket": list(rng.lognormal(0.0, 0.1, steps)),
            }
            for row, rate in rates.items()
        ]
    }
    (results_dir / name).write_text(json.dumps(bench))


def test_a_bench_record_whose_row_failed_does_not_count_as_measuring_it(tmp_path):
    claim = _claim("gcnn/quora/esim_our_implement", GCNN, "seconds_per_epoch")
    cpu = {"cpu": "CPU X", "cpu_count": 2, "gpus": []}
    _write_bench(tmp_path, {claim.a: 400.0, claim.b: 100.0}, cpu, name="bench-b.json")
    failed = {"results": [{"name": claim.a, "error": "OOM"}, {"name": claim.b, "error": "OOM"}]}
    (tmp_path / "bench-a.json").write_text(json.dumps(failed))
    [outcome] = assess.assess([claim], tmp_path)
    assert outcome.also_measured.startswith("bench-b.json: ")


def test_the_bench_record_with_the_most_timed_steps_is_the_one_read(tmp_path):
    claim = _claim("gcnn/quora/esim_our_implement", GCNN, "seconds_per_epoch")
    cpu = {"cpu": "CPU X", "cpu_count": 2, "gpus": []}
    # The first file by name timed fewer steps (and saw another ratio) than the second.
    _write_bench(tmp_path, {claim.a: 100.0, claim.b: 100.0}, cpu, steps=5, name="bench-a.json")
    _write_bench(tmp_path, {claim.a: 400.0, claim.b: 100.0}, cpu, steps=10, name="bench-b.json")
    [outcome] = assess.assess([claim], tmp_path)
    assert outcome.also_measured.startswith("bench-b.json: ")
    assert "CPU X (2 cores): 0.25×" in outcome.also_measured


def test_a_bench_on_the_paper_s_device_is_judged_with_other_records_beside_it(tmp_path):
    claim = _claim("gcnn/quora/esim_our_implement", GCNN, "seconds_per_epoch")
    gpu = {"cpu": "CPU X", "cpu_count": 16, "gpus": ["GPU Z"]}
    _write_bench(tmp_path, {claim.a: 100.0, claim.b: 400.0}, gpu)
    epochs = {
        "device": "CPU W",
        "rows": [
            {"name": name, "epochs": [{"epoch": e, "train_seconds": t} for e in range(1, 5)]}
            for name, t in ((claim.a, 2.0), (claim.b, 1.0))
        ],
    }
    (tmp_path / "epoch-times-cpu.json").write_text(json.dumps(epochs))
    [outcome] = assess.assess([claim], tmp_path)
    assert outcome.sample == "20 vs 20 timed steps" and outcome.verdict == "confirmed"
    assert outcome.also_measured.startswith("epoch-times-cpu.json: ")
    assert outcome.also_measured.endswith(
        f"CPU W: 2.00× [2.00×, 2.00×], {timing.ANOTHER_DEVICE}: not judged"
    )


def test_a_time_claim_is_never_judged_on_another_kind_of_device(tmp_path):
    claim = _claim("gcnn/quora/esim_our_implement", GCNN, "seconds_per_epoch")
    cpu = {"cpu": "CPU X", "cpu_count": 2, "gpus": []}
    _write_bench(tmp_path, {claim.a: 400.0, claim.b: 100.0}, cpu)
    [cpu_only] = assess.assess([claim], tmp_path)
    assert cpu_only.verdict == "not run" and cpu_only.estimate is None
    assert "CPU X (2 cores): 0.25×" in cpu_only.also_measured
    epochs = {
        "device": "NVIDIA X",
        "rows": [
            {
                "name": name,
                "epochs": [
                    {"epoch": e, "train_seconds": scale * (1 + e % 2 / 100)} for e in range(1, 7)
                ],
            }
            for name, scale in ((claim.a, 4.0), (claim.b, 1.0))
        ],
    }
    (tmp_path / "epoch-times-gpu.json").write_text(json.dumps(epochs))
    [gpu] = assess.assess([claim], tmp_path)
    assert gpu.verdict == "confirmed" and gpu.estimate == pytest.approx(4.0)
    assert gpu.sample == "5 vs 5 epochs" and gpu.also_measured == cpu_only.also_measured
    # A second GPU record, with fewer epochs, is shown beside the one judged.
    epochs["device"] = "NVIDIA Y"
    for row in epochs["rows"]:
        row["epochs"] = row["epochs"][:3]
    (tmp_path / "epoch-times-gpu-y.json").write_text(json.dumps(epochs))
    [both] = assess.assess([claim], tmp_path)
    assert (both.verdict, both.sample) == ("confirmed", "5 vs 5 epochs")
    assert "NVIDIA Y: 4.00× [" in both.also_measured
    assert f"{timing.ANOTHER_RECORD}: not judged<br>" in both.also_measured


@pytest.mark.parametrize(
    "light,apcnn,expected",
    [
        (300_000, 360_000, "confirmed"),
        (360_000, 360_000, "contradicted"),
        (400_000, 360_000, "contradicted"),
    ],
)
def test_exact_counts_confirm_fewer_only_when_strictly_fewer(monkeypatch, light, apcnn, expected):
    """Counts of built models are exact: two equal ones contradict "fewer parameters" rather
    than leave it inconclusive."""
    claim = _claim(
        "attconv/snli/attconv_light", "attconv/snli/apcnn_dos_santos_et_al_2016", "params"
    )
    counts = {claim.a: light, claim.b: apcnn}
    monkeypatch.setattr(parameters.param_counts, "row_count", lambda config: counts[config.name])
    monkeypatch.setattr(parameters.param_counts, "mismatch", lambda config, count: None)
    assert parameters.assess_params(claim).reading == expected
