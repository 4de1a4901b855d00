"""Progress lines: redrawn on a terminal, periodic full lines in a log, silent for quick work;
the remaining time of a sequence of runs from measured durations."""

import io

from gcnn_match.progress import Progress, RemainingTime


class _Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def _run(stream, seconds_per_unit, total=100, **kwargs):
    clock = _Clock()
    progress = Progress(total, "snli/train: tokenizing", stream=stream, clock=clock, **kwargs)
    for _ in range(total):
        clock.now += seconds_per_unit
        progress.update()
    progress.close()
    return stream.getvalue()


def test_quick_work_prints_nothing():
    assert _run(io.StringIO(), 0.01) == ""  # 1 s in all, under the 2 s delay
    assert _run(_Terminal(), 0.01) == ""


def test_a_log_gets_a_full_line_per_interval_and_no_carriage_returns():
    text = _run(io.StringIO(), 1.0, interval=30.0)  # 100 s of work
    lines = text.splitlines()
    assert "\r" not in text
    # First report once the 2 s delay has passed, then every 30 s: at 2, 32, 62, 92 s.
    assert [line.split(": ")[2].split(" ")[0] for line in lines] == [
        "2/100",
        "32/100",
        "62/100",
        "92/100",
    ]
    assert lines[1] == ("snli/train: tokenizing: 32/100 examples (32%), 32s elapsed, ~1m08s left")


def test_a_terminal_line_is_redrawn_and_erased_at_the_end():
    text = _run(_Terminal(), 1.0, interval=10.0)
    assert "\n" not in text
    reports = text.split("\r")[1:]
    assert reports[0].startswith("snli/train: tokenizing: 2/100 examples")
    assert reports[-1] == "" and reports[-2].strip() == ""  # erased: the caller's line follows


def test_values_follow_the_count_and_a_slow_first_step_does_not_count_in_the_time_left():
    clock = _Clock()
    stream = io.StringIO()
    progress = Progress(
        10, "epoch 1/3", unit="steps", stream=stream, clock=clock, delay=0, interval=0
    )
    clock.now += 30  # tracing and compiling the first step
    progress.update(1, loss=0.693147)
    clock.now += 6
    progress.update(3, loss=0.5)
    assert stream.getvalue().splitlines() == [
        "epoch 1/3: 1/10 steps (10%), loss 0.6931, 30s elapsed",
        "epoch 1/3: 4/10 steps (40%), loss 0.5000, 36s elapsed, ~12s left",
    ]


def test_remaining_time_is_the_mean_run_times_the_runs_left():
    remaining = RemainingTime(4)
    assert remaining.finished(600) == (
        "progress: 1/4 runs trained in 10m00s (mean 10m00s per run); ~30m00s left"
    )
    assert remaining.finished(1200).endswith("(mean 15m00s per run); ~30m00s left")
    remaining.finished(900)
    assert remaining.finished(3 * 3600) == (
        "progress: 4/4 runs trained in 3h45m (mean 56m15s per run)"
    )
