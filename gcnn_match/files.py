"""Atomic file writes (a reader never sees a half-written record, even after a kill), the
JSON records every package reads and writes, and the error of a file that cannot be read."""

import json
import os
import pathlib
import secrets


class InputError(Exception):
    """A file a run reads is missing, cut or malformed. Every script's `cli.run` ends such an
    error in the one line `error: <one_line>` and exit status 2; `one_line` names the file, the
    line or byte where known, and the fix."""

    @property
    def one_line(self) -> str:
        return str(self)


def write_atomic(path, data):
    """Writes bytes `data` to `path` through a temporary file in the same folder + rename. The
    file gets the mode the process' umask gives a new file (0644 under umask 022), as
    `open(path, "wb")` would: the temporary file is created with mode 0666, which the umask
    narrows, where `tempfile.mkstemp` would make every record 0600."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f".{path.name}.{secrets.token_hex(8)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
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


def write_json(path, value):
    """`value` as indented JSON with sorted keys, written atomically; values JSON cannot hold
    (paths, dates) are written as their `str`."""
    write_text_atomic(path, json.dumps(value, indent=2, sort_keys=True, default=str) + "\n")


def read_json(path, default=None):
    """The JSON value in `path`, or `default` when there is no such file."""
    path = pathlib.Path(path)
    if not path.exists():
        return default
    return json.loads(path.read_text("utf-8"))
