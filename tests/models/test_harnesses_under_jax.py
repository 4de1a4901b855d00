"""The model and layer harnesses under the JAX backend: one model of every family through
`run_model_test`, and layers whose gradients pass an embedding table, a softmax and a scan
through `run_layer_test`, in one child pytest whose Keras backend is JAX (the backend is fixed
when Keras is first imported)."""

import pathlib

import pytest

from tests.layers.harness import run_tests_under_jax

# Starts a process under another backend: left out of `make test-fast`.
pytestmark = pytest.mark.slow

TESTS = pathlib.Path(__file__).resolve().parents[1]
NODES = [
    "models/test_gcnn_model.py::test_harness",
    "models/test_coin_model.py::test_harness",
    "models/test_attconv_models.py::test_harness[light]",
    "models/test_clstm_models.py::test_harness[tc]",
    "models/test_esim_model.py::test_harness",
    "layers/test_char_composition.py::test_harness_and_numpy",
    "layers/test_char_composition.py::test_char_embedding_receives_gradient",
    "layers/test_soft_alignment.py::test_harness_and_numpy[True]",
    "layers/test_coupled_lstm.py::test_harness[loose-sharing2]",
]


def test_harnesses_pass_under_jax():
    passed = run_tests_under_jax(*(str(TESTS / node) for node in NODES), timeout=1800)
    assert passed == len(NODES)
