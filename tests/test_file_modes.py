"""The files the package writes (records, vocabularies) get the mode the umask gives a new file,
as `open(path, "w")` would, not the 0600 of a private temporary file."""

import os
import stat

import pytest

from gcnn_match.data.vocab import Vocabulary
from gcnn_match.files import write_json, write_text_atomic


def _writers(folder):
    """(name, function writing one file named `name` into `folder`)."""
    return [
        ("metrics.json", lambda path: write_json(path, {"accuracy": 0.5})),
        ("notes.txt", lambda path: write_text_atomic(path, "one line\n")),
        ("vocab.txt", lambda path: Vocabulary.build([["a", "b"]]).save(str(path))),
    ]


@pytest.mark.parametrize(
    "umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)], ids=["022", "027", "077"]
)
def test_written_files_take_the_umasks_mode(tmp_path, umask, mode):
    (tmp_path / "vocab.txt").write_text("")  # a file replaced takes the new file's mode
    (tmp_path / "vocab.txt").chmod(0o600)
    previous = os.umask(umask)
    try:
        for name, write in _writers(tmp_path):
            write(tmp_path / name)
    finally:
        os.umask(previous)
    modes = {path.name: stat.S_IMODE(path.stat().st_mode) for path in tmp_path.iterdir()}
    assert modes == {name: mode for name, _ in _writers(tmp_path)}  # no temporary file left
