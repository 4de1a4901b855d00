"""The Δ cells of docs/ tables printed by `experiments/compare.py` agree with what that command
prints from the committed records now, so a rerun of either row cannot leave a table behind."""

import pathlib
import re
import shlex

import pytest

from gcnn_match.claims import assess, readings
from gcnn_match.experiments import registry

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"^ {4}python experiments/compare\.py (.+)$", re.MULTILINE)
DELTA = re.compile(r"([+−-]\d+\.\d\d) \[([+−-]\d+\.\d\d), ([+−-]\d+\.\d\d)\]")

pytestmark = pytest.mark.slow


def _quoted_commands():
    """(doc name, argument list, the table that follows the command) for each quoted command."""
    found = []
    for path in sorted((ROOT / "docs").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        for match in COMMAND.finditer(text):
            after = text[match.end() :].lstrip("\n").split("\n\n", 1)[0]
            table = after if after.startswith("|") else ""
            found.append((path.name, shlex.split(match.group(1)), table))
    return found


def _pairs(arguments):
    """(table, [(A, B)]) of compare.py's arguments."""
    flags = dict(a.lstrip("-").split("=", 1) for a in arguments)
    if "pairs" in flags:
        pairs = [tuple(p.split(":")) for p in flags["pairs"].split(",")]
    else:
        pairs = [(flags["a"], flags["b"])]
    return flags["table"], pairs


def _printed(table, pairs):
    """compare.py's lines for `pairs` of `table` at its default metric and scales."""
    metric = readings.primary_metric(table)
    store = assess.RecordedPredictions(ROOT / "results")
    lines = []
    for a, b in pairs:
        name_a, name_b = (registry.select(table=table, rows=[row])[0].name for row in (a, b))
        found = assess.difference(store, table, name_a, name_b, metric, ["full", "low-resource"])
        lines.append(readings.describe(found, table, metric, name_a, name_b))
    return lines


def _normal(text):
    return text.replace("−", "-")


QUOTED = _quoted_commands()


@pytest.mark.parametrize(
    "doc, arguments, table", QUOTED, ids=[f"{doc}-{k}" for k, (doc, _, _) in enumerate(QUOTED)]
)
def test_a_docs_table_shows_what_its_compare_command_prints(doc, arguments, table):
    table_id, pairs = _pairs(arguments)
    cells = [tuple(map(_normal, m)) for m in DELTA.findall(table)]
    assert len(cells) == len(pairs), f"{doc}: {len(pairs)} pairs, {len(cells)} Δ cells"
    for (a, b), cell, line in zip(pairs, cells, _printed(table_id, pairs)):
        expected = "Δ = {} points [{}, {}]".format(*cell)
        assert expected in line, f"{doc}: {a} vs {b} shows {cell}; compare.py prints: {line}"


def test_the_docs_quote_compare_commands():
    assert len(QUOTED) >= 2
