"""Progress within a training epoch (`gcnn_match.progress.Progress`), as a Keras callback."""

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
        **options: `Progress` options (stream, interval, delay).
    """

    def __init__(self, steps, epochs, **options):
        super().__init__()
        self.steps = steps
        self.epochs = epochs
        self.options = options
        self.progress = None

    def on_epoch_begin(self, epoch, logs=None):
        self.progress = Progress(
            self.steps, f"epoch {epoch + 1}/{self.epochs}", unit="steps", **self.options
        )

    def on_train_batch_end(self, batch, logs=None):
        self.progress.update(1, loss=(logs or {}).get("loss"))

    def on_epoch_end(self, epoch, logs=None):
        self.progress.close()
