"""Learning curves: nested subsets, the record and its section, the verdict rule, and one tiny
end-to-end run (docs/design.md#learning-curves)."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from gcnn_match.baselines import floor
from gcnn_match.claims import learning_curves as curve_records
from gcnn_match.config.overrides import OverrideError, default_run_dir
from gcnn_match.data.experiment_data import apply_scale, prepare_data
from gcnn_match.data.splits import nested_subset
from gcnn_match.evidence import predictions
from gcnn_match.experiments import curves, driver, registry
from gcnn_match.reporting import learning_curves as report
from tests.conftest import REPO, subprocess_env

LIGHT, HYPOTHESIS = "attconv/snli/attconv_light", "attconv/snli/w_o_context_i_e_hypothesis_only"
TOY = curves.Curve(
    name="toy",
    title="light vs hypothesis only",
    rows=(LIGHT, HYPOTHESIS),
    gaps=((LIGHT, HYPOTHESIS),),
    sizes=(100, 300, None),
    seeds=(1, 2, 3),
)


def test_subsets_are_nested_and_do_not_follow_anything_but_the_split_seed():
    small, large = nested_subset(8857, 1000, 0), nested_subset(8857, 3000, 0)
    assert len(small) == 1000 and set(small) < set(large) and small == sorted(small)
    assert nested_subset(8857, 1000, 0) == small
    assert nested_subset(8857, 1000, 1) != small
    assert nested_subset(50, 100, 0) == list(range(50))


def test_the_field_names_the_run_directory_and_a_ranking_row_refuses_it():
    registered = registry.get(LIGHT)
    config = registered.replace(scale="low-resource", seed=2, train_pairs=1000)
    assert default_run_dir("runs", registered, config).name == (
        "low-resource-seed2-e300-train_pairs1000"
    )
    with pytest.raises(ValueError, match="ranking row trains on whole questions"):
        registry.get("clstm/wikiqa/nbow").replace(train_pairs=100)
    with pytest.raises(OverrideError, match="sets train_pairs itself"):
        curves.planned(TOY, (1,), "runs", [("train_pairs", 5)])


def test_the_registered_curves_plan_the_tables_runs_for_the_whole_part():
    plan = curves.planned(curves.get("gcnn-quora"), (1,), "runs")
    names = {size: runs[0][1].name for (row, size), runs in plan.items() if row.endswith("/gcnn")}
    assert names == {
        1000: "low-resource-seed1-e300-train_pairs1000",
        3000: "low-resource-seed1-e300-train_pairs3000",
        None: "low-resource-seed1-e300",
    }
    assert set(curves.names()) == {"gcnn-quora", "attconv-snli", "coin-quora"}


def test_real_subsets_are_nested_across_sizes_and_seeds_and_apart_from_selection_and_test(
    shared_data,
):
    def roles(size, seed):
        config = apply_scale(
            registry.get(LIGHT).replace(scale="low-resource", seed=seed, train_pairs=size)
        )
        splits = prepare_data(config, shared_data).splits
        return {role: set(split.uids) for role, split in splits.items()}

    small, small_other_seed, large = roles(1000, 1), roles(1000, 2), roles(3000, 1)
    assert len(small["train"]) == 1000 and len(large["train"]) == 3000
    assert small["train"] == small_other_seed["train"] and small["train"] < large["train"]
    assert small["dev"] == large["dev"] and small["test"] == large["test"]
    assert not large["train"] & (large["dev"] | large["test"])


def _synthetic(gap_at, units=4000, seeds=(1, 2, 3), base=0.6):
    """(record runs, prediction lines) of TOY: B scores `base`, A `base` + gap_at[size]; each
    seed a fresh draw of which units are correct."""
    rng = np.random.default_rng(0)
    runs, frames = [], []
    for size, gap in gap_at.items():
        config = "low-resource-e300" + (f"-train_pairs{size}" if size else "")
        pairs = size or 8857
        for row, accuracy in ((LIGHT, base + gap), (HYPOTHESIS, base)):
            for seed in seeds:
                correct = (rng.random(units) < accuracy).astype(int)
                runs.append(
                    {
                        "row": row,
                        "size": size,
                        "seed": seed,
                        "config": config,
                        "train_pairs": pairs,
                        "test_pairs": units,
                        "test_accuracy": float(correct.mean()),
                        "epochs_run": 7,
                        "max_epochs": 100,
                        "registered_epochs": 100,
                        "machine": "test machine",
                        "command": "python experiments/curves.py --curve=toy",
                    }
                )
                frames.append(
                    pd.DataFrame(
                        {
                            "row": row,
                            "seed": seed,
                            "config": config,
                            "epochs": 7,
                            "max_epochs": 100,
                            "split": "test",
                            "uid": [f"u{i}" for i in range(units)],
                            "gold": "",
                            "predicted": "",
                            "correct": correct,
                            "average_precision": np.nan,
                            "reciprocal_rank": np.nan,
                        }
                    )
                )
    return runs, pd.concat(frames, ignore_index=True)


def _floors(sizes=(100, 300, None), whole=8857):
    """A floors entry of the record (`compute_floors`'s) at `sizes`: majority 34%, TF-IDF + LR
    40% plus one point per size."""
    return {
        "command": "python experiments/curves.py --curve=toy --report_only",
        "selection": "held-out (dev) accuracy",
        "C_grid": [0.1, 1.0],
        "library": "scikit-learn 0",
        "sizes": [
            {
                "size": size,
                "splits": {},
                "examples": {"train": size or whole, "dev": 985, "test": 4000},
                "floors": [
                    {
                        "name": "majority",
                        "row": "reference: majority class",
                        "label": "entailment",
                        "metrics": {"test_accuracy": 0.34},
                    },
                    {
                        "name": "tfidf_lr",
                        "row": "reference: TF-IDF + LR",
                        "C": 1.0,
                        "metrics": {"test_accuracy": 0.40 + 0.01 * i},
                    },
                ],
            }
            for i, size in enumerate(sizes)
        ],
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    "gap_at, verdict",
    [
        ({100: 0.0, 300: 0.03, None: 0.08}, "opens"),
        ({100: 0.08, 300: 0.04, None: 0.0}, "closes"),
        ({100: -0.02, 300: -0.05, None: -0.08}, "closes"),  # B's lead grows: A loses ground
        ({100: 0.05, 300: 0.05, None: 0.05}, "inconclusive"),
        ({100: 0.05}, "not run"),
    ],
)
def test_the_verdict_reads_the_change_of_the_gap(gap_at, verdict):
    runs, lines = _synthetic(gap_at)
    (gap,) = curve_records.gap_statistics(TOY, runs, lines)
    assert gap["verdict"] == verdict
    assert [entry["size"] for entry in gap["sizes"]] == list(gap_at)
    if len(gap_at) > 1:
        change = gap["change"]
        assert (change["from"], change["to"]) == (100, None)
        expected = gap_at[None] - gap_at[100]
        assert change["low"] < change["estimate"] < change["high"]
        assert abs(change["estimate"] - expected) < 0.03


def _capped_at_the_whole_part(runs, cap, best_epoch=None):
    """`runs` with LIGHT's whole-part runs capped at `cap` of 100 epochs and run to it, their
    selected epoch `best_epoch` (None: not recorded)."""
    capped = dict(epochs_run=cap, max_epochs=cap)
    if best_epoch is not None:
        capped["best_epoch"] = best_epoch
    return [dict(e, **capped) if e["row"] == LIGHT and e["size"] is None else e for e in runs]


@pytest.mark.slow
def test_a_gap_read_on_runs_short_of_their_schedule_is_undertrained():
    runs, lines = _synthetic({100: 0.0, 300: 0.03, None: 0.08})
    patience = registry.get(LIGHT).early_stopping_patience
    cap = patience + 2
    capped = _capped_at_the_whole_part(runs, cap, best_epoch=cap)
    (gap,) = curve_records.gap_statistics(TOY, capped, lines)
    assert gap["verdict"] == "undertrained at this budget"
    assert gap["short"] == [
        f"{LIGHT} at the whole part: 3 of 3 seeds short by {patience} epochs (selected "
        f"{cap}, {cap}, {cap}; cap {cap} of 100, patience {patience})"
    ]
    markdown = report.render_curve(TOY, {"runs": capped, "gaps": [gap]}, "curves-toy.png")
    assert f"| **undertrained at this budget** ({gap['short'][0]}) |" in markdown
    assert f"- Undertrained: `{TOY.command()}` trains the runs to their registered" in markdown
    # Selected early enough that early stopping would have ended the runs by the cap: complete.
    complete = _capped_at_the_whole_part(runs, cap, best_epoch=2)
    (gap,) = curve_records.gap_statistics(TOY, complete, lines)
    assert gap["verdict"] == "opens" and "short" not in gap
    # Recorded without the selected epoch: taken as its last, so short.
    unknown = _capped_at_the_whole_part(runs, cap)
    (gap,) = curve_records.gap_statistics(TOY, unknown, lines)
    assert gap["verdict"] == "undertrained at this budget"
    assert gap["short"] == [
        f"{LIGHT} at the whole part: 3 seeds ran to the cap of {cap} of 100 epochs, their "
        "selected epochs not recorded"
    ]


@pytest.mark.slow
def test_the_record_round_trips_and_renders(tmp_path):
    runs, lines = _synthetic({100: 0.0, 300: 0.03, None: 0.08})
    predictions.write_record(curve_records.predictions_path(tmp_path, "toy"), lines)
    record = {
        "curve": "toy",
        "runs": runs,
        "gaps": curve_records.gap_statistics(TOY, runs, lines),
    }
    curve_records.write_json(curve_records.record_path(tmp_path, "toy"), record)
    read = json.loads(curve_records.record_path(tmp_path, "toy").read_text())
    assert read == json.loads(json.dumps(record))
    again = predictions.read_record(curve_records.predictions_path(tmp_path, "toy"))
    assert curve_records.gap_statistics(TOY, read["runs"], again) == read["gaps"]

    markdown = report.render_curve(TOY, read, "figures/curves-toy.png")
    assert "![light vs hypothesis only](figures/curves-toy.png)" in markdown
    assert f"Command: `{TOY.command()}`" in markdown  # entries without overrides: none
    assert "| ATTCONV – light | 8,857 |" in markdown and "7 / 100 |" in markdown
    assert "| **opens** |" in markdown and "Not run" not in markdown
    assert report.write_figure(TOY, read, tmp_path / "curves-toy.png").stat().st_size > 1000


def test_the_floors_are_reference_rows_and_grey_lines(tmp_path):
    runs, _ = _synthetic({100: 0.0, 300: 0.03, None: 0.08})
    record = {"runs": runs, "gaps": []}
    assert "No floors in the record yet" in report.render_curve(TOY, record, "x.png")
    record["floors"] = _floors()
    markdown = report.render_curve(TOY, record, "x.png")
    for pairs, lr in (("100", "40.00"), ("300", "41.00"), ("8,857", "42.00")):
        assert f"| *reference: TF-IDF + LR* | {pairs} | {lr} | – | – |" in markdown
        assert f"| *reference: majority class* | {pairs} | 34.00 | – | – |" in markdown
    assert "docs/design.md#floors" in markdown and "always 'entailment', at every size" in markdown
    assert "C = 1 at 100, C = 1 at 300, C = 1 at 8,857" in markdown
    assert "`python experiments/curves.py --curve=toy --report_only`" in markdown
    lines = {line.get_label(): line for line in report.draw(TOY, record).axes[0].get_lines()}
    lr = lines["reference: TF-IDF + LR"]
    assert list(lr.get_xdata()) == [100, 300, 8857] and lr.get_linestyle() == "--"
    assert list(lr.get_ydata()) == pytest.approx([40.0, 41.0, 42.0])
    assert lines["reference: majority class"].get_color() == "grey"


def _count_fits(monkeypatch):
    """Replaces `floor.compute` by a stand-in that records the (train_pairs, dev, test split)
    of every fit and returns `_floors` at that size."""
    read = []

    def compute(config, data_dir):
        read.append((config.train_pairs, config.dev_split, config.test_split))
        size = _floors((config.train_pairs,))["sizes"][0]
        return {"selection": "s", "C_grid": [1.0], "library": "l", "splits": {}, **size}, b""

    monkeypatch.setattr(curve_records.floor, "compute", compute)
    monkeypatch.setattr(curve_records.floor, "LIBRARY", "l")
    return read


def test_the_floors_are_computed_per_size_on_its_subset_and_checked_against_the_runs(
    tmp_path, monkeypatch
):
    read = _count_fits(monkeypatch)
    floors = curve_records.compute_floors(TOY, curves.planned(TOY, TOY.seeds, "runs"), "data")
    assert read == [(100, "holdout", "test"), (300, "holdout", "test"), (None, "holdout", "test")]
    assert [at["size"] for at in floors["sizes"]] == [100, 300, None]
    assert [at["split_fields"]["train_pairs"] for at in floors["sizes"]] == [100, 300, None]
    assert floors["command"] == (
        "python experiments/curves.py --curve=toy --report_only --data_dir=../shared/data"
    )
    runs, _ = _synthetic({100: 0.0, None: 0.08})
    record = {"runs": runs}
    curve_records.write_json(curve_records.record_path(tmp_path, "toy"), record)
    floors = _floors()
    assert curve_records.write_floors(TOY, tmp_path, record, floors)["floors"] == floors
    # Written, and a later update keeps them.
    assert json.loads(curve_records.record_path(tmp_path, "toy").read_text())["floors"] == floors
    assert curve_records.update_record(TOY, tmp_path, {})["floors"] == floors
    floors["sizes"][0]["examples"]["train"] = 99
    with pytest.raises(ValueError, match="not the same examples"):
        curve_records.write_floors(TOY, tmp_path, record, floors)


def test_the_floors_of_unchanged_splits_are_kept_and_changed_ones_refit(monkeypatch):
    """A size whose splits and library are the record's keeps its floors without a fit; an
    override that moves the splits, or another library version, fits them again, and the
    command that recomputes them carries the override."""
    read = _count_fits(monkeypatch)
    plan = curves.planned(TOY, TOY.seeds, "runs")
    known = curve_records.compute_floors(TOY, plan, "data")
    assert len(read) == 3
    assert curve_records.compute_floors(TOY, plan, "data", known) == known
    assert len(read) == 3  # nothing fitted again
    changes = [("split_seed", 7)]
    moved = curve_records.compute_floors(
        TOY, curves.planned(TOY, TOY.seeds, "runs", changes), "data", known, changes
    )
    assert len(read) == 6 and moved["sizes"][0]["split_fields"]["split_seed"] == 7
    assert "--override=split_seed=7 --report_only" in moved["command"]
    monkeypatch.setattr(curve_records.floor, "LIBRARY", "another version")
    curve_records.compute_floors(TOY, plan, "data", known)
    assert len(read) == 9


def test_the_floors_read_the_splits_of_the_overridden_runs():
    """An override of split fields moves the floors' splits with the runs' at every size; rows
    reading different splits get no floor."""
    changes = [("split_seed", 7), ("holdout_fraction", 0.2)]
    plan = curves.planned(TOY, (1, 2), "runs", changes)
    for size in TOY.sizes:
        config = curve_records.floor_config(TOY, size, plan)
        assert (config.split_seed, config.holdout_fraction, config.train_pairs) == (7, 0.2, size)
        for row in TOY.rows:
            for run, _ in plan[(row, size)]:
                assert floor.split_signature(apply_scale(run)) == floor.split_signature(config)
    (first, run_dir), *others = plan[(HYPOTHESIS, 100)]
    plan[(HYPOTHESIS, 100)] = [(first.replace(split_seed=8), run_dir), *others]
    with pytest.raises(ValueError, match="reads other splits"):
        curve_records.floor_config(TOY, 100, plan)


def test_the_committed_curves_floors_are_of_their_runs_examples():
    """Per size the floors' training and test pairs are the runs'; on the whole part they are
    the table's own floors (results/floor-<table>-low-resource.json)."""
    for path in sorted((REPO / "results").glob("curves-*.json")):
        record = json.loads(path.read_text("utf-8"))
        if "floors" not in record:
            continue
        curve = curves.get(record["curve"])
        assert [at["size"] for at in record["floors"]["sizes"]] == list(curve.sizes)
        for at in record["floors"]["sizes"]:
            pairs = {
                (r["train_pairs"], r["test_pairs"])
                for r in record["runs"]
                if r["size"] == at["size"]
            }
            assert pairs == {(at["examples"]["train"], at["examples"]["test"])}
        table = registry.table_id(registry.get(curve.rows[0]))
        whole = json.loads((REPO / "results" / f"floor-{table}-low-resource.json").read_text())
        metrics = [floor["metrics"] for floor in record["floors"]["sizes"][-1]["floors"]]
        assert metrics == [floor["metrics"] for floor in whole["floors"]]
        assert record["floors"]["sizes"][-1]["examples"] == whole["examples"]


def test_a_partial_or_missing_curve_says_not_run_with_its_command():
    runs, _ = _synthetic({100: 0.0})
    assert "Not run." in report.render_curve(TOY, None, "x.png")
    assert "`python experiments/curves.py --curve=toy --data_dir=../shared/data`" in (
        report.render_curve(TOY, None, "x.png")
    )
    partial = report.render_curve(TOY, {"runs": runs, "gaps": []}, "x.png")
    assert "| ATTCONV – light | whole part | not run | 0 | – |" in partial


@pytest.mark.slow
def test_the_script_renders_every_curve_from_the_records(tmp_path):
    runs, lines = _synthetic({1000: 0.0, 3000: 0.03, None: 0.08})
    curve = curves.get("gcnn-quora")
    for run in runs:
        run["row"] = {LIGHT: "gcnn/quora/gcnn", HYPOTHESIS: "gcnn/quora/cnn"}[run["row"]]
    lines["row"] = lines["row"].map({LIGHT: "gcnn/quora/gcnn", HYPOTHESIS: "gcnn/quora/cnn"})
    predictions.write_record(curve_records.predictions_path(tmp_path, curve.name), lines)
    floors = _floors((1000, 3000, None), whole=8857)
    curve_records.write_json(
        curve_records.record_path(tmp_path, curve.name),
        {"runs": runs, "gaps": [], "floors": floors},
    )
    command = [
        sys.executable,
        "experiments/curves.py",
        "--report_only",
        f"--data_dir={tmp_path / 'no data'}",
        f"--results_dir={tmp_path}",
        f"--figures_dir={tmp_path / 'figures'}",
        f"--report={tmp_path / 'REPORT.md'}",
        f"--runs_dir={tmp_path / 'runs'}",
    ]
    how = dict(
        cwd=REPO,
        capture_output=True,
        text=True,
        env=subprocess_env(TF_CPP_MIN_LOG_LEVEL="2"),
    )
    result = subprocess.run(command, **how)
    assert result.returncode == 0, result.stderr
    text = (tmp_path / "REPORT.md").read_text()
    assert text.startswith("# Learning curves\n") and "<!-- begin learning-curves -->" in text
    assert "## GCNN vs CNN on Quora (GCNN Table 2) (`gcnn-quora`)" in text
    assert "![GCNN vs CNN on Quora (GCNN Table 2)](figures/curves-gcnn-quora.png)" in text
    assert "| GCNN − CNN |" in text and "**opens**" in text
    assert text.count("Not run.") == 2  # the two curves without a record
    assert (tmp_path / "figures" / "curves-gcnn-quora.png").exists()
    assert not curve_records.record_path(tmp_path, "coin-quora").exists()
    # Without the data the record keeps its floors, and says so.
    assert "gcnn-quora: floors not computed" in result.stdout
    assert "kept the record's floors" in result.stdout
    kept = json.loads(curve_records.record_path(tmp_path, curve.name).read_text())
    assert kept["floors"] == floors
    assert "| *reference: TF-IDF + LR* | 1,000 | 40.00 | – | – |" in text
    # Floors the overridden runs' splits do not allow: one line, no traceback.
    limited = subprocess.run(
        command + ["--curve=gcnn-quora", "--override=max_eval_examples=10"], **how
    )
    assert limited.returncode == 2, limited.stderr
    assert limited.stderr.startswith("error: gcnn-quora: floors: ")
    assert "whole splits" in limited.stderr and "Traceback" not in limited.stderr


@pytest.mark.slow
def test_a_tiny_curve_trains_resumes_and_records(shared_data, tmp_path):
    tiny = curves.Curve(
        name="tiny", title="tiny", rows=TOY.rows, gaps=TOY.gaps, sizes=(60, 120), seeds=(1,)
    )
    changes = [("epochs", 1), ("max_eval_examples", 200)]
    plan = curves.planned(tiny, tiny.seeds, tmp_path / "runs", changes)
    planned = [run for runs in plan.values() for run in runs]
    driver.train_pending(planned, shared_data, tmp_path / "cache", estimate=False)
    record = curve_records.update_record(tiny, tmp_path, plan, changes)
    assert len(record["runs"]) == 4
    assert all(
        r["overrides"] == [["epochs", 1], ["max_eval_examples", 200]] for r in record["runs"]
    )
    assert {(r["size"], r["train_pairs"]) for r in record["runs"]} == {(60, 60), (120, 120)}
    assert record["gaps"][0]["verdict"] in curve_records.VERDICTS
    assert record["gaps"][0]["change"]["units"] == 200
    stamps = [(d / "metrics.json").stat().st_mtime_ns for _, d in planned]
    driver.train_pending(planned, shared_data, tmp_path / "cache", estimate=False)
    assert [(d / "metrics.json").stat().st_mtime_ns for _, d in planned] == stamps


def test_the_command_is_that_of_the_runs_shown():
    runs, _ = _synthetic({100: 0.0, 300: 0.03, None: 0.08})
    capped = [dict(entry, overrides=[["epochs", 6]]) for entry in runs]
    markdown = report.render_curve(TOY, {"runs": capped, "gaps": []}, "x.png")
    assert "Command: `python experiments/curves.py --curve=toy --override=epochs=6 " in markdown
    # A one-seed run under other overrides is not shown (fewer seeds), nor is its command, nor
    # the command that trained it among the runs' commands.
    extra = dict(capped[0], seed=9, config="other-epochs1", overrides=[["epochs", 1]])
    extra.update(command="python experiments/reproduce.py --epochs=1", machine="elsewhere")
    markdown = report.render_curve(TOY, {"runs": capped + [extra], "gaps": []}, "x.png")
    assert "--override=epochs=1" not in markdown and "--override=epochs=6" in markdown
    assert "--epochs=1" not in markdown and "elsewhere" not in markdown
    # Rows shown under different overrides: one command each.
    mixed = [dict(e, overrides=[]) if e["row"] == TOY.rows[0] else e for e in capped]
    markdown = report.render_curve(TOY, {"runs": mixed, "gaps": []}, "x.png")
    assert "Commands (the runs shown differ in their overrides):" in markdown
    assert f"- `{TOY.command()}`" in markdown and "--override=epochs=6" in markdown
