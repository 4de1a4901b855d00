"""A finished run directory on disk (metrics, config, per-example predictions), for the reporting
tests that render tables from runs without training any."""

import json

import numpy as np

LABELS = ("different", "same")


def finished_run(root, seed, gold, predicted):
    """`root`/seed<seed>: a finished LCQMC low-resource run whose test predictions are `predicted`
    (label indices) against `gold`."""
    run = root / f"seed{seed}"
    (run / "predictions").mkdir(parents=True)
    for split in ("dev", "test"):
        rows = ["uid\tgold\tpredicted\tp_different\tp_same"]
        rows += [
            f"u{i}\t{LABELS[g]}\t{LABELS[p]}\t{0.4 if p else 0.6}\t{0.6 if p else 0.4}"
            for i, (g, p) in enumerate(zip(gold, predicted))
        ]
        (run / "predictions" / f"{split}.tsv").write_text("\n".join(rows) + "\n", "utf-8")
    (run / "config.json").write_text(json.dumps({"dataset": "lcqmc", "seed": seed}), "utf-8")
    metrics = {
        "seed": seed,
        "scale": "low-resource",
        "embeddings": "random",
        "examples": {"train": 9, "dev": 1, "test": len(gold)},
        "trainable_params": 100,
        "trainable_params_without_embeddings": 60,
        "epochs_run": 2 + seed,
        "best_epoch": 1 + seed,
        "seconds_per_epoch": 10.0 + seed,
        "test_accuracy": float(np.mean(np.equal(gold, predicted))),
    }
    (run / "metrics.json").write_text(json.dumps(metrics), "utf-8")
    return run
