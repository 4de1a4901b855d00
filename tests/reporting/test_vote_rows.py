"""Rows that report other rows' runs: COIN's 5-seed majority vote and its "original" ablation."""

import json

import numpy as np

from gcnn_match.evidence.runs import collect
from gcnn_match.experiments import registry
from gcnn_match.reporting import tables
from tests.reporting.finished_runs import finished_run


def test_coin_vote_and_alias_rows_point_at_the_single_model_row():
    for dataset in ("quora", "lcqmc"):
        vote = registry.get(f"coin/{dataset}/coin_ensemble")
        assert (vote.row, vote.runs_of, vote.ensemble_size) == (
            "COIN (ensemble)",
            f"coin/{dataset}/coin_ours",
            5,
        )
        assert registry.get(f"coin/{dataset}/ablation_original").runs_of == vote.runs_of
        assert registry.get(f"coin/{dataset}/ablation_simple_pool").runs_of is None
    assert registry.get("coin/quora/coin_ensemble").targets["test_accuracy"] == 0.907


def test_vote_row_reports_the_majority_of_its_members(tmp_path):
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 2, 40)
    predicted = [np.where(rng.random(40) < 0.7, gold, 1 - gold) for _ in range(5)]
    dirs = [finished_run(tmp_path, s + 1, gold, p) for s, p in enumerate(predicted)]
    vote = registry.get("coin/lcqmc/coin_ensemble")
    [row] = collect([vote], {vote.name: dirs})

    majority = (np.sum(predicted, axis=0) >= 3).astype(int)  # 5 voters: no ties
    assert row["test_accuracy"][0] == np.mean(majority == gold)
    assert row["dev_accuracy"][0] == np.mean(majority == gold)
    assert row["trainable_params_without_embeddings"] == 5 * 60
    assert row["seconds_per_epoch"][0] == np.mean([11, 12, 13, 14, 15])
    # The vote ran the epochs of the seeds it votes over.
    assert (row["epochs_run"], row["best_epoch"]) == ([3, 4, 5, 6, 7], [2, 3, 4, 5, 6])
    assert "| COIN (ensemble) |" in tables.render_markdown([row])
    assert "vote of 5" in tables.render_markdown([row])


def test_vote_row_waits_for_all_members(tmp_path):
    gold = np.array([0, 1, 1])
    dirs = [finished_run(tmp_path, s, gold, gold) for s in (1, 2)]
    vote = registry.get("coin/lcqmc/coin_ensemble")
    [row] = collect([vote], {vote.name: dirs})
    assert row["runs"] == 0 and "not run" in tables.render_markdown([row])


def test_table_names_the_command_that_trained_each_run(tmp_path):
    gold = np.array([0, 1, 1])
    dirs = [finished_run(tmp_path, s, gold, gold) for s in (1, 2)]
    for seed, run in enumerate(dirs, 1):
        argv = [
            "/repo/experiments/reproduce.py",
            "--dataset=lcqmc",
            f"--seeds={seed}",
            "--rows=COIN (ours)",
            "--noestimate",
        ]
        (run / "environment.json").write_text(json.dumps({"argv": argv}), "utf-8")
    single = registry.get("coin/lcqmc/coin_ours")
    [row] = collect([single], {single.name: dirs})
    text = tables.render_markdown([row], command="python experiments/reproduce.py --report_only")
    assert "|\n\n- Rendered by `python experiments/reproduce.py --report_only` on " in text
    # One command per seed, on one line: the first in full, the other by its seeds.
    assert (
        "- Trained by: `python experiments/reproduce.py --dataset=lcqmc --seeds=1 "
        "'--rows=COIN (ours)'`, and the same with `--seeds=2`\n"
    ) in text
