"""Per-epoch evaluation on the selection split, best-checkpoint keeping, early stopping,
ESIM's plateau schedule and resumable last checkpoints, in one callback."""

import time

import keras
import numpy as np

from gcnn_match.training.run_dir import read_json, write_json


class RunMonitor(keras.callbacks.Callback):
    """Evaluates the dev split after every epoch and keeps the run's records.

    Args:
        run: the RunDirectory.
        evaluate_dev: callable(model) -> dict of dev metrics (file order, masked, NumPy).
        select_metric: key of the dev metric used for selection (higher is better).
        patience: stop after this many epochs without improvement (ignored while the plateau
            schedule still has halvings left).
        plateau_halving: ESIM's schedule: on no improvement halve the learning rate and restore
            the best weights, at most this many times, then stop. 0 disables it.
        train_examples: examples per epoch (for examples/s).

    State survives a restart: best value and epoch come from `best.json`, epoch records from
    `epochs.jsonl`, the learning-rate halvings from `last.json`.
    """

    def __init__(
        self, run, evaluate_dev, select_metric, patience, plateau_halving, train_examples, log=print
    ):
        super().__init__()
        self.run = run
        self.evaluate_dev = evaluate_dev
        self.select_metric = select_metric
        self.patience = patience
        self.plateau_halving = plateau_halving
        self.train_examples = train_examples
        self.log = log
        best = read_json(run / "checkpoints" / "best.json", {})
        self.best_value = best.get("value", -np.inf)
        self.best_epoch = best.get("epoch", -1)
        self.halvings = read_json(run / "checkpoints" / "last.json", {}).get("halvings", 0)
        self.records = run.epochs()
        self._start = None

    def on_epoch_begin(self, epoch, logs=None):
        self._reseed_dropout(epoch)
        self._start = time.perf_counter()

    def _reseed_dropout(self, epoch):
        # Dropout's random stream is a per-layer counter that weight files do not restore; tying
        # it to the epoch makes a resumed epoch draw the same masks as an uninterrupted one.
        for layer in self.model._flatten_layers():
            for generator in getattr(layer, "_seed_generators", ()):
                seed = keras.ops.convert_to_numpy(generator.state)[0]
                generator.state.assign(
                    keras.ops.convert_to_tensor([seed, epoch << 20], generator.state.dtype)
                )

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        loss = logs.get("loss")
        if loss is not None and not np.isfinite(loss):
            # Nothing of this epoch is saved: the last checkpoint stays the last good one.
            last = read_json(self.run / "checkpoints" / "last.json", {})
            raise FloatingPointError(
                f"training loss became {loss} in epoch {epoch + 1}; the run stopped and keeps "
                f"the checkpoint of epoch {last.get('epoch', 0)} (lower the learning rate or "
                "check the data, then rerun to resume from it)"
            )
        train_seconds = time.perf_counter() - self._start
        start = time.perf_counter()
        dev = self.evaluate_dev(self.model)
        eval_seconds = time.perf_counter() - start
        for key, value in dev.items():
            logs[f"dev_{key}"] = value
        value = dev[self.select_metric]
        # A run killed after saving this epoch's best checkpoint but before its last one
        # repeats the epoch on resume: the same epoch then counts as the improvement it was.
        improved = value > self.best_value or epoch == self.best_epoch
        if improved:
            self.best_value, self.best_epoch = value, epoch
            self.run.save_atomically(self.model, self.run.best_weights, weights_only=True)
            write_json(self.run / "checkpoints" / "best.json", {"epoch": epoch, "value": value})
        learning_rate = float(keras.ops.convert_to_numpy(self.model.optimizer.learning_rate))
        record = {
            "epoch": epoch + 1,
            "train_loss": logs.get("loss"),
            "train_accuracy": logs.get("accuracy"),
            **{f"dev_{k}": v for k, v in dev.items()},
            "train_seconds": train_seconds,
            "eval_seconds": eval_seconds,
            "train_examples_per_second": self.train_examples / train_seconds,
            "learning_rate": learning_rate,
            "best": improved,
        }
        self.records = [r for r in self.records if r["epoch"] < epoch + 1] + [record]
        self.log(
            f"epoch {epoch + 1}: loss {record['train_loss']:.4f}, dev {self.select_metric} "
            f"{value:.4f}{' (best)' if improved else ''}, {train_seconds:.1f}s train, "
            f"{record['train_examples_per_second']:.0f} ex/s"
        )
        if not improved:
            self._on_no_improvement(epoch)
        # Records first, then the resume point: a kill in between repeats the epoch, whose
        # record then replaces this one (never an epoch without its record).
        self.run.write_epochs(self.records)
        self._save_last(epoch)

    def _on_no_improvement(self, epoch):
        if self.plateau_halving:
            if self.halvings >= self.plateau_halving:
                self.log(f"stopping: {self.halvings} learning-rate halvings without improvement")
                self.model.stop_training = True
                return
            self.halvings += 1
            # The weight file also holds the optimizer's state (it is what resuming needs);
            # ESIM restores the parameters only, so keep the optimizer's current state.
            optimizer = self.model.optimizer
            state = [keras.ops.convert_to_numpy(v) for v in optimizer.variables]
            self.model.load_weights(self.run.best_weights)
            for variable, value in zip(optimizer.variables, state):
                variable.assign(value)
            optimizer.learning_rate.assign(optimizer.learning_rate * 0.5)
            self.log(
                f"no improvement: learning rate halved (x{self.halvings}), best weights "
                f"of epoch {self.best_epoch + 1} restored"
            )
        elif epoch - self.best_epoch >= self.patience:
            self.log(f"early stopping: no improvement for {self.patience} epochs")
            self.model.stop_training = True

    def _save_last(self, epoch):
        # The epoch number is part of the file name and last.json is written after the weights,
        # so a kill at any point leaves a consistent (weights, epoch) pair to resume from.
        folder = self.run / "checkpoints"
        path = folder / f"last-{epoch + 1}.weights.h5"
        self.run.save_atomically(self.model, path, weights_only=True)
        write_json(
            folder / "last.json",
            {
                "epoch": epoch + 1,
                "weights": path.name,
                "halvings": self.halvings,
                "stopped": bool(self.model.stop_training),
            },
        )
        for old in folder.glob("last-*.weights.h5"):
            if old != path:
                old.unlink()
