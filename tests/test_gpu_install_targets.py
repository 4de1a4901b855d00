"""`make install ACCEL=gpu` and `ACCEL=gpu-jax` name packages that exist on PyPI at the versions
constraints.txt pins: each package an extra names is downloaded (`pip download --no-deps`) into
a temporary folder, and pip resolves the whole extra under the constraints without installing
anything, every package it would install (the CUDA libraries too) pinned there."""

import json
import subprocess
import sys

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import REPO

tomllib = pytest.importorskip("tomllib", reason="Python 3.11's tomllib reads pyproject.toml")

# Network and several hundred MB of wheels.
pytestmark = pytest.mark.slow

GPU_TARGETS = ("gpu", "gpu-jax")
# Build tools pip brings along; the CPU install leaves them unpinned too.
BUILD_TOOLS = {"pip", "setuptools", "wheel"}


def _pins():
    pins = {}
    for line in (REPO / "constraints.txt").read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def _requirements(target):
    with open(REPO / "pyproject.toml", "rb") as handle:
        extras = tomllib.load(handle)["project"]["optional-dependencies"]
    return [Requirement(spec) for spec in extras[target]]


def _pip(*args):
    return subprocess.run(
        [sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=900
    )


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_each_package_the_target_names_is_pinned_and_downloads(target, tmp_path):
    pins = _pins()
    for requirement in _requirements(target):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{target}: {requirement.name} is not pinned in constraints.txt"
        process = _pip("download", "--no-deps", "-q", "-d", str(tmp_path), f"{name}=={pins[name]}")
        assert process.returncode == 0, process.stderr[-2000:]
    assert len(list(tmp_path.glob("*.whl"))) == len(_requirements(target))


@pytest.mark.parametrize("target", GPU_TARGETS)
def test_the_whole_target_resolves_to_pinned_versions(target, tmp_path):
    report = tmp_path / "report.json"
    specs = [str(r) for r in _requirements(target)]
    process = _pip(
        "install",
        "--dry-run",
        "--ignore-installed",
        "-q",
        "--report",
        str(report),
        "-c",
        str(REPO / "constraints.txt"),
        *specs,
    )
    assert process.returncode == 0, process.stderr[-2000:]
    pins = _pins()
    resolved = {
        canonicalize_name(item["metadata"]["name"]): item["metadata"]["version"]
        for item in json.loads(report.read_text())["install"]
    }
    unpinned = sorted(set(resolved) - set(pins) - BUILD_TOOLS)
    assert not unpinned, f"{target} installs packages constraints.txt does not pin: {unpinned}"
    assert all(resolved[name] == pins[name] for name in set(resolved) & set(pins))
    gpu_packages = [n for n in resolved if n.startswith("nvidia-") or "cuda" in n]
    assert gpu_packages, f"{target} resolves no CUDA package"
