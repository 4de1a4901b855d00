"""TensorFlow's C++ start-up notices stay off a tool's standard error, and `import gcnn_match`
leaves its host's streams, import machinery and environment as they are."""

import subprocess
import sys

import pytest

from tests.conftest import subprocess_env

# TF_ENABLE_ONEDNN_OPTS=1 makes TensorFlow print its oneDNN notice on any CPU.
TOOL = (
    "import sys, gcnn_match.scripts, tensorflow as tf; print(int(tf.constant(1) + 1)); "
    "print('after the import', file=sys.stderr)"
)


def _run(snippet, log_level=None):
    """`python -c snippet`, TF_CPP_MIN_LOG_LEVEL set to `log_level` or unset."""
    env = subprocess_env(TF_ENABLE_ONEDNN_OPTS="1")
    env.pop("TF_CPP_MIN_LOG_LEVEL", None)
    if log_level is not None:
        env["TF_CPP_MIN_LOG_LEVEL"] = log_level
    return subprocess.run(
        [sys.executable, "-c", snippet], capture_output=True, text=True, env=env, check=False
    )


def test_importing_the_library_changes_nothing_in_its_host():
    result = _run(
        "import os, sys; hooks, env = list(sys.meta_path), dict(os.environ); import gcnn_match; "
        "assert sys.meta_path == hooks, sys.meta_path; assert dict(os.environ) == env"
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.slow  # imports TensorFlow
def test_the_library_leaves_tensorflows_notices_to_its_host():
    result = _run("import gcnn_match, tensorflow")
    assert result.returncode == 0 and "oneDNN" in result.stderr, result.stderr


@pytest.mark.slow
def test_a_tool_writes_only_its_own_stderr():
    result = _run(TOOL)
    assert result.returncode == 0 and result.stdout.strip() == "2"
    assert result.stderr.strip() == "after the import"


@pytest.mark.slow
def test_log_level_zero_keeps_tensorflows_notices_in_a_tool():
    assert "oneDNN" in _run(TOOL, log_level="0").stderr
