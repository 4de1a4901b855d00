"""Progress within a training epoch and within a long `model.predict` (an evaluation of
thousands of pairs takes minutes on a CPU), as Keras callbacks (`gcnn_match.progress.Progress`)."""

import keras

from gcnn_match.progress import Progress


class EpochProgress(keras.callbacks.Callback):
    """Steps done, the epoch's running loss and the time left, while an epoch trains.

    Replaces Keras' own bar (fit with verbose=0): on a terminal the line is redrawn and erased
    at the end of the epoch, so the epoch's one-line summary (`RunMonitor`) stands alone; in a
    log a line is printed at most every `interval` seconds of a long epoch.

    Args:
        steps: training steps per epoch.
        epochs: the run's last epoch (for the "epoch 3/20" label).
        first_step: steps of the first epoch done before (a run resumed inside it).
        **options: `Progress` options (stream, interval, delay).
    """

    def __init__(self, steps, epochs, first_step=0, **options):
        super().__init__()
        self.steps = steps
        self.epochs = epochs
        self.first_step = first_step
        self.options = options
        self.progress = None

    def on_epoch_begin(self, epoch, logs=None):
        self.progress = Progress(
            self.steps, f"epoch {epoch + 1}/{self.epochs}", unit="steps", **self.options
        )
        if self.first_step:
            self.progress.update(self.first_step)
            self.first_step = 0

    def on_train_batch_end(self, batch, logs=None):
        self.progress.update(1, loss=(logs or {}).get("loss"))

    def clear(self):
        """Erases the terminal line, so that a line printed next stands alone (the next
        step draws it again)."""
        if self.progress is not None:
            self.progress.close()

    def on_epoch_end(self, epoch, logs=None):
        self.progress.close()


class PredictProgress(keras.callbacks.Callback):
    """Pairs predicted and the time left, while `model.predict` (with verbose=0) runs: nothing
    for a prediction done within `Progress`'s delay; on a terminal the line is erased at the
    end, so the caller's result stands alone.

    Args:
        total: pairs to predict (a batch's rows count as its pairs).
        label: what is being done, e.g. "quora/test: predicting".
        **options: `Progress` options (stream, interval, delay).
    """

    def __init__(self, total, label="predicting", **options):
        super().__init__()
        self.progress = Progress(total, label, unit="pairs", **options)

    def on_predict_batch_end(self, batch, logs=None):
        self.progress.update(int(logs["outputs"].shape[0]))

    def on_predict_end(self, logs=None):
        self.progress.close()
