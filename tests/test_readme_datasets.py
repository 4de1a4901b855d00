"""README lists the datasets `make reproduce-<dataset>` takes: each dataset with a registered
row, and no other."""

import pathlib
import re

from gcnn_match.experiments import registry

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_names_every_dataset_with_registered_rows():
    text = README.read_text("utf-8")
    listed = re.search(r"`<dataset>` is one of (.*?); each runs", text, re.S)
    assert listed, "README no longer lists the datasets of make reproduce-<dataset>"
    names = re.findall(r"`([a-z_]+)`", listed.group(1))
    aliases = {"mnli"}  # the Makefile's short name of multinli
    assert sorted(set(names) - aliases) == sorted({c.dataset for c in registry.select()})
