"""Synthetic per-example prediction records (`gcnn_match/evidence/predictions.py`) whose rows have a
known accuracy."""

import numpy as np
import pandas as pd

from gcnn_match.evidence import predictions


def row_lines(row, accuracy, split="test", seeds=5, units=2000, rng=None):
    """Lines of a row whose seeds are right on each example with probability `accuracy`."""
    rng = rng or np.random.default_rng(0)
    frames = []
    for seed in range(1, seeds + 1):
        correct = (rng.random(units) < accuracy).astype(int)
        frames.append(
            pd.DataFrame(
                {
                    "row": row,
                    "seed": seed,
                    "config": "low-resource-e300",
                    "epochs": 7 + seed,
                    "max_epochs": 20,
                    "split": split,
                    "uid": [f"u{i}" for i in range(units)],
                    "gold": "same",
                    "predicted": np.where(correct == 1, "same", "different"),
                    "correct": correct,
                    "average_precision": np.nan,
                    "reciprocal_rank": np.nan,
                    "fever_correct": np.nan,
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def write_lines(results_dir, table, *frames, scale="low-resource"):
    path = predictions.record_path(results_dir, table, scale)
    predictions.write_record(path, pd.concat(frames, ignore_index=True))
