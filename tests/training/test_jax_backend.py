"""The models train under the JAX backend: a few steps of the GCNN compare-aggregate model in a
process started with KERAS_BACKEND=jax lower its loss, and the environment record names JAX's
devices."""

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.conftest import subprocess_env

# Runs a process under another backend: left out of `make test-fast`.
pytestmark = pytest.mark.slow

SCRIPT = """
import json
import numpy as np
import keras
from gcnn_match.experiments import registry
from gcnn_match.models.registry import ModelInputs
from gcnn_match.training.loop import compiled_model

assert keras.backend.backend() == "jax"
config = registry.get("gcnn/quora/gcnn").replace(
    model_kwargs={"variant": "gcnn", "hidden": 16, "context_layers": 2,
                  "aggregation_layers": 1, "mlp_hidden": 16},
    optimizer={"learning_rate": 1e-2}, jit_compile=True)
keras.utils.set_random_seed(1)
model = compiled_model(config, ModelInputs(vocab_size=30, num_classes=2, embedding_dim=8))
rng = np.random.RandomState(0)
features = {"a_ids": rng.randint(1, 30, (16, 9)).astype("int32"),
            "b_ids": rng.randint(1, 30, (16, 6)).astype("int32")}
features["a_ids"][:, 7:] = 0  # padding
labels = rng.randint(0, 2, 16).astype("int32")
losses = [float(model.train_on_batch(features, labels)[0]) for _ in range(8)]
import jax
from gcnn_match.training.run_dir import environment_record
environment = environment_record()
print(json.dumps({"losses": losses, "environment": environment,
                  "jax_gpus": [d.device_kind for d in jax.devices() if d.platform == "gpu"]}))
"""


@pytest.mark.skipif(
    importlib.util.find_spec("jax") is None, reason="jax is not installed (pip install -e '.[jax]')"
)
def test_gcnn_model_trains_under_the_jax_backend():
    process = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        env=subprocess_env(KERAS_BACKEND="jax"),
        timeout=300,
        check=False,
    )
    assert process.returncode == 0, process.stderr[-2000:]
    printed = json.loads(process.stdout.strip().splitlines()[-1])
    losses = printed["losses"]
    assert all(loss == loss for loss in losses)  # no NaN
    assert losses[-1] < 0.8 * losses[0]
    # The run's environment record names JAX and the GPUs JAX sees (none on a CPU machine).
    assert printed["environment"]["keras_backend"] == "jax"
    assert printed["environment"]["gpus"] == printed["jax_gpus"]
