"""The test tiers of tests/conftest.py, on a planted suite run by pytest in a child process: the
fast tier fails an unmarked test that uses over 3 s of CPU, passes one that only waits (as a
test does on a machine busy with other work), and leaves out the real-data tests, run in one
process or in `make test-fast`'s pytest-xdist workers."""

import re
import subprocess
import sys

import pytest

from tests.conftest import REPO, subprocess_env

PLANTED = """
import time

import pytest


def test_lingers():
    start = time.process_time()
    while time.process_time() - start < 4:
        pass


def test_waits():
    time.sleep(4)


def test_quick():
    pass


def test_reads_the_real_data(shared_data):
    pass


@pytest.mark.slow
def test_marked_slow():
    time.sleep(4)
"""


def _pytest(folder, *flags):
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *flags, str(folder)],
        cwd=folder,
        capture_output=True,
        text=True,
        env=subprocess_env(GCNN_MATCH_TEST_DATA=str(folder), GCNN_MATCH_FAST_LIMIT_S="3"),
    )


@pytest.fixture
def planted(tmp_path):
    # The repository's pytest settings (markers) and tiers, around a suite of four tests.
    for source in (REPO / "pyproject.toml", REPO / "tests" / "conftest.py"):
        (tmp_path / source.name).write_text(source.read_text())
    (tmp_path / "test_planted.py").write_text(PLANTED)
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "two workers"])
def test_the_fast_tier_fails_a_slow_unmarked_test_and_leaves_out_real_data(planted, workers):
    fast = _pytest(planted, *workers, "-m", "not slow and not data")
    assert fast.returncode == 1, fast.stdout + fast.stderr
    # Three of five run: the slow and the data test are left out (xdist does not count them).
    assert re.search(r"\b1 failed, 2 passed(, 2 deselected)? in ", fast.stdout), fast.stdout
    assert "FAILED test_planted.py::test_lingers" in fast.stdout, fast.stdout
    assert re.search(r"test_planted.py::test_lingers used 4\.\d s of CPU", fast.stdout), fast.stdout
    assert "over the fast tier's 3 s: mark it @pytest.mark.slow" in fast.stdout, fast.stdout


@pytest.mark.slow
def test_the_whole_suite_holds_no_test_to_the_limit(planted):
    # Outside the fast tier a slow test is allowed; the data test finds its folder and runs.
    whole = _pytest(planted, "-k", "lingers or real_data")
    assert whole.returncode == 0, whole.stdout + whole.stderr
    assert "2 passed" in whole.stdout, whole.stdout
