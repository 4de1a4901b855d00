"""Each claim against our measurements: Δ with its interval and a verdict, or "not run".

Accuracy-like claims read the per-example prediction records (`records.py`) and use the
seed-and-test-set bootstrap of `reporting/statistics.py`: "confirmed" when the 95% interval of
Δ = A − B excludes 0 on the claimed side, "contradicted" on the other side, "inconclusive"
otherwise. An "equivalent" claim is confirmed when the interval lies inside ±margin,
contradicted when it lies wholly outside, inconclusive otherwise.

A row may have runs under several configs (e.g. an epoch cap); a claim uses, per row, the
config with the most seeds (then the highest epoch cap). Units (examples or questions) are
those both rows were scored on in every seed.

Time claims read the side-by-side measurements of `make bench` and `make latency`. Those
records keep each row's mean (and, for latency, its standard deviation), not the time of each
step or batch, so no interval can be drawn; the ratio is shown with verdict "inconclusive".
"""

import dataclasses
import json
import pathlib
import shlex
from typing import Optional

from gcnn_match.claims import records
from gcnn_match.experiments import registry as experiments
from gcnn_match.reporting.statistics import compare_rows
from gcnn_match.reporting.tables import run_of_registered

VERDICTS = ("confirmed", "inconclusive", "contradicted", "not run")
SEEDS = (1, 2, 3, 4, 5)
NOT_RUN_SCALE = "low-resource"  # the scale the "not run" commands train at
BENCH_THROUGHPUT = "train_pairs_per_second_bucket"


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A claim's measurement.

    Attributes:
        claim: the `Claim`.
        verdict: one of VERDICTS.
        estimate, low, high: our Δ (a fraction) or ratio, and its 95% interval (None when
            there is none).
        sample: seeds (or timed repeats) and units, in words.
        epochs: epochs run / registered of each row, in words.
        scale: the scale (or measurement) the numbers come from.
        note: what the reader should know about the numbers.
        command: for "not run", the command that produces the missing measurement.
    """

    claim: object
    verdict: str
    estimate: Optional[float] = None
    low: Optional[float] = None
    high: Optional[float] = None
    sample: str = ""
    epochs: str = ""
    scale: str = ""
    note: str = ""
    command: str = ""


def equivalence_verdict(low, high, margin):
    """Where [low, high] lies against ±margin."""
    if -margin < low and high < margin:
        return "confirmed"
    if low > margin or high < -margin:
        return "contradicted"
    return "inconclusive"


class Records:
    """The per-example records under `results_dir`, read once per (table, scale)."""

    def __init__(self, results_dir):
        self.results_dir = pathlib.Path(results_dir)
        self._frames = {}

    def lines(self, table, scale, row, split):
        key = (table, scale)
        if key not in self._frames:
            path = records.record_path(self.results_dir, table, scale)
            self._frames[key] = records.read_record(path)
        frame = self._frames[key]
        return frame[(frame["row"] == row) & (frame["split"] == split)]


def _one_config(lines):
    """The lines of the config with the most seeds, then the highest epoch cap."""
    configs = lines.groupby("config").agg(seeds=("seed", "nunique"), cap=("max_epochs", "max"))
    best = configs.sort_values(["seeds", "cap"], ascending=False, kind="stable").index[0]
    return lines[lines["config"] == best]


def _epochs(lines, name):
    """ "12–20 / 20" (epochs run by its seeds / registered), with the cap where it differs."""
    run = lines.groupby("seed")["epochs"].first()
    registered = experiments.get(name).epochs
    cap = int(lines["max_epochs"].iloc[0])
    return run_of_registered(run.tolist(), registered, None if cap == registered else cap)


def _seed_count(lines):
    seeds = lines["seed"].unique()
    return "vote" if list(seeds) == [0] else str(len(seeds))


def reproduce_command(claim, rows):
    """The reproduce.py command that trains `rows` of the claim's table, 5 seeds."""
    slugs = ",".join(name.rsplit("/", 1)[-1] for name in rows)
    return "python experiments/reproduce.py " + shlex.join(
        [
            f"--table={claim.table_id}",
            f"--rows={slugs}",
            f"--scale={NOT_RUN_SCALE}",
            f"--seeds={','.join(map(str, SEEDS))}",
        ]
    )


def assess_difference(claim, store, scales):
    split, column = records.split_and_column(claim.metric)
    for scale in scales:
        a, b = (store.lines(claim.table_id, scale, row, split) for row in (claim.a, claim.b))
        if a.empty or b.empty:
            continue
        a, b = _one_config(a), _one_config(b)
        scores_a = a.pivot(index="seed", columns="uid", values=column)
        scores_b = b.pivot(index="seed", columns="uid", values=column)
        units = scores_a.columns.intersection(scores_b.columns)
        complete = scores_a[units].notna().all() & scores_b[units].notna().all()
        units = units[complete.to_numpy()]
        expected = "greater" if claim.expected == "equivalent" else claim.expected
        result = compare_rows(scores_a[units].to_numpy(), scores_b[units].to_numpy(), expected)
        verdict = result.verdict
        if claim.expected == "equivalent":
            verdict = equivalence_verdict(result.low, result.high, claim.margin)
        notes = [result.note] if result.note else []
        configs = [lines["config"].iloc[0] for lines in (a, b)]
        if len({c.removesuffix("-vote") for c in configs}) > 1:  # a vote is of its members' config
            notes.append(f"configs differ: A {configs[0]}, B {configs[1]}")
        return Outcome(
            claim,
            verdict,
            result.estimate,
            result.low,
            result.high,
            sample=f"{_seed_count(a)} vs {_seed_count(b)} seeds, {len(units)} units",
            epochs=f"A {_epochs(a, claim.a)}; B {_epochs(b, claim.b)}",
            scale=scale,
            note="; ".join(notes),
        )
    missing = [
        row
        for row in (claim.a, claim.b)
        if store.lines(claim.table_id, NOT_RUN_SCALE, row, split).empty
    ]
    return Outcome(
        claim, "not run", command=reproduce_command(claim, missing or [claim.a, claim.b])
    )


def _bench_rates(results_dir, names):
    """(file, {name: record}) of the first results/bench*.json that measured all `names` side
    by side; None when none did."""
    for path in sorted(pathlib.Path(results_dir).glob("bench*.json")):
        measured = {r["name"]: r for r in json.loads(path.read_text("utf-8"))["results"]}
        if all(name in measured for name in names):
            return path, measured
    return None


def assess_bench(claim, results_dir):
    found = _bench_rates(results_dir, (claim.a, claim.b))
    if found is None:
        slugs = ",".join(name.rsplit("/", 1)[-1] for name in (claim.a, claim.b))
        command = "python experiments/bench.py " + shlex.join(
            [
                f"--tables={claim.table_id}",
                f"--rows={slugs}",
                f"--section={claim.table_id}",
                f"--json=results/bench-{claim.table_id}.json",
            ]
        )
        return Outcome(claim, "not run", command=command)
    path, measured = found
    a, b = measured[claim.a], measured[claim.b]
    ratio = b[BENCH_THROUGHPUT] / a[BENCH_THROUGHPUT]  # time per pair of A over that of B
    machine = a["environment"]
    return Outcome(
        claim,
        "inconclusive",
        ratio,
        sample=f"{a['timed_steps_bucket']} vs {b['timed_steps_bucket']} timed steps",
        scale=f"{path.name}: training throughput, bucketed batches, {machine['cpu']} "
        f"({machine['cpu_count']} cores); the paper's: one GPU",
        note=_no_interval(
            claim,
            ratio,
            f"{path.name} keeps each row's mean throughput over its timed steps, not each "
            "step's time",
        ),
    )


def _no_interval(claim, ratio, why):
    """The note of a ratio without an interval: why, and which side its value lies on."""
    side = (ratio > 1.0) == (claim.expected == "greater")
    return f"no interval: {why}; the ratio itself lies on the {'claimed' if side else 'other'} side"


def assess_latency(claim, results_dir):
    path = pathlib.Path(results_dir) / "latency.json"
    measured = {}
    if path.exists():
        measured = {r["model"]: r for r in json.loads(path.read_text("utf-8"))["results"]}
    if claim.a not in measured or claim.b not in measured:
        return Outcome(claim, "not run", command="make latency")
    a, b = measured[claim.a], measured[claim.b]
    return Outcome(
        claim,
        "inconclusive",
        a["mean"] / b["mean"],
        sample=f"{a['batches']} vs {b['batches']} batches",
        scale=f"{path.name}: CPU inference, batches of 8 pairs",
        note=_no_interval(
            claim,
            a["mean"] / b["mean"],
            f"{path.name} keeps each model's mean and standard deviation (A "
            f"{a['std'] / a['mean']:.0%}, B {b['std'] / b['mean']:.0%} of the mean), not each "
            "batch's time",
        ),
    )


def assess(claims, results_dir, scales=("full", "low-resource")):
    """The `Outcome` of every claim; `scales` in order of preference."""
    store = Records(results_dir)
    outcomes = []
    for claim in claims:
        if claim.metric == "seconds_per_batch":
            outcomes.append(assess_latency(claim, results_dir))
        elif claim.metric == "seconds_per_epoch":
            outcomes.append(assess_bench(claim, results_dir))
        else:
            outcomes.append(assess_difference(claim, store, scales))
    return outcomes


def counts(outcomes):
    """{verdict: number of outcomes}, every verdict present."""
    found = {verdict: 0 for verdict in VERDICTS}
    for outcome in outcomes:
        found[outcome.verdict] += 1
    return found
