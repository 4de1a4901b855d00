"""Per-epoch evaluation on the selection split, best-checkpoint keeping, early stopping,
ESIM's plateau schedule and resume points (after each epoch and inside long ones), in one
callback."""

import time

import keras
import numpy as np

from gcnn_match.files import read_json, write_json


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
        steps: training steps per epoch (needed with `checkpoint_every_minutes`).
        checkpoint_every_minutes: save a mid-epoch resume point once this many minutes passed
            since the last resume point (None: at epoch ends only).

    State survives a restart: best value and epoch come from `best.json`, epoch records from
    `epochs.jsonl`, the learning-rate halvings from `last.json`, and a run resumed inside an
    epoch (`RunDirectory.resume_point`) continues its running metrics, dropout streams and
    training time from `mid.json` (the weights and optimizer state are loaded by the caller).
    Under tf.distribute a metric's running sum is restored as equal shares of the replicas' total,
    so the resumed epoch's train loss may differ from an uninterrupted run's in its last bits;
    the training itself does not.
    """

    def __init__(
        self,
        run,
        evaluate_dev,
        select_metric,
        patience,
        plateau_halving,
        train_examples,
        log=print,
        steps=None,
        checkpoint_every_minutes=None,
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
        self.steps = steps
        self.checkpoint_seconds = (
            None if checkpoint_every_minutes is None else 60 * checkpoint_every_minutes
        )
        point = run.resume_point()
        self._resumed = point if point is not None and "step" in point else None
        self._epoch = self._step = self._start = self._last_saved = None
        self._seconds_before = 0.0

    def on_epoch_begin(self, epoch, logs=None):
        self._reseed_dropout(epoch)
        self._epoch, self._step, self._seconds_before = epoch, 0, 0.0
        if self._resumed is not None and self._resumed["epoch"] == epoch:
            # Keras has reset the metrics, and the dropout streams were reseeded above: back
            # to their state at the saved step.
            self._restore_mid_epoch_state(self._resumed)
            self._step = self._resumed["step"]
            self._seconds_before = self._resumed["train_seconds"]
        self._resumed = None
        self._start = self._last_saved = time.perf_counter()

    def on_train_batch_end(self, batch, logs=None):
        self._step += 1
        if self.checkpoint_seconds is None or self._step >= self.steps:
            return  # the epoch's own checkpoint follows
        if time.perf_counter() - self._last_saved < self.checkpoint_seconds:
            return
        loss = (logs or {}).get("loss")
        if loss is not None and not np.isfinite(loss):
            return  # never a resume point after a NaN (TerminateOnNaN ends the epoch)
        self._save_mid_epoch()
        self._last_saved = time.perf_counter()

    def _train_seconds(self):
        return self._seconds_before + time.perf_counter() - self._start

    def _reseed_dropout(self, epoch):
        # Dropout's random stream is a per-layer counter that weight files do not restore; tying
        # it to the epoch makes a resumed epoch draw the same masks as an uninterrupted one.
        for generator in _seed_generators(self.model):
            seed = keras.ops.convert_to_numpy(generator.state)[0]
            generator.state.assign(
                keras.ops.convert_to_tensor([seed, epoch << 20], generator.state.dtype)
            )

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        loss = logs.get("loss")
        if loss is not None and not np.isfinite(loss):
            # Nothing of this epoch is kept: the last checkpoint stays the last good one.
            _discard_mid_epoch(self.run / "checkpoints")
            last = read_json(self.run / "checkpoints" / "last.json", {})
            raise FloatingPointError(
                f"training loss became {loss} in epoch {epoch + 1}; the run stopped and keeps "
                f"the checkpoint of epoch {last.get('epoch', 0)} (lower the learning rate or "
                "check the data, then rerun to resume from it)"
            )
        train_seconds = self._train_seconds()
        start = time.perf_counter()
        dev = self.evaluate_dev(self.model)
        eval_seconds = time.perf_counter() - start
        for key, value in dev.items():
            # Keras' prefix for validation metrics: TensorBoard writes them under
            # logs/validation with the tags of the training metrics (epoch_accuracy in both).
            logs[f"val_{key}"] = value
        value = dev[self.select_metric]
        # A run killed after saving this epoch's best checkpoint but before its last one
        # repeats the epoch on resume: the same epoch then counts as the improvement it was.
        improved = value > self.best_value or epoch == self.best_epoch
        if improved:
            self.best_value, self.best_epoch = value, epoch
            self.run.save_best(self.model)
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
            # ESIM restores the parameters only: the optimizer keeps its current state.
            self.run.load_best(self.model)
            optimizer = self.model.optimizer
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
        # so a kill at any point leaves a consistent (weights, epoch) pair to resume from. The
        # epoch's mid-epoch resume point goes after (until then it is stale, never used:
        # `RunDirectory.resume_point`).
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
        _remove_weights(folder, "last", keep=path)
        _discard_mid_epoch(folder)

    def _save_mid_epoch(self):
        # The weight file holds the model and the optimizer; mid.json, written after it, holds
        # the rest of what the epoch's remaining steps and its record depend on.
        folder = self.run / "checkpoints"
        path = folder / f"mid-{self._epoch + 1}-{self._step}.weights.h5"
        self.run.save_atomically(self.model, path, weights_only=True)
        write_json(
            folder / "mid.json",
            {
                "epoch": self._epoch,  # finished epochs, as in last.json
                "step": self._step,
                "weights": path.name,
                "train_seconds": self._train_seconds(),
                "metrics": _values(self.model.metrics_variables),
                "seed_generators": _values(g.state for g in _seed_generators(self.model)),
            },
        )
        _remove_weights(folder, "mid", keep=path)

    def _restore_mid_epoch_state(self, record):
        generators = [g.state for g in _seed_generators(self.model)]
        for variables, values in (
            (self.model.metrics_variables, record["metrics"]),
            (generators, record["seed_generators"]),
        ):
            for variable, value in zip(variables, values, strict=True):
                variable.assign(np.asarray(value, variable.dtype))


def _seed_generators(model):
    """The random streams of every layer (dropout's), in a fixed order."""
    return [g for layer in model._flatten_layers() for g in getattr(layer, "_seed_generators", ())]


def _remove_weights(folder, kind, keep=None):
    for old in folder.glob(f"{kind}-*.weights.h5"):
        if old != keep:
            old.unlink()


def _discard_mid_epoch(folder):
    # The record first: none may name a removed file.
    (folder / "mid.json").unlink(missing_ok=True)
    _remove_weights(folder, "mid")


def _values(variables):
    """Variables as JSON lists: float32 and integer values survive the round trip exactly."""
    return [keras.ops.convert_to_numpy(v).tolist() for v in variables]
