"""Two rows compared on synthetic records and read both ways (`readings.py`), and the command
line of experiments/compare.py: its lines, and each mistake as one line naming its flag."""

import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.claims import readings, records
from tests.claims.synthetic_records import row_lines, write_lines

TABLE = "c-lstms-snli"
SHARED, PAPER_ROW = "clstm/snli/lc_lstms_shared_lstm_pair", "clstm/snli/lc_lstms"


@pytest.mark.parametrize(
    "accuracy_a,accuracy_b,expected",
    [(0.85, 0.75, "A higher"), (0.75, 0.85, "B higher"), (0.80, 0.80, "no difference resolved")],
)
def test_the_difference_and_its_two_sided_reading(tmp_path, accuracy_a, accuracy_b, expected):
    rng = np.random.default_rng(0)
    a, b = row_lines(SHARED, accuracy_a, rng=rng), row_lines(PAPER_ROW, accuracy_b, rng=rng)
    write_lines(tmp_path, TABLE, a, b)
    found = records.difference(
        records.RecordedPredictions(tmp_path),
        TABLE,
        SHARED,
        PAPER_ROW,
        "test_accuracy",
        ["low-resource"],
    )
    result = found.comparison
    # Every seed scored every unit: each row's metric is the mean of its written lines.
    accuracy = [lines["correct"].mean() for lines in (a, b)]
    assert found.means == pytest.approx(accuracy)
    assert result.estimate == pytest.approx(accuracy[0] - accuracy[1])
    assert result.estimate == pytest.approx(accuracy_a - accuracy_b, abs=0.02)
    assert result.low < result.estimate < result.high
    assert readings.reading(result.low, result.high) == expected
    line = readings.describe(found, TABLE, "test_accuracy", SHARED, PAPER_ROW)
    assert line.startswith(
        f"{TABLE} low-resource test_accuracy: A lc_lstms_shared_lstm_pair "
        f"{100 * found.means[0]:.2f} (5 seeds, epochs 8–12 / 20) vs B lc_lstms "
        f"{100 * found.means[1]:.2f} (5 seeds, epochs 8–12 / 20): "
        f"Δ = {100 * result.estimate:+.2f} points [{100 * result.low:+.2f}, "
        f"{100 * result.high:+.2f}] over 2000 units: {expected}"
    )
    assert line.endswith("(95% seed-and-test-set interval, docs/design.md#claims)")


def test_no_records_at_the_scale_gives_nothing(tmp_path):
    write_lines(tmp_path, TABLE, row_lines(SHARED, 0.8), row_lines(PAPER_ROW, 0.8))
    store = records.RecordedPredictions(tmp_path)
    args = (store, TABLE, SHARED, PAPER_ROW, "test_accuracy")
    assert records.difference(*args, ["full"]) is None
    assert records.difference(*args, ["full", "low-resource"]).scale == "low-resource"


def test_the_primary_metric_is_the_one_the_claims_use_else_the_rows_one():
    assert readings.primary_metric("c-lstms-snli") == "test_accuracy"
    assert readings.primary_metric("gcnn-snli") == "test_accuracy"  # no claims
    # The F1 claims are no means over units.
    assert readings.primary_metric("coin-lcqmc") == "test_accuracy"
    with pytest.raises(ValueError, match=r"claims use test_fever_score, test_label_accuracy\)$"):
        readings.primary_metric("attconv-fever")
    with pytest.raises(ValueError, match=r"its rows report test_map, test_mrr, test_p@1\)$"):
        readings.primary_metric("c-lstms-wikiqa")
    with pytest.raises(ValueError, match="claims use dev_matched_accuracy, test_accuracy"):
        readings.primary_metric("gcnn-multinli")
    with pytest.raises(ValueError, match=r"claims use test_10_p@1, test_p@1\)$"):
        readings.primary_metric("c-lstms-yahoo")


def _compare(results_dir, *flags):
    return subprocess.run(
        [sys.executable, "experiments/compare.py", f"--results_dir={results_dir}", *flags],
        capture_output=True,
        text=True,
    )


@pytest.mark.slow
def test_the_command_prints_one_line_per_pair(tmp_path):
    rng = np.random.default_rng(1)
    single = "clstm/snli/lc_lstms_single_direction"
    write_lines(
        tmp_path,
        TABLE,
        row_lines(SHARED, 0.85, rng=rng),
        row_lines(PAPER_ROW, 0.75, rng=rng),
        row_lines(single, 0.75, rng=rng),
    )
    done = _compare(
        tmp_path,
        f"--table={TABLE}",
        "--pairs=lc_lstms_shared_lstm_pair:LC-LSTMs,LC-LSTMs (Single Direction):lc_lstms",
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.startswith(f"{TABLE} low-resource test_accuracy: A lc_lstms_shared_lstm_pair")
    assert first.split(": ")[-1].startswith("A higher (")
    assert second.startswith(f"{TABLE} low-resource test_accuracy: A lc_lstms_single_direction")
    assert second.split(": ")[-1].startswith("no difference resolved (")


@pytest.mark.slow
@pytest.mark.parametrize(
    "flags,message",
    [
        (["--table=c-lstms", "--a=x", "--b=y"], "--table: 'c-lstms' is none of the tables;"),
        ([f"--table={TABLE}", "--a=lc_lstms", "--b=lstm"], f"--b: no row of {TABLE} is named"),
        ([f"--table={TABLE}", "--a=lc_lstms"], "--a and --b: name both rows"),
        ([f"--table={TABLE}", "--pairs=lc_lstms"], "--pairs: 'lc_lstms' is not of the form A:B"),
        (
            [f"--table={TABLE}", "--pairs=lc_lstms:tc_lstms:lstm"],
            "--pairs: 'lc_lstms:tc_lstms:lstm' is not of the form A:B",
        ),
        (
            [f"--table={TABLE}", "--a=lc_lstms", "--b=LC-LSTMs"],
            "--a and --b: both name clstm/snli/lc_lstms; name two different rows",
        ),
        (
            [f"--table={TABLE}", "--pairs=tc_lstms:lc_lstms,LC-LSTMs:lc_lstms"],
            "--pairs: 'LC-LSTMs:lc_lstms' compares clstm/snli/lc_lstms with itself",
        ),
        (
            [f"--table={TABLE}", "--a=tc_lstms", "--b=lc_lstms"],
            "--a: no per-example test predictions are recorded for clstm/snli/tc_lstms in ",
        ),
        (
            ["--table=c-lstms-wikiqa", "--a=lc_lstms", "--b=tc_lstms"],
            "--metric: c-lstms-wikiqa has no single primary metric",
        ),
        (
            [f"--table={TABLE}", "--a=lc_lstms", "--b=tc_lstms", "--metric=test_f1"],
            "--metric: 'test_f1' is not a metric of c-lstms-snli",
        ),
    ],
)
def test_each_mistake_is_one_line_naming_its_flag(tmp_path, flags, message):
    write_lines(tmp_path, TABLE, row_lines(PAPER_ROW, 0.8))
    done = _compare(tmp_path, *flags)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"error: {message}")
    assert done.stderr.count("\n") == 1
    if "no per-example" in message:
        assert done.stderr.rstrip().endswith(
            "(runs made before predictions were kept have none); (re)train it: python "
            "experiments/reproduce.py --table=c-lstms-snli --rows=tc_lstms --scale=low-resource "
            "--seeds=1,2,3,4,5"
        )
