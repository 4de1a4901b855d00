"""The package as a user installs it: the wheel built from the sources with pip (in an isolated
build environment, so with the setuptools pyproject.toml asks for), installed with its `cpu`
extra into a fresh virtual environment, every console script's `--help`, then a tiny run trained
with `gcnn-train` that `gcnn-predict` and `gcnn-evaluate` use. `pytest -s` prints each step's
time.

The dependencies (TensorFlow, Keras, ...) are this environment's, reached through a `.pth` file
of the new environment, so that the test downloads no TensorFlow; they are links to this
environment's packages but gcnn_match's own, so that pip sees every requirement of the wheel
satisfied, and gcnn_match, its metadata and its console scripts can only come from the wheel.
"""

import concurrent.futures
import os
import pathlib
import shutil
import site
import subprocess
import sys
import time

import pytest

from gcnn_match import cli
from tests.conftest import REPO

pytestmark = pytest.mark.slow  # builds a wheel, starts a Python per console script, trains

SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "gcnn_match")
# One per experiments/ file: gcnn-train for experiments/train.py.
CONSOLE_SCRIPTS = sorted(cli.console_script(p.stem) for p in REPO.glob("experiments/*.py"))


def _step(label, args, **kwargs):
    """Runs `args`, prints its time under `label`, and returns the completed process."""
    start = time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True, timeout=900, **kwargs)
    print(f"{label}: {time.perf_counter() - start:.1f} s, exit status {result.returncode}")
    return result


def _dependencies(folder):
    """A folder of links to this environment's installed packages, gcnn_match's left out."""
    folder.mkdir()
    for packages in site.getsitepackages():
        for entry in os.scandir(packages):
            if "gcnn_match" not in entry.name and not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry.path)
    return folder


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder, environment for the commands, work folder) of a fresh virtual environment
    holding the wheel."""
    root = tmp_path_factory.mktemp("wheel")
    # No PYTHONPATH: a checkout on it would be the package pip and the scripts find.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    (root / "src").mkdir()
    for name in SOURCES:  # what an sdist holds; the checkout itself gets no build/ folder
        if (REPO / name).is_dir():
            ignore = shutil.ignore_patterns("__pycache__")
            shutil.copytree(REPO / name, root / "src" / name, ignore=ignore)
        else:
            shutil.copy(REPO / name, root / "src" / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    built = _step("build", [*pip, "wheel", "--no-deps", "-w", root / "dist", root / "src"], env=env)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (root / "dist").glob("gcnn_match-*.whl")
    made = _step("venv", [sys.executable, "-m", "venv", "--without-pip", root / "venv"], env=env)
    assert made.returncode == 0, made.stderr
    python = root / "venv" / "bin" / "python"
    venv_site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    pth = pathlib.Path(venv_site) / "dependencies.pth"
    pth.write_text(str(_dependencies(root / "deps")) + "\n")
    # --no-index: nothing is downloaded; the cpu extra's tensorflow-cpu must be found installed.
    install = [*pip, "--python", python, "install", "--no-index", f"{wheel}[cpu]"]
    done = _step("install", install, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Successfully installed gcnn-match-" in done.stdout, done.stdout
    work = root / "work"
    work.mkdir()
    return root / "venv" / "bin", env, work


def test_the_package_and_its_scripts_come_from_the_wheel(installed):
    bin_folder, env, work = installed
    where = subprocess.run(
        [bin_folder / "python", "-c", "import gcnn_match; print(gcnn_match.__file__)"],
        capture_output=True,
        text=True,
        env=env,
        cwd=work,
        check=True,
    ).stdout
    assert where.startswith(str(bin_folder.parent)), where
    assert len(CONSOLE_SCRIPTS) > 10
    assert all((bin_folder / name).is_file() for name in CONSOLE_SCRIPTS)


def test_every_console_script_shows_its_help(installed):
    bin_folder, env, work = installed

    def help_of(name):
        return name, _step(f"{name} --help", [bin_folder / name, "--help"], env=env, cwd=work)

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        results = dict(pool.map(help_of, CONSOLE_SCRIPTS))
    for name, result in results.items():
        # absl ends --help with status 1, after the usage and the tool's flags.
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert "\nflags:\n" in result.stdout and "--helpfull" in result.stdout, name
        assert "python experiments/" not in result.stdout, result.stdout
    assert "gcnn-train --experiment=gcnn/quora/gcnn" in results["gcnn-train"].stdout


def _write_pairs(path, count, offset, labelled=True):
    """`a<TAB>b[<TAB>label]` lines: "same" when both sides name the same colour."""
    colours = ["red", "green", "blue", "black", "white"]
    lines = []
    for i in range(offset, offset + count):
        a, b = colours[i % 5], colours[(i // 2) % 5]
        label = f"\t{'same' if a == b else 'different'}" if labelled else ""
        lines.append(f"the {a} car {i}\tis it {b} ?{label}\n")
    path.write_text("".join(lines), "utf-8")
    return path


def test_a_run_trained_by_the_console_scripts_predicts_and_evaluates(installed):
    bin_folder, env, work = installed
    files = {split: work / f"{split}.tsv" for split in ("train", "dev", "test")}
    for path, (count, offset) in zip(files.values(), ((120, 0), (30, 120), (30, 150))):
        _write_pairs(path, count, offset)
    run_dir = work / "run"
    trained = _step(
        "gcnn-train (tiny CNN, 1 epoch)",
        [
            bin_folder / "gcnn-train",
            "--experiment=gcnn/quora/cnn",
            *(f"--{split}_file={path}" for split, path in files.items()),
            f"--model_dir={run_dir}",
            "--model_kwargs=variant=cnn,hidden=8,context_layers=1,aggregation_layers=1,mlp_hidden=8",
            "--embeddings=random",
            "--override=embedding_dim=8",
            "--epochs=1",
            "--batch_size=16",
        ],
        env=env,
        cwd=work,
    )
    assert trained.returncode == 0, trained.stdout + trained.stderr
    pairs = _write_pairs(work / "pairs.tsv", 4, 200, labelled=False)
    predicted = _step(
        "gcnn-predict",
        [bin_folder / "gcnn-predict", f"--run_dir={run_dir}", f"--input={pairs}"],
        env=env,
        cwd=work,
    )
    assert predicted.returncode == 0, predicted.stderr
    lines = predicted.stdout.splitlines()
    assert lines[0] == "uid\tpredicted\tp_different\tp_same" and len(lines) == 5, lines
    assert all(line.split("\t")[1] in ("different", "same") for line in lines[1:])
    evaluated = _step(
        "gcnn-evaluate",
        [bin_folder / "gcnn-evaluate", f"--run_dir={run_dir}", f"--input={files['test']}"],
        env=env,
        cwd=work,
    )
    assert evaluated.returncode == 0, evaluated.stderr
    assert '"examples": 30' in evaluated.stdout, evaluated.stdout
