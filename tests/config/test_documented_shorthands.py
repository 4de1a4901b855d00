"""docs/configuration.md lists every shorthand flag of the override table, and no other."""

import pathlib
import re

from gcnn_match.config.overrides import SHORTHANDS

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_the_documented_shorthands_are_the_table_s():
    text = DOC.read_text("utf-8")
    listed = re.search(r"The flags `([^`]*)`\s+are shorthands of overrides", text)
    assert listed, "docs/configuration.md no longer introduces the shorthand list"
    assert listed.group(1).split() == [f"--{s.flag}" for s in SHORTHANDS]
