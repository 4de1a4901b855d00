"""The `Example:` blocks (`>>>` lines) in the docstrings of gcnn_match.layers and
gcnn_match.models run as doctests: one test per module under the TensorFlow backend, and all of
them again in a child process under JAX (slow)."""

import doctest
import importlib
import pathlib
import pkgutil

import pytest

import gcnn_match.layers
import gcnn_match.models
from tests.layers.harness import run_tests_under_jax

PACKAGES = (gcnn_match.layers, gcnn_match.models)


def _examples(module_name):
    """The docstrings of `module_name` (a dotted name) that hold examples, as doctests."""
    module = importlib.import_module(module_name)
    return [test for test in doctest.DocTestFinder().find(module) if test.examples]


MODULES = sorted(
    f"{package.__name__}.{info.name}"
    for package in PACKAGES
    for info in pkgutil.iter_modules(package.__path__)
)
WITH_EXAMPLES = [name for name in MODULES if _examples(name)]


@pytest.mark.parametrize("module_name", WITH_EXAMPLES)
def test_examples_run(module_name):
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report = []
    for test in _examples(module_name):
        runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_every_public_layer_and_model_builder_show_an_example():
    documented = {
        test.name.rsplit(".", 1)[-1] for name in WITH_EXAMPLES for test in _examples(name)
    }
    public = set(gcnn_match.layers.__all__) | set(gcnn_match.models.__all__) | {"build_model"}
    missing = public - documented
    assert not missing, f"no Example: in the docstrings of {sorted(missing)}"


@pytest.mark.slow
def test_examples_run_under_jax():
    # The node id selects the TF-tier test alone; no -m expression, so the child is not timed
    # as the fast tier (a first JAX trace of each example takes seconds).
    passed = run_tests_under_jax(f"{pathlib.Path(__file__).resolve()}::test_examples_run")
    assert passed == len(WITH_EXAMPLES)
