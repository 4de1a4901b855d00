"""Progress of long loops and of a sequence of runs, readable on a terminal and in CI logs.

    progress = Progress(len(examples), "quora/dev: tokenizing")
    for example in examples:
        ...
        progress.update()
    progress.close()

On a terminal the line is redrawn in place (carriage return) a few times a second; in a log
file (standard error is not a TTY) a full line is printed at most every `interval` seconds, so
CI logs get a handful of lines instead of thousands of carriage returns. Work that finishes
within `delay` seconds prints nothing.
"""

import sys
import time


def format_duration(seconds):
    """42s, 3m07s, 2h05m."""
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class Progress:
    """Counts done units of `total` and reports them with the elapsed and remaining time.

    Args:
        total: units in the whole loop.
        label: what is being done, e.g. "snli/train: tokenizing".
        unit: name of a unit in the message.
        stream: where to write (default standard error); its `isatty()` picks the style.
        interval: seconds between reports (default 0.2 on a terminal, 30 in a log).
        delay: seconds of silence before the first report.
        clock: the time source (tests pass a fake one).
    """

    def __init__(
        self,
        total,
        label,
        unit="examples",
        stream=None,
        interval=None,
        delay=2.0,
        clock=time.monotonic,
    ):
        self.total = total
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = interval if interval is not None else (0.2 if self.tty else 30.0)
        self.clock = clock
        self.done = 0
        self._start = clock()
        self._first = None  # (time, done) after the first update: the rate is measured from
        # there, so a slow first unit (tracing and compiling the first step) does not count
        self._next = self._start + delay
        self._width = 0  # length of the line drawn on the terminal

    def update(self, n=1, **values):
        """Adds `n` done units; `values` (e.g. loss=0.43) are shown after the count."""
        self.done += n
        now = self.clock()
        if self._first is None:
            self._first = (now, self.done)
        if now < self._next:
            return
        self._next = now + self.interval
        self._report(self.message(now, values))

    def message(self, now, values=None):
        elapsed = now - self._start
        text = f"{self.label}: {self.done:,}/{self.total:,} {self.unit}"
        if self.total:
            text += f" ({100 * self.done / self.total:.0f}%)"
        for key, value in (values or {}).items():
            if value is not None:
                text += f", {key} {float(value):.4f}"
        text += f", {format_duration(elapsed)} elapsed"
        since, done_then = self._first or (now, self.done)
        if done_then < self.done < self.total:
            rate = (now - since) / (self.done - done_then)
            text += f", ~{format_duration(rate * (self.total - self.done))} left"
        return text

    def _report(self, text):
        if self.tty:
            self.stream.write("\r" + text.ljust(self._width))
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def close(self):
        """Erases the terminal line (the caller's summary line takes its place)."""
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0


class RemainingTime:
    """Estimated time left of a sequence of runs, from the measured durations of the runs
    finished so far (their mean, times the runs still to train).

    Args:
        runs: how many runs have to be trained.
    """

    def __init__(self, runs):
        self.runs = runs
        self.durations = []

    def finished(self, seconds):
        """Records a trained run's duration; returns the progress line to print."""
        self.durations.append(seconds)
        done, spent = len(self.durations), sum(self.durations)
        mean = spent / done
        text = (
            f"progress: {done}/{self.runs} runs trained in {format_duration(spent)} "
            f"(mean {format_duration(mean)} per run)"
        )
        if done < self.runs:
            text += f"; ~{format_duration(mean * (self.runs - done))} left"
        return text
