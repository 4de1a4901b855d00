"""Seconds per training step, timed on a run's own first steps, as a Keras callback."""

import time

import keras


class StepTimer(keras.callbacks.Callback):
    """Times the first training steps of a run and reports their mean duration once.

    The first `warmup` steps absorb tracing and compilation of the first batch shapes and
    are not timed; the next `steps` are. The steps are the run's own (its data pipeline, its
    callbacks), so the rate is what the run trains at, measured at no extra cost. A fit that
    ends before all `steps` are timed reports the steps it timed; one that ends inside the
    warm-up reports its steps with the warm-up in (an over-estimate, never an under-one).

    Args:
        steps_per_epoch: training steps of one whole epoch of the run.
        report: callable(seconds per step, steps per epoch), called once.
        warmup: untimed steps first.
        steps: timed steps.
        clock: the time source (tests pass a fake one).
    """

    def __init__(self, steps_per_epoch, report, warmup=3, steps=6, clock=time.perf_counter):
        super().__init__()
        self.steps_per_epoch = steps_per_epoch
        self.report = report
        self.warmup = warmup
        self.steps = steps
        self.clock = clock
        self.done = 0
        self.reported = False
        self._begin = self._timed_from = self._last = None

    def on_train_begin(self, logs=None):
        if self._begin is None:
            self._begin = self.clock()
            if not self.warmup:
                self._timed_from = self._begin

    def on_train_batch_end(self, batch, logs=None):
        if self.reported:
            return
        self.done += 1
        self._last = self.clock()
        if self.done == self.warmup:
            self._timed_from = self._last
        if self.done == self.warmup + self.steps:
            self._report()

    def on_train_end(self, logs=None):
        if not self.reported and self.done:
            self._report()

    def _report(self):
        if self._timed_from is not None and self.done > self.warmup:
            seconds = (self._last - self._timed_from) / (self.done - self.warmup)
        else:
            seconds = (self._last - self._begin) / self.done
        self.reported = True
        self.report(seconds, self.steps_per_epoch)
