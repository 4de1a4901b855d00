"""Shared fixtures: the real-data location and a quiet, seeded Keras."""

import os
import pathlib

import pytest

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

REPO = pathlib.Path(__file__).resolve().parents[1]
_DEFAULT_SHARED = REPO.parent / "shared" / "data"


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
