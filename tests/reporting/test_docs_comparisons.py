"""The Δ cells and the two rows' mean cells of docs/ tables printed by `experiments/compare.py`
agree with what that command, as quoted, prints from the committed records now, so a rerun of
either row cannot leave a table behind."""

import re
import shlex
import subprocess
import sys

import pytest

from tests.conftest import REPO, subprocess_env

COMMAND = re.compile(r"^ {4}python (experiments/compare\.py .+)$", re.MULTILINE)
DELTA = re.compile(r"([+−-]\d+\.\d\d) \[([+−-]\d+\.\d\d), ([+−-]\d+\.\d\d)\]")
# A row's mean as a table cell shows it ("70.36", "70.36 ± 1.23"), and as compare.py prints it:
# "A <row> 70.36 (5 seeds, ...) vs B <row> 70.79 (...)".
MEAN_CELL = re.compile(r"(?<![\d.±] )\b\d{1,3}\.\d\d\b")
PRINTED_MEANS = re.compile(r"\bA \S+ (\d+\.\d\d) \(.*\bvs B \S+ (\d+\.\d\d) \(")

pytestmark = pytest.mark.slow


def _quoted_commands():
    """(doc name, the command's arguments, the table that follows it) for each quoted command."""
    found = []
    for path in sorted((REPO / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for match in COMMAND.finditer(text):
            after = text[match.end() :].lstrip("\n").split("\n\n", 1)[0]
            table = after if after.startswith("|") else ""
            found.append((path.name, shlex.split(match.group(1)), table))
    return found


QUOTED = _quoted_commands()


@pytest.mark.parametrize(
    "doc, arguments, table", QUOTED, ids=[f"{doc}-{k}" for k, (doc, _, _) in enumerate(QUOTED)]
)
def test_a_docs_table_shows_what_its_compare_command_prints(doc, arguments, table):
    done = subprocess.run(
        [sys.executable, *arguments], cwd=REPO, env=subprocess_env(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    printed = done.stdout.strip().splitlines()
    cells = [tuple(cell.replace("−", "-") for cell in m) for m in DELTA.findall(table)]
    assert len(cells) == len(printed), f"{doc}: {len(printed)} comparisons, {len(cells)} Δ cells"
    for cell, line in zip(cells, printed):
        expected = "Δ = {} points [{}, {}]".format(*cell)
        assert expected in line, f"{doc}: the table shows {cell}; compare.py prints: {line}"
    means = MEAN_CELL.findall(DELTA.sub("", table))
    printed_means = [mean for line in printed for mean in PRINTED_MEANS.search(line).groups()]
    assert means == printed_means, (
        f"{doc}: the table's A and B means {means}; compare.py prints {printed_means}"
    )


def test_the_docs_quote_compare_commands():
    assert len(QUOTED) >= 2
