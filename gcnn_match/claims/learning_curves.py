"""A learning curve's record and its gap statistics (docs/design.md#learning-curves).

The record, results/curves-<name>.json, holds one entry per finished run (row, size, seed):
its metric, training pairs, epochs run and allowed, the overrides it was planned with (an epoch
cap), and the command and machine that trained it; then, per gap A − B of the curve, the gap
at each size and its change from the smallest to the largest size, each with a 95% interval,
and the verdict. The runs' per-example outcomes go to results/predictions/curves-<name>.csv.gz
(`evidence/predictions.py`'s format), which the intervals read.

- Gap at a size: Δ = A − B with the seed-and-test-set interval of `compare_rows`.
- Change: (Δ at the largest size) − (Δ at the smallest), the contrast of four rows with
  `compare_contrast` (every size is scored on the same test units).
- Verdict: "opens" when the change's interval lies above 0 (A gains on B as data grows),
  "closes" when it lies below (A loses ground: its lead shrinks or B's grows), "inconclusive"
  when it holds 0, "not run" when fewer than two sizes have runs of both rows; and, whatever
  the interval, "undertrained at this budget" when most seeds of a row at the smallest or the
  largest size ran under an epoch cap that their early stopping would not have ended them by
  (`verdicts.Schedule`, the claims' rule; a run that does not record its selected epoch is
  taken as selecting its last).

The record's "floors" are the floors (`gcnn_match/baselines/floor.py`) at each size, computed on
the nested training subset, held-out part and test split that size's planned runs read, their
overrides included (`compute_floors`), so the section re-renders them without the data.
"""

import pathlib

import pandas as pd

from gcnn_match.baselines import floor
from gcnn_match.claims import verdicts
from gcnn_match.data.experiment_data import apply_scale
from gcnn_match.evidence import predictions
from gcnn_match.evidence.runs import run_provenance
from gcnn_match.evidence.statistics import compare_contrast, compare_rows
from gcnn_match.experiments import registry
from gcnn_match.files import read_json, write_json

VERDICTS = ("opens", "closes", "inconclusive", verdicts.UNDERTRAINED, "not run")
_FROM_STATISTICS = {"confirmed": "opens", "contradicted": "closes", "inconclusive": "inconclusive"}
RUN_KEY = ("row", "size", "seed", "config")


def record_path(results_dir, name):
    return pathlib.Path(results_dir) / f"curves-{name}.json"


def predictions_path(results_dir, name):
    return pathlib.Path(results_dir) / "predictions" / f"curves-{name}.csv.gz"


def run_entry(curve, row, size, run_dir, changes=()):
    """The record entry of one run of `row` at `size`, planned with the overrides `changes`
    (they name its run directory, so every call that finds it passes the same); None when it
    has not finished."""
    metrics = read_json(run_dir / "metrics.json")
    if metrics is None:
        return None
    provenance = run_provenance(run_dir, metrics["seed"])
    return {
        "row": row,
        "size": size,
        "seed": metrics["seed"],
        "config": predictions.config_label(run_dir),
        "train_pairs": metrics["examples"]["train"],
        "test_pairs": metrics["examples"].get("test"),
        curve.metric: metrics[curve.metric],
        "epochs_run": metrics["epochs_run"],
        "best_epoch": metrics["best_epoch"],
        "max_epochs": read_json(run_dir / "config.json")["epochs"],
        "registered_epochs": registry.get(row).epochs,
        "overrides": [[key, value] for key, value in changes],
        "machine": provenance["machine"],
        "command": provenance["command"],
    }


def collect(curve, planned, changes=()):
    """(entries, prediction lines) of the finished runs of `planned` (`curves.planned`, with
    the overrides `changes`); the lines are None when no run has finished."""
    entries, frames = [], []
    for (row, size), runs in planned.items():
        for _, run_dir in runs:
            entry = run_entry(curve, row, size, run_dir, changes)
            if entry is not None:
                entries.append(entry)
                split = predictions.split_and_column(curve.metric)[0]
                frames.append(predictions.run_lines(registry.get(row), run_dir, splits=[split]))
    return entries, pd.concat(frames, ignore_index=True) if frames else None


def merge_runs(earlier, current):
    """`earlier` entries with `current` ones added; an entry of the same run (row, size, seed,
    config) is replaced by the current one."""
    key = lambda entry: tuple(entry[k] for k in RUN_KEY)  # noqa: E731
    merged = {key(entry): entry for entry in earlier}
    merged.update((key(entry), entry) for entry in current)
    return sorted(
        merged.values(), key=lambda e: (e["row"], _order(e["size"]), e["config"], e["seed"])
    )


def _order(size):
    """Sort key of a size: None (the whole training part) after every number."""
    return float("inf") if size is None else size


def shown_runs(runs, row, size):
    """The entries of `row` at `size` under one config: the one with the most seeds, then the
    highest epoch cap (a capped rerun does not hide the registered schedule)."""
    by_config = {}
    for entry in runs:
        if entry["row"] == row and entry["size"] == size:
            by_config.setdefault(entry["config"], []).append(entry)
    if not by_config:
        return []
    best = max(by_config.values(), key=lambda e: (len(e), max(x["max_epochs"] for x in e)))
    return sorted(best, key=lambda e: e["seed"])


def shown_entries(curve, runs):
    """The entries the curve's tables show: `shown_runs` of each row and size, in order."""
    return [
        entry for row in curve.rows for size in curve.sizes for entry in shown_runs(runs, row, size)
    ]


def shown_overrides(shown):
    """The distinct overrides ((key, value) tuples) of `shown` (the entries a curve's tables
    show, `shown_entries`), in order; an entry recorded before entries kept them counts as
    none."""
    found = [tuple(tuple(change) for change in entry.get("overrides", [])) for entry in shown]
    return list(dict.fromkeys(found))


def schedule(entries):
    """The `verdicts.Schedule` of one row's runs at one size (`shown_runs`); a run whose entry
    does not record its selected epoch is taken as selecting its last, so a run that reached
    its cap counts as short."""
    first = entries[0]
    registered, allowed = first["registered_epochs"], first["max_epochs"]
    return verdicts.Schedule(
        row=first["row"],
        registered=registered,
        patience=registry.get(first["row"]).early_stopping_patience,
        cap=allowed if allowed < registered else None,
        selected=tuple(entry.get("best_epoch") or entry["epochs_run"] for entry in entries),
        run=tuple(entry["epochs_run"] for entry in entries),
    )


def _short(runs, rows, sizes):
    """Each of `rows` at each of `sizes` whose shown runs are undertrained, in words: "<row> at
    <size>: " and `Schedule.describe`, or, where the runs do not record their selected epochs,
    that they ran to their cap."""
    found = []
    for size in sizes:
        for row in rows:
            entries = shown_runs(runs, row, size)
            shown = schedule(entries)
            if not shown.undertrained:
                continue
            how = shown.describe()
            if not all(entry.get("best_epoch") for entry in entries):
                how = (
                    f"{len(entries)} seeds ran to the cap of {shown.cap} of {shown.registered} "
                    "epochs, their selected epochs not recorded"
                )
            at = "the whole part" if size is None else f"{size:,} pairs"
            found.append(f"{row} at {at}: {how}")
    return found


def _scores(lines, entries, column):
    """(seeds, units) scores of the runs `entries` in the prediction `lines`."""
    config = entries[0]["config"]
    mine = lines[(lines["row"] == entries[0]["row"]) & (lines["config"] == config)]
    mine = mine[mine["seed"].isin([e["seed"] for e in entries])]
    return mine.pivot(index="seed", columns="uid", values=column)


def _interval(comparison):
    return {
        "estimate": comparison.estimate,
        "low": comparison.low,
        "high": comparison.high,
        "seeds_a": comparison.seeds_a,
        "seeds_b": comparison.seeds_b,
        "units": comparison.units,
    }


def gap_statistics(curve, runs, lines):
    """Per gap of `curve`: {"a", "b", "sizes": [per size with runs of both rows: "size",
    "train_pairs" and the interval of A − B], "change": the interval of the change from the
    smallest to the largest of those sizes (None with fewer than two), "verdict"; for an
    undertrained one, "short": which rows at which sizes, in words (`_short`)}."""
    split, column = predictions.split_and_column(curve.metric)
    lines = lines[lines["split"] == split] if lines is not None else None
    gaps = []
    for a, b in curve.gaps:
        measured = []
        for size in curve.sizes:
            shown = [shown_runs(runs, row, size) for row in (a, b)]
            if lines is None or not all(shown):
                continue
            scores = [_scores(lines, entries, column) for entries in shown]
            measured.append((size, shown[0][0]["train_pairs"], scores))
        if not measured:
            gaps.append({"a": a, "b": b, "sizes": [], "change": None, "verdict": "not run"})
            continue
        units = measured[0][2][0].columns
        for _, _, scores in measured:
            for frame in scores:
                units = units.intersection(frame.columns[frame.notna().all().to_numpy()])
        matrices = [[frame[units].to_numpy() for frame in scores] for _, _, scores in measured]
        sizes = [
            {"size": size, "train_pairs": pairs, **_interval(compare_rows(*matrix))}
            for (size, pairs, _), matrix in zip(measured, matrices)
        ]
        change, verdict, short = None, "not run", []
        if len(measured) > 1:
            (a_last, b_last), (a_first, b_first) = matrices[-1], matrices[0]
            result = compare_contrast([a_last, b_last, a_first, b_first], [1, -1, -1, 1])
            change = {"from": measured[0][0], "to": measured[-1][0], **_interval(result)}
            verdict = _FROM_STATISTICS[result.verdict]
            short = _short(runs, (a, b), (measured[0][0], measured[-1][0]))
        gap = {"a": a, "b": b, "sizes": sizes, "change": change, "verdict": verdict}
        if short:
            gap.update(verdict=verdicts.UNDERTRAINED, short=short)
        gaps.append(gap)
    return gaps


def floor_config(curve, size, planned):
    """The scaled config whose splits every run of `curve` at `size` (a `train_pairs` value;
    None: the whole training part) reads, from the runs `planned` (`curves.planned`, so with
    the same overrides, split fields included)."""
    scaled = [apply_scale(config) for row in curve.rows for config, _ in planned[(row, size)]]
    return floor.shared_config(scaled, f"curve {curve.name} at train_pairs={size}")


def compute_floors(curve, planned, data_dir, known=None, changes=()):
    """The floors of `curve` at each of its sizes (`floor.compute` on `floor_config`, so on the
    training subset, held-out part and test split that size's `planned` runs read): {"command"
    that recomputes them (with the overrides `changes` of `planned`), "selection", "C_grid",
    "library", "sizes": [per size: "size", "split_fields" (`floor.split_fields`), "splits" in
    words, "examples" per role, "floors" (`floor.floors_of`'s)]}. A size whose split fields
    and library equal those of the floors `known` (the record's) keeps them, unread and unfit;
    when every size does, the command is the one that computed them.
    ValueError when the rows at a size read different splits, or the splits carry example
    limits."""
    reusable = {}
    if known and known.get("library") == floor.LIBRARY:
        reusable = {at["size"]: at for at in known["sizes"] if "split_fields" in at}
    sizes, fitted = [], None
    for size in curve.sizes:
        config = floor_config(curve, size, planned)
        fields = floor.split_fields(config)
        if reusable.get(size, {}).get("split_fields") == fields:
            sizes.append(reusable[size])
            continue
        fitted, _ = floor.compute(config, data_dir)
        kept = {key: fitted[key] for key in ("splits", "examples", "floors")}
        sizes.append({"size": size, "split_fields": fields, **kept})
    if fitted is None:  # every size kept: so is the command that computed them
        return dict(known, sizes=sizes)
    return {
        "command": curve.command(report_only=True, changes=changes),
        **{key: fitted[key] for key in ("selection", "C_grid", "library")},
        "sizes": sizes,
    }


def write_floors(curve, results_dir, record, floors):
    """`record` (the curve's, as `update_record` wrote it) with `floors` (`compute_floors`),
    written when they are new; returns it. Raises when the training or test pairs of a size's
    shown runs differ from the floors' there (they were not computed on the runs' examples)."""
    for at in floors["sizes"]:
        for row in curve.rows:
            for entry in shown_runs(record["runs"], row, at["size"]):
                counts = {"train": entry["train_pairs"], "test": entry["test_pairs"]}
                counts = {role: count for role, count in counts.items() if count is not None}
                if counts != {role: at["examples"][role] for role in counts}:
                    raise ValueError(
                        f"{row} at train_pairs={at['size']} read {counts} pairs, the floors "
                        f"{at['examples']}: not the same examples"
                    )
    if record.get("floors") != floors:
        record = dict(record, floors=floors)
        write_json(record_path(results_dir, curve.name), record)
    return record


def update_record(curve, results_dir, planned, changes=()):
    """Adds the finished runs of `planned` (made with the overrides `changes`) to the curve's
    records (predictions and JSON), kept with the runs (and floors) recorded before,
    recomputes the gap statistics and writes both atomically; returns the JSON record."""
    entries, lines = collect(curve, planned, changes)
    path = predictions_path(results_dir, curve.name)
    all_lines = predictions.read_record(path)
    if lines is not None:
        all_lines = predictions.merge(all_lines, lines)
        predictions.write_record(path, all_lines)
    earlier = read_json(record_path(results_dir, curve.name), {})
    runs = merge_runs(earlier.get("runs", []), entries)
    record = {
        "curve": curve.name,
        "title": curve.title,
        "metric": curve.metric,
        "scale": curve.scale,
        "sizes": list(curve.sizes),
        "runs": runs,
        "gaps": gap_statistics(curve, runs, all_lines if len(all_lines) else None),
    }
    if "floors" in earlier:
        record["floors"] = earlier["floors"]
    if runs:  # a curve never run keeps no record: its section says "not run"
        write_json(record_path(results_dir, curve.name), record)
    return record
