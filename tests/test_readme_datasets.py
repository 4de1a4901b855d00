"""README lists the datasets `make reproduce-<dataset>` takes: each dataset with a registered
row and each short name the Makefile gives one, and no other."""

import pathlib
import re

from gcnn_match.experiments import registry

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_the_readme_names_every_dataset_with_registered_rows():
    text = (ROOT / "README.md").read_text("utf-8")
    listed = re.search(r"`make reproduce-<dataset>` \(`<dataset>` one of (.*?)\)", text, re.S)
    assert listed, "README no longer lists the datasets of make reproduce-<dataset>"
    aliases = re.findall(r"^reproduce-(\w+): reproduce-\w+$", (ROOT / "Makefile").read_text(), re.M)
    assert aliases, "the Makefile no longer gives a dataset a short name"
    registered = {config.dataset for config in registry.select()}
    assert sorted(re.findall(r"`(\w+)`", listed.group(1))) == sorted(registered | set(aliases))
