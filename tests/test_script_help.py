"""`--help` of every tool (gcnn_match/scripts/), run in this process through absl as its console
script `gcnn-<tool>` would: the usage examples of the docstring come out as written, backslash
continuations included, with the console script's name, followed by the tool's own flags."""

import pathlib
import re
import sys

import pytest
from absl import app, command_name, flags
from absl import logging as absl_logging

from gcnn_match import cli

REPO = pathlib.Path(__file__).resolve().parents[1]
TOOLS = sorted(p.stem for p in (REPO / "gcnn_match" / "scripts").glob("[!_]*.py"))


def _docstring_source(tool):
    """The tool's module docstring as its source file spells it (escapes not applied)."""
    text = (REPO / "gcnn_match" / "scripts" / f"{tool}.py").read_text("utf-8")
    return re.match(r'r?"""(.*?)"""', text, re.S).group(1)


@pytest.fixture
def tool_flags(monkeypatch):
    """Imports a tool's module freshly and removes the flags it defined afterwards, so that
    tools defining flags of the same name can follow each other in one process."""
    app.define_help_flags()
    before = set(flags.FLAGS)
    monkeypatch.setattr(sys.modules["__main__"], "__doc__", None)  # cli.run sets it
    # What app.run does to a whole process (its name, Python's logging) stays out of pytest's.
    monkeypatch.setattr(command_name, "make_process_name_useful", lambda: None)
    monkeypatch.setattr(absl_logging, "use_absl_handler", lambda: None)
    imported = []

    def load(tool):
        name = f"gcnn_match.scripts.{tool}"
        sys.modules.pop(name, None)
        imported.append(name)
        return __import__(name, fromlist=["main"])

    yield load
    flags.FLAGS.unparse_flags()
    for name in set(flags.FLAGS) - before:
        delattr(flags.FLAGS, name)
    for name in imported:
        sys.modules.pop(name, None)


def test_every_experiments_file_runs_a_tool():
    assert TOOLS == sorted(p.stem for p in (REPO / "experiments").glob("*.py"))
    assert len(TOOLS) > 10


def _help(module, capsys, monkeypatch):
    """What `--help` of the tool `module` prints, run as its console script."""
    program = cli.console_script(module.__name__.rpartition(".")[2])
    monkeypatch.setattr(sys, "argv", [f"/venv/bin/{program}", "--help"])
    with pytest.raises(SystemExit):
        cli.run(module.main)
    return capsys.readouterr().out


@pytest.mark.parametrize("tool", TOOLS)
def test_help_shows_the_usage_as_written_and_the_tools_flags(tool, tool_flags, capsys, monkeypatch):
    module = tool_flags(tool)
    out = _help(module, capsys, monkeypatch)
    lines = [line.rstrip() for line in out.splitlines()]
    source = cli.usage(_docstring_source(tool), console=True)
    missing = [line for line in source.splitlines() if line.rstrip() not in lines]
    assert not missing, out
    key_flags = flags.FLAGS.get_key_flags_for_module(module.__name__)
    assert key_flags and all(re.search(rf"--(\[no\])?{f.name}\b", out) for f in key_flags), out


@pytest.mark.parametrize("tool", ["evaluate", "predict"])
def test_help_of_a_scoring_tool_lists_the_shared_input_flags(tool, tool_flags, capsys, monkeypatch):
    out = _help(tool_flags(tool), capsys, monkeypatch)
    shared = ("run_dir", "export_dir", "input", "format", "a", "b", "header", "raw_text")
    assert all(re.search(rf"^  --(\[no\])?{name}:", out, re.M) for name in shared), out
