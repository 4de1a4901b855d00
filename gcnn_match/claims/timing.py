"""Time claims, read on the paper's kind of device: the whole-epoch records of
`experiments/epoch_times.py` (`evidence/epoch_times.py`) or the side-by-side measurements of
`make bench` and `make latency`.

The ratio A / B of the time per epoch, per training pair (bench) or per batch (latency), with
the bootstrap interval of `compare_ratio` over the recorded seconds of each timed step or
batch, read against a ratio of 1. Records that hold each row's mean only give a ratio without
an interval, "inconclusive"; a measurement on another kind of device is shown, never judged.
"""

import dataclasses
import json
import pathlib
import shlex

import numpy as np

from gcnn_match.claims import verdicts
from gcnn_match.claims.outcome import Outcome, measured
from gcnn_match.evidence import devices, epoch_times, latency, statistics

BENCH_THROUGHPUT = "train_pairs_per_second_bucket"


BENCH_STEP_SECONDS = "train_step_seconds_bucket"


LATENCY_SECONDS = "batch_seconds"


# Why a time measurement beside a verdict is not judged.
ANOTHER_DEVICE = "another kind of device than the paper's"


ANOTHER_RECORD = "another record on the paper's kind of device"


# Below this many timed steps (or batches) in a row, the percentile interval of a ratio may be
# too narrow (about 85% coverage at 5 on separate batches; evidence/statistics.py).
FEW_REPEATS = 10


def _bench_rates(results_dir, names):
    """(file, {name: record}) of the results/bench*.json that measured all `names` side by
    side over the most timed steps (the fewest of its rows'; the first file by name among
    equals); None when none did."""
    found = []
    for path in sorted(pathlib.Path(results_dir).glob("bench*.json")):
        results = json.loads(path.read_text("utf-8"))["results"]
        measured = {r["name"]: r for r in results if "error" not in r}
        if all(name in measured for name in names):
            found.append((path, measured))
    return max(
        found,
        key=lambda f: min(f[1][name].get("timed_steps_bucket", 0) for name in names),
        default=None,
    )


def assess_bench(claim, results_dir):
    """A training-time claim, judged on the paper's kind of device: from the whole-epoch
    records (`evidence/epoch_times.py`) or the step bench (`make bench`), whichever ran there,
    the epoch records first; a measurement on another kind of device is shown, not judged."""
    device = verdicts.PAPER_DEVICE[claim.metric]
    bench, bench_device = _bench_outcome(claim, results_dir)
    records = epoch_times.timing(results_dir, (claim.a, claim.b))
    timed = epoch_times.most_repeats(records, (claim.a, claim.b), device)
    others = [
        _shown_line(
            _epochs_outcome(claim, record),
            ANOTHER_RECORD
            if devices.device_class({"device": record.device}) == device
            else ANOTHER_DEVICE,
        )
        for record in records
        if record != timed
    ]
    if timed is not None:
        outcome = _epochs_outcome(claim, timed)
    elif bench_device == device:
        return dataclasses.replace(bench, also_measured="<br>".join(others))
    else:
        outcome = Outcome(
            claim,
            "not run",
            note=f"no record on a {device}, the paper's device",
            command="python experiments/epoch_times.py --jit_compile --padding=fixed "
            f"--epochs=5 --table={claim.table_id} --json=results/epoch-times-{device.lower()}.json",
        )
    if bench_device not in (None, device):
        others.append(_shown_line(bench, ANOTHER_DEVICE))
    return dataclasses.replace(outcome, also_measured="<br>".join(others))


def _epochs_outcome(claim, record):
    """A time claim's ratio of whole-epoch times from one `epoch_times.EpochTimes` record."""
    a, b = (record.seconds[name] for name in (claim.a, claim.b))
    return _ratio_outcome(
        claim,
        a,
        b,
        sample=f"{len(a)} vs {len(b)} epochs",
        scale=f"{record.path.name}: whole training epochs after the first, {record.device}",
    )


def _shown_line(outcome, why):
    """A time measurement shown beside a verdict and not judged, in words, with `why`
    (ANOTHER_DEVICE or ANOTHER_RECORD)."""
    return f"{outcome.scale}: {_ratio_text(outcome)}, {why}: not judged"


def _ratio_text(outcome):
    if outcome.low is None:
        return f"{outcome.estimate:.2f}× (no interval)"
    return f"{outcome.estimate:.2f}× [{outcome.low:.2f}×, {outcome.high:.2f}×]"


def _bench_outcome(claim, results_dir):
    """(the step bench's `Outcome` of a time claim, the kind of device it ran on); the device
    is None where no bench record timed both rows."""
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
        return Outcome(claim, "not run", command=command), None
    path, measured = found
    a, b = measured[claim.a], measured[claim.b]
    machine = a["environment"]
    device = devices.device_class(machine)
    sample = f"{a['timed_steps_bucket']} vs {b['timed_steps_bucket']} timed steps"
    scale = (
        f"{path.name}: training throughput, bucketed batches, {machine['cpu']} "
        f"({machine['cpu_count']} cores)"
    )
    if BENCH_STEP_SECONDS in a and BENCH_STEP_SECONDS in b:
        values = [_seconds_per_pair(record) for record in (a, b)]
        return _ratio_outcome(claim, *values, sample=sample, scale=scale), device
    ratio = b[BENCH_THROUGHPUT] / a[BENCH_THROUGHPUT]  # time per pair of A over that of B
    why = f"{path.name} keeps each row's mean throughput over its timed steps, not each step's time"
    outcome = Outcome(
        claim,
        "inconclusive",
        ratio,
        sample=sample,
        scale=scale,
        note=_no_interval(claim, ratio, why),
    )
    return outcome, device


def _seconds_per_pair(record):
    """Each timed step's seconds over the row's mean pairs per timed step: values whose mean is
    the row's time per pair (1 / its recorded throughput)."""
    seconds = np.asarray(record[BENCH_STEP_SECONDS])
    pairs_per_step = record[BENCH_THROUGHPUT] * seconds.sum() / len(seconds)
    return seconds / pairs_per_step


def _ratio_outcome(claim, values_a, values_b, sample, scale):
    """The ratio mean(values_a) / mean(values_b) with its bootstrap interval and verdict."""
    result = statistics.compare_ratio(values_a, values_b, expected=claim.expected)
    note = ""
    if min(len(values_a), len(values_b)) < FEW_REPEATS:
        note = f"under {FEW_REPEATS} timed steps in a row: the interval may be too narrow"
    return measured(
        claim,
        result,
        sample=sample,
        scale=scale,
        note=note,
        p=verdicts.p_value(result.replicates, claim),
        leaning_p=verdicts.leaning_p(result.replicates, claim),
        size=verdicts.size_label(claim, result.low, result.high),
        near_tail=verdicts.borderline(result.replicates, claim),
    )


def _no_interval(claim, ratio, why):
    """The note of a ratio without an interval: why, and which side its value lies on."""
    side = (ratio > 1.0) == (claim.expected == "greater")
    return f"no interval: {why}; the ratio itself lies on the {'claimed' if side else 'other'} side"


def assess_latency(claim, results_dir):
    path = latency.record_path(results_dir)
    measured = latency.measured(results_dir)
    if claim.a not in measured or claim.b not in measured:
        return Outcome(claim, "not run", command="make latency")
    a, b = measured[claim.a], measured[claim.b]
    sample = f"{a['batches']} vs {b['batches']} batches"
    device = devices.device_class(latency.environment(results_dir))
    scale = f"{path.name}: {device} inference, batches of 8 pairs"
    if device != verdicts.PAPER_DEVICE[claim.metric]:
        ratio = a["mean"] / b["mean"]
        return Outcome(
            claim,
            "not run",
            note=f"no record on a {verdicts.PAPER_DEVICE[claim.metric]}, the paper's device",
            command="make latency",
            also_measured=f"{scale}: {ratio:.2f}×, {ANOTHER_DEVICE}: not judged",
        )
    if LATENCY_SECONDS in a and LATENCY_SECONDS in b:
        return _ratio_outcome(
            claim, a[LATENCY_SECONDS], b[LATENCY_SECONDS], sample=sample, scale=scale
        )
    return Outcome(
        claim,
        "inconclusive",
        a["mean"] / b["mean"],
        sample=sample,
        scale=scale,
        note=_no_interval(
            claim,
            a["mean"] / b["mean"],
            f"{path.name} keeps each model's mean and standard deviation (A "
            f"{a['std'] / a['mean']:.0%}, B {b['std'] / b['mean']:.0%} of the mean), not each "
            "batch's time",
        ),
    )
