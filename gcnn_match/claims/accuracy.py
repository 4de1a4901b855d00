"""Accuracy-like claims (means over test units, F1, the FEVER score): Δ = A − B, a contrast
(A − B) − (C − D), or A against its table's majority class, from the per-example records.

The interval is the seed-and-test-set interval of `evidence/statistics.py`; its reading is
"confirmed" when it excludes 0 on the claimed side, "contradicted" on the other side,
"inconclusive" otherwise (an "equivalent" claim: inside ±margin, wholly outside, or neither).
Beside it, each row's metric is set against the floors of its table (`floor_check.py`), and
the facts the rules of `verdicts.py` read are gathered: the one-sided p values, the rows'
shortfall against their schedule, a claim on the checkpoint-selecting split read on test.
"""

import dataclasses

import pandas as pd

from gcnn_match.baselines import floor
from gcnn_match.claims import floor_check, verdicts
from gcnn_match.claims.outcome import SEEDS, Outcome, measured
from gcnn_match.claims.plans import judged_metric, not_run, training_plan
from gcnn_match.claims.records import (
    at_units,
    compared_configs,
    complete_units,
    difference,
    epochs_run,
    one_config,
    row_metric,
    unit_scores,
)
from gcnn_match.evidence import aso, predictions, statistics
from gcnn_match.evidence.runs import run_set_of
from gcnn_match.experiments import registry as experiments


def _seeds_to_go(claim, store, found):
    """ "not run" for a claim whose rows have fewer seeds than SEEDS under the config it reads,
    with the `training_plan` that completes them."""
    recorded = f"{found.seeds[0]} vs {found.seeds[1]} of {len(SEEDS)} seeds recorded"
    return not_run(
        claim,
        store,
        found.scale,
        [recorded, *found.config_notes],
        sample=found.sample,
        epochs=f"A {found.epochs[0]}; B {found.epochs[1]}",
    )


def _selection_split_not_run(claim, store, scales):
    """ "not run" for a claim on the checkpoint-selecting split whose rows have no test lines:
    the plan trains them to their registered schedule, recording test predictions."""
    split, _ = predictions.split_and_column(claim.metric)
    scale = next(s for s in scales if not store.lines(claim.table_id, s, claim.a, split).empty)
    plan = training_plan(claim, store, scale)
    return Outcome(
        claim,
        "not run",
        scale=scale,
        note=f"test predictions not recorded; the {split} split selected the checkpoint",
        command=plan.command,
        hours=plan.hours,
    )


def _schedules(store, scale, names, configs):
    """The `verdicts.Schedule` of the runs of each row `names[i]` under `configs[i]` that a
    claim reads at `scale` (a vote's: its members'); None for a row whose run set records no
    selected epochs."""
    schedules = []
    for name, config in zip(names, configs):
        registered = experiments.get(name)
        if config.endswith("-vote"):
            registered, config = experiments.get(registered.runs_of), config[: -len("-vote")]
        run_set = run_set_of(
            store.results_dir,
            experiments.table_id(registered),
            scale,
            registered.name,
            config,
        )
        schedules.append(verdicts.schedule(registered, run_set))
    return schedules


def _shortfalls_said(schedules):
    """Each row short of its schedule, in words: "A 4 of 5 seeds short by 1 epochs (...)"."""
    return [f"{row} {s.describe()}" for row, s in zip("ABCD", schedules) if s and any(s.shortfalls)]


def _with_rules(claim, outcome, result, schedules, store, scale):
    """`outcome` (of a bootstrap `result` at `scale`) with what the rules of `verdicts.py`
    read: its one-sided p values, size label and Monte Carlo closeness to the tail, and the
    shortfall of its rows (`_undertrained`)."""
    outcome = dataclasses.replace(
        outcome,
        p=verdicts.p_value(result.replicates, claim),
        leaning_p=verdicts.leaning_p(result.replicates, claim),
        size=verdicts.size_label(claim, result.low, result.high),
        near_tail=verdicts.borderline(result.replicates, claim),
    )
    return _undertrained(claim, outcome, schedules, store, scale)


def _undertrained(claim, outcome, schedules, store, scale):
    """`outcome` marked short when a row has most seeds short of its schedule, with the
    `training_plan` that trains the claim's rows to their schedule."""
    if not any(s is not None and s.undertrained for s in schedules):
        return outcome
    plan = training_plan(claim, store, scale)
    return dataclasses.replace(
        outcome,
        short=True,
        note="; ".join(filter(None, [outcome.note, plan.note])),
        command=plan.command,
        hours=plan.hours,
    )


def assess_difference(claim, store, scales):
    metric = judged_metric(claim)
    found = difference(store, claim.table_id, claim.a, claim.b, metric, scales)
    recorded = any(
        not store.lines(claim.table_id, scale, claim.a, split).empty
        for scale in scales
        for split in [predictions.split_and_column(claim.metric)[0]]
    )
    if found is None and metric != claim.metric and recorded:
        return _selection_split_not_run(claim, store, scales)
    if found is None:
        return not_run(claim, store)
    if any(n != "vote" and int(n) < len(SEEDS) for n in found.seeds):
        return _seeds_to_go(claim, store, found)
    result = found.comparison
    schedules = _schedules(store, found.scale, (claim.a, claim.b), found.configs)
    said = _shortfalls_said(schedules)
    outcome = measured(
        claim,
        result,
        sample=found.sample,
        epochs=f"A {found.epochs[0]}; B {found.epochs[1]}",
        scale=found.scale,
        note="; ".join(found.notes + said),
        floor=_floor(store, claim, found, metric),
        aso=_aso(claim, found),
    )
    return _with_rules(claim, outcome, result, schedules, store, found.scale)


def _aso(claim, found):
    """(ε_min of the claimed side, ε_min of the other side) of almost stochastic order over
    the rows' per-seed scores (`aso.epsilon_min`); () for a claim of comparable rows or a row
    of one value (a vote, a single seed)."""
    a, b = found.per_seed
    if claim.expected == "equivalent" or min(len(a), len(b)) < 2:
        return ()
    if claim.expected == "less":
        a, b = b, a
    return (aso.epsilon_min(a, b), aso.epsilon_min(b, a))


def _floor(store, claim, found, metric):
    """The `floor_check.FloorCheck` of a difference's rows on `metric`, and, where that is not
    its table's main metric (the first its rows compare: accuracy beside COIN's F1), the check
    on the main metric that "below floor" reads (`FloorCheck.judged`)."""
    check = floor_check.check(store.results_dir, claim.table_id, found.scale, metric, found.means)
    main = claim.registered.compare[0][1]
    if predictions.split_and_column(main) == predictions.split_and_column(metric):
        return check
    split, column = predictions.split_and_column(main)
    means = []
    for row, config in zip((claim.a, claim.b), found.configs):
        lines = store.lines(claim.table_id, found.scale, row, split)
        means.append(row_metric(*unit_scores(lines[lines["config"] == config], column, row)))
    judged = floor_check.check(store.results_dir, claim.table_id, found.scale, main, means)
    return dataclasses.replace(check, judged=judged)


def _majority_lines(results_dir, table, scale, split):
    """The floor record's majority-class predictions on `split` as the record lines of one
    seed (0); None without a record."""
    path = floor.predictions_path(results_dir, table, scale)
    if not path.exists():
        return None
    lines = pd.read_csv(path, dtype=str, keep_default_na=False)
    lines = lines[lines["split"] == split].rename(columns={"majority": "predicted"})
    return lines.assign(seed=0, correct=(lines["predicted"] == lines["gold"]).astype(int))


def assess_floor(claim, store, scales):
    """Row A against its table's majority class (B), at the first of `scales` whose records
    hold A and the floor's predictions: `statistics.compare_rows` with B one fixed prediction,
    so the interval holds A's seeds and the test set."""
    split, column = predictions.split_and_column(claim.metric)
    for scale in scales:
        lines = store.lines(claim.table_id, scale, claim.a, split)
        majority = _majority_lines(store.results_dir, claim.table_id, scale, split)
        if lines.empty or majority is None:
            continue
        lines = one_config(lines)
        epochs = f"A {epochs_run(lines, claim.a)}; B no training"
        if lines["seed"].nunique() < len(SEEDS):
            return not_run(claim, store, scale, epochs=epochs, scale=scale)
        terms = [unit_scores(rows, column, claim.a) for rows in (lines, majority)]
        units = complete_units([scores for scores, _ in terms])
        result = statistics.compare_rows(
            *(scores[units].to_numpy() for scores, _ in terms),
            claim.expected,
            denominators=at_units([below for _, below in terms], units),
        )
        outcome = measured(
            claim,
            result,
            sample=f"{lines['seed'].nunique()} seeds vs one fixed prediction, {len(units)} units",
            epochs=epochs,
            scale=scale,
            note="B is the floor record's majority class: no seeds to resample",
        )
        schedules = _schedules(store, scale, [claim.a], [lines["config"].iloc[0]])
        return _with_rules(claim, outcome, result, schedules, store, scale)
    return not_run(claim, store)


def contrast_lines(store, claim, scale, split):
    """Each row's lines under the configs `compared_configs` picks for the four; None when a
    row has none."""
    lines = [store.lines(claim.table_id, scale, row, split) for row in claim.rows]
    if any(rows.empty for rows in lines):
        return None
    return compared_configs(*lines)


def assess_contrast(claim, store, scales):
    """(A − B) − (C − D) of four rows' metric at the first of `scales` where the records hold
    all four: `statistics.compare_contrast` over the units all four were scored on in every
    seed, with the verdict rule of a difference."""
    split, column = predictions.split_and_column(claim.metric)
    for scale in scales:
        lines = contrast_lines(store, claim, scale, split)
        if lines is None:
            continue
        epochs = "; ".join(
            f"{label} {epochs_run(rows, row)}"
            for label, rows, row in zip("ABCD", lines, claim.rows)
        )
        configs = sorted({rows["config"].iloc[0] for rows in lines})
        notes = [f"configs differ: {', '.join(configs)}"] if len(configs) > 1 else []
        short = [r for r, rows in zip(claim.rows, lines) if rows["seed"].nunique() < len(SEEDS)]
        if short:
            said = [f"{len(short)} rows short of {len(SEEDS)} seeds", *notes]
            return not_run(claim, store, scale, said, epochs=epochs, scale=scale)
        terms = [unit_scores(rows, column, row) for rows, row in zip(lines, claim.rows)]
        units = complete_units([scores for scores, _ in terms])
        result = statistics.compare_contrast(
            [scores[units].to_numpy() for scores, _ in terms],
            [1.0, -1.0, -1.0, 1.0],
            claim.expected,
            denominators=at_units([below for _, below in terms], units),
        )
        seeds = " vs ".join(str(rows["seed"].nunique()) for rows in lines)
        schedules = _schedules(store, scale, claim.rows, [r["config"].iloc[0] for r in lines])
        outcome = measured(
            claim,
            result,
            sample=f"{seeds} seeds, {len(units)} units",
            epochs=epochs,
            scale=scale,
            note="; ".join(filter(None, [result.note, *notes, *_shortfalls_said(schedules)])),
        )
        return _with_rules(claim, outcome, result, schedules, store, scale)
    return not_run(claim, store)
