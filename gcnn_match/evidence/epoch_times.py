"""Whole-epoch training times of rows run side by side (`experiments/epoch_times.py`,
results/epoch-times-*.json): each row's seconds per epoch, for time claims judged on the
device a paper timed on."""

import dataclasses
import pathlib

from gcnn_match.evidence import devices
from gcnn_match.files import read_json

# The first epoch holds the compilation (XLA) and the caches' warm-up: the steady state starts
# at the second.
FIRST_STEADY_EPOCH = 2


@dataclasses.dataclass(frozen=True)
class EpochTimes:
    """One record's steady-state epochs of some rows.

    Attributes:
        path: the record.
        device: the device it ran on, in words ("NVIDIA H100 80GB HBM3").
        seconds: {row name: training seconds of each steady-state epoch}.
    """

    path: pathlib.Path
    device: str
    seconds: dict


def read(path):
    """The `EpochTimes` of one record."""
    record = read_json(path)
    seconds = {
        row["name"]: [
            epoch["train_seconds"]
            for epoch in row["epochs"]
            if epoch["epoch"] >= FIRST_STEADY_EPOCH
        ]
        for row in record["rows"]
    }
    return EpochTimes(pathlib.Path(path), record["device"], seconds)


def timing(results_dir, names):
    """The records that timed all `names` over two steady-state epochs at least, by file
    name."""
    found = [read(path) for path in sorted(pathlib.Path(results_dir).glob("epoch-times-*.json"))]
    return [
        record for record in found if all(len(record.seconds.get(name, [])) >= 2 for name in names)
    ]


def most_repeats(records, names, device_class):
    """Of `records` (`timing` of `names`), the one on a `device_class` device ("GPU" or
    "CPU") with the most steady-state epochs in its fewest-timed row (then the first by file
    name); None when none ran on such a device."""
    found = [
        record
        for record in records
        if devices.device_class({"device": record.device}) == device_class
    ]
    if not found:
        return None
    return max(found, key=lambda record: min(len(record.seconds[name]) for name in names))
