"""Atomic file writes: a reader never sees a half-written record, even after a kill."""

import os
import pathlib
import tempfile


def write_atomic(path, data):
    """Writes bytes `data` to `path` through a temporary file in the same folder + rename."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_text_atomic(path, text):
    write_atomic(path, text.encode("utf-8"))
