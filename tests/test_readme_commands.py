"""Every command README.md prints runs as printed: the quick ones are run (listings, `--help`,
the own-data walkthrough with a tiny model and predict/evaluate on the run directory the README
names), `make` lines are dry-run, and every flag of the long ones is one their script defines.
So a stale path, flag or target fails the suite."""

import functools
import json
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # starts processes

REPO = pathlib.Path(__file__).resolve().parents[1]
PYTHON = ".venv/bin/python"
# A tiny model and vectors for the walkthrough, so that it trains in seconds.
TINY_FLAGS = [
    "--model_kwargs=variant=cnn,hidden=8,context_layers=1,aggregation_layers=1,mlp_hidden=8",
    "--embeddings=random",
    "--override=embedding_dim=8",
    "--epochs=1",
    "--batch_size=32",
]


def readme_commands(text):
    """The commands of the markdown's bash blocks, continuation lines joined, comments cut."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                commands.append(shlex.split(line))
    return commands


def _run(args, **kwargs):
    return subprocess.run(
        args, cwd=REPO, capture_output=True, text=True, timeout=300, check=False, **kwargs
    )


@functools.cache
def _script_flags(script):
    """The flags `script` defines, as its --helpfull lists them."""
    helpfull = _run([sys.executable, script, "--helpfull"]).stdout
    return {"help", "helpshort", "helpfull"} | set(
        re.findall(r"^\s+--(?:\[no\])?(\w+)", helpfull, re.M)
    )


def _check_extras(requirements):
    """The checkout's requirements (".[cpu]") name extras that pyproject.toml defines
    (tests/test_wheel.py installs the package)."""
    pyproject = (REPO / "pyproject.toml").read_text("utf-8")
    for requirement in requirements:
        match = re.fullmatch(r"\.\[([\w,-]+)\]", requirement)
        assert match, f"pip install {requirement}: not the checkout with extras"
        for extra in match.group(1).split(","):
            assert re.search(rf"^{extra} = \[", pyproject, re.M), f"no extra {extra!r}"


def _check_flags(command):
    """Every `--flag` of a Python command is one its script defines."""
    known = _script_flags(command[1])
    for arg in command[2:]:
        if arg.startswith("--"):
            name = arg[2:].split("=", 1)[0]
            assert name in known or name.removeprefix("no") in known, f"{arg}: {command}"


def _walkthrough(commands):
    """The train, predict and evaluate commands of the own-data walkthrough."""
    scripts = [c[1] if c[0] == PYTHON and len(c) > 1 else "" for c in commands]
    start = next(
        i
        for i, c in enumerate(commands)
        if scripts[i] == "experiments/train.py" and any(a.startswith("--train_file") for a in c)
    )
    walk = commands[start : start + 3]
    assert [c[1] for c in walk] == [
        "experiments/train.py",
        "experiments/predict.py",
        "experiments/evaluate.py",
    ]
    return walk


def _run_dir(command):
    return next(a.split("=", 1)[1] for a in command if a.startswith("--run_dir="))


def run_walkthrough(walk, tmp_path):
    """Trains as printed (a tiny model, runs and cache under `tmp_path`), checks that the run
    directory is the one the README names (the tiny model's overrides add one hashed suffix),
    then predicts and evaluates on it in fresh processes; their completed processes."""
    train, predict, evaluate = walk
    named = _run_dir(predict)
    assert _run_dir(evaluate) == named
    trained = _run(
        [sys.executable, *train[1:], *TINY_FLAGS]
        + [f"--runs_dir={tmp_path}/runs", f"--cache_dir={tmp_path}/cache"]
    )
    assert trained.returncode == 0, trained.stderr[-2000:]
    made = pathlib.Path(re.search(r"^run directory: (.+)$", trained.stdout, re.M).group(1))
    expected = tmp_path / "runs" / pathlib.Path(named).relative_to("runs")
    assert made.parent == expected.parent and re.fullmatch(
        re.escape(expected.name) + r"-[0-9a-f]{8}", made.name
    ), f"the README names {named}, train.py writes {made}"
    done = []
    for command in (predict, evaluate):
        args = [a.replace(f"--run_dir={named}", f"--run_dir={made}") for a in command[1:]]
        done.append(_run([sys.executable, *args]))
        assert done[-1].returncode == 0, done[-1].stderr[-2000:]
    return trained, *done


def run_python_examples(text, named, made):
    """Runs each python block of the README in a fresh process, the walkthrough's run directory
    (`named`) replaced by the one the tiny training made; their completed processes."""
    done = []
    for block in re.findall(r"```python\n(.*?)```", text, re.S):
        done.append(_run([sys.executable, "-c", block.replace(named, str(made))]))
        assert done[-1].returncode == 0, done[-1].stderr[-2000:]
    return done


def check_walkthrough_outputs(trained, predicted, evaluated):
    """The header of every file is decided once and printed, predictions come in file order
    with a probability per label, and the accuracy is that of the predictions."""
    assert trained.stdout.count("line 1 is a header") == 1
    assert "test.tsv: line 1 is a header: it holds the column names" in predicted.stderr
    rows = [line.split("\t") for line in predicted.stdout.splitlines()]
    assert rows[0] == ["uid", "predicted", "p_CONTRADICTION", "p_ENTAILMENT", "p_NEUTRAL"]
    assert [row[0] for row in rows[1:]] == [f"test.tsv:{i}" for i in range(2, 202)]
    test_lines = (REPO / "examples/entailment/test.tsv").read_text("utf-8").splitlines()[1:]
    gold = [line.split("\t")[2] for line in test_lines]
    right = sum(row[1] == label for row, label in zip(rows[1:], gold))
    assert json.loads(evaluated.stdout) == {"examples": 200, "accuracy": right / 200}


def test_readme_commands_run_as_printed(tmp_path):
    text = (REPO / "README.md").read_text("utf-8")
    commands = readme_commands(text)
    walk = _walkthrough(commands)
    for command in commands:
        if command in walk:
            continue
        if command[0] == "make":
            dry = _run(["make", "-n", *command[1:]])
            assert dry.returncode == 0, f"{shlex.join(command)}: {dry.stderr}"
        elif command[0] == PYTHON:
            _check_flags(command)
            if {"--help", "--list"} & set(command):
                done = _run(command)
                # absl's --help prints the flags and exits with status 1.
                ok = done.returncode == 0 or ("--help" in command and done.returncode == 1)
                assert ok and done.stdout, f"{shlex.join(command)}: {done.stderr[-2000:]}"
        elif command[:2] == ["pip", "install"]:
            _check_extras(command[2:])
        else:
            pytest.fail(f"README prints a command this test does not know: {command}")
    trained, predicted, evaluated = run_walkthrough(walk, tmp_path)
    check_walkthrough_outputs(trained, predicted, evaluated)
    made = re.search(r"^run directory: (.+)$", trained.stdout, re.M).group(1)
    (example,) = run_python_examples(text, _run_dir(walk[1]), made)
    probabilities, parameters = example.stdout.splitlines()[-2:]
    assert re.fullmatch(r"\{'CONTRADICTION': .*, 'ENTAILMENT': .*, 'NEUTRAL': .*\}", probabilities)
    assert int(parameters) > 0
