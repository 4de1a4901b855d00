"""TensorFlow's C++ start-up notices stay off a script's standard error."""

import subprocess
import sys

import pytest

from tests.conftest import subprocess_env

pytestmark = pytest.mark.slow  # each test starts Python and imports TensorFlow

# TF_ENABLE_ONEDNN_OPTS=1 makes TensorFlow print its oneDNN notice on any CPU.
SNIPPET = (
    "import sys, gcnn_match, tensorflow as tf; print(int(tf.constant(1) + 1)); "
    "print('after the import', file=sys.stderr)"
)


def _run(log_level):
    env = subprocess_env(TF_ENABLE_ONEDNN_OPTS="1", TF_CPP_MIN_LOG_LEVEL=log_level)
    return subprocess.run(
        [sys.executable, "-c", SNIPPET], capture_output=True, text=True, env=env, check=False
    )


def test_importing_tensorflow_writes_only_the_scripts_own_stderr():
    result = _run("2")
    assert result.returncode == 0 and result.stdout.strip() == "2"
    assert result.stderr.strip() == "after the import"


def test_log_level_zero_keeps_tensorflows_notices():
    assert "oneDNN" in _run("0").stderr
