"""Shared fixtures (the real-data location, a quiet, seeded Keras) and the test tiers: tests
that read the real data are marked `data` by themselves, and the fast tier fails a test that is
too slow for it."""

import os
import pathlib

import pytest
from _pytest.mark.expression import Expression

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

REPO = pathlib.Path(__file__).resolve().parents[1]
_DEFAULT_SHARED = REPO.parent / "shared" / "data"
# The fixtures that reach the real benchmark files or the papers' text: every test that uses
# one, directly or through another fixture, is marked `data`.
DATA_FIXTURES = frozenset({"shared_data", "shared_papers"})
# Seconds the call of an unmarked test may take in the fast tier (GCNN_MATCH_FAST_LIMIT_S
# changes it), judged on the lesser of its CPU time and its wall-clock time: a job beside the
# tests stretches the clock but adds nothing to the CPU time they use, and TensorFlow's threads
# on many cores add CPU time faster than the clock runs. A test over the limit on both counts
# is slow on any machine.
FAST_LIMIT_S = float(os.environ.get("GCNN_MATCH_FAST_LIMIT_S", "3"))
_CALL_CPU_S = pytest.StashKey[float]()


def subprocess_env(**extra):
    """This process' environment for a script run in a child, the repository first on the
    import path (an existing PYTHONPATH, such as a folder of carried packages, stays after it)."""
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


def _shared_data_dir():
    value = os.environ.get("GCNN_MATCH_TEST_DATA")
    if value:
        return pathlib.Path(value).resolve()
    return _DEFAULT_SHARED if _DEFAULT_SHARED.is_dir() else None


@pytest.fixture(scope="session")
def shared_data():
    """The directory of real benchmark files (GCNN_MATCH_TEST_DATA), or skip."""
    path = _shared_data_dir()
    if path is None or not path.is_dir():
        pytest.skip(
            "real data not found: set GCNN_MATCH_TEST_DATA to the folder holding "
            "quora/, snli/, scitail/... (e.g. ../shared/data)"
        )
    return path


@pytest.fixture(scope="session")
def shared_papers():
    """The papers' text files (GCNN_MATCH_PAPERS, or papers/ beside the real data), or skip."""
    value = os.environ.get("GCNN_MATCH_PAPERS")
    data = _shared_data_dir()
    path = pathlib.Path(value) if value else data.parent / "papers" if data else None
    if path is None or not path.is_dir():
        pytest.skip(
            "paper texts not found: set GCNN_MATCH_PAPERS to the folder holding the papers' "
            ".txt files (e.g. ../shared/papers)"
        )
    return path


@pytest.fixture(autouse=True)
def _seeded():
    import keras

    keras.utils.set_random_seed(1234)
    yield


class _WritesMarker:
    """Unpickling this runs code: it writes a marker file (what a tampered shared pickle does)."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return pathlib.Path.write_text, (self.marker, "code ran")


@pytest.fixture
def code_running_pickle(tmp_path):
    """(bytes, marker): unpickling the bytes creates the marker file; checked here once."""
    import pickle

    probe = tmp_path / "probe"
    pickle.loads(pickle.dumps(_WritesMarker(probe)))
    assert probe.exists()  # the attack works, so a test that sees no marker means no unpickling
    marker = tmp_path / "code-ran"
    return pickle.dumps(_WritesMarker(marker)), marker


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    # tryfirst: the marks must be on the items before `-m` deselects by them.
    for item in items:
        if DATA_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.data)


def _fast_tier(config):
    """Whether `-m` leaves out a test marked slow (`not slow`, `not slow and not data`,
    `not (slow or data)`...). Read from the selection itself rather than from a variable the
    Makefile sets, so that `pytest -m "not slow"` typed by hand is held to the same limit;
    pytest's own expression parser reads it, so every spelling counts."""
    expression = config.getoption("markexpr")
    if not expression:
        return False
    return not Expression.compile(expression).evaluate(lambda name, **_: name == "slow")


def _cpu_seconds():
    """CPU time used so far by this process (all its threads, as `time.process_time()`) and by
    its children that have ended (a script the test ran and waited for)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    start = _cpu_seconds()
    try:
        return (yield)
    finally:
        item.stash[_CALL_CPU_S] = _cpu_seconds() - start


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    # Only the call is measured: a setup pays one-off costs (the first test imports Keras in
    # `_seeded`) that would fail whichever test happens to run first.
    report = yield
    cpu = item.stash.get(_CALL_CPU_S, 0.0) if call.when == "call" else 0.0
    marked = any(item.iter_markers("slow")) or any(item.iter_markers("data"))
    if (
        min(cpu, call.duration) > FAST_LIMIT_S
        and report.passed
        and not marked
        and _fast_tier(item.config)
    ):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} used {cpu:.1f} s of CPU ({call.duration:.1f} s on the clock), over "
            f"the fast tier's {FAST_LIMIT_S:g} s: mark it @pytest.mark.slow (or make it faster)"
        )
    return report
