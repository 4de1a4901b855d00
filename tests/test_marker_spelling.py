"""The "unstated in the paper, our choice" marker has one spelling, the specification's."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Written in two pieces so that this file does not hold the spelling it forbids.
ASCII_MARKER = "[U-" + ">S"


@pytest.mark.slow
def test_no_tracked_file_spells_the_marker_in_ascii():
    tracked = subprocess.run(
        ["git", "ls-files", "*.py", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    offenders = [
        path for path in tracked if ASCII_MARKER in (ROOT / path).read_text(encoding="utf-8")
    ]
    assert not offenders, f"spell the marker [U→S], not {ASCII_MARKER}: {offenders}"
