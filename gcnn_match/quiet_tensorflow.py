"""TensorFlow imported without its C++ start-up notices on the process's standard error.

TensorFlow 2.21 logs "oneDNN custom operations are on" (on CPUs with AVX512-VNNI or AMX) and
"All log messages before absl::InitializeLog() ..." before its logging reads
TF_CPP_MIN_LOG_LEVEL, so that variable cannot hide them; they would come before every script's
own output, a one-line flag error included. `install` makes the first `import tensorflow` run
with file descriptor 2 pointed at /dev/null, unless TF_CPP_MIN_LOG_LEVEL is "0" (the user asked
for TensorFlow's notices). A failed import still raises, and is reported after the import.
"""

import contextlib
import importlib.abc
import importlib.machinery
import os
import sys


@contextlib.contextmanager
def _stderr_to_devnull():
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


class _QuietLoader(importlib.abc.Loader):
    """Runs the wrapped loader's module code with standard error silenced; anything else
    (resources, source) is the wrapped loader's."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        with _stderr_to_devnull():
            self._loader.exec_module(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _QuietTensorFlowFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != "tensorflow":
            return None
        sys.meta_path.remove(self)  # once: the real import below, and no later ones
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _QuietLoader(spec.loader)
        return spec


def install():
    """Silences the C++ notices of the first `import tensorflow` of this process (see the
    module docstring); a no-op once TensorFlow is imported or when TF_CPP_MIN_LOG_LEVEL=0."""
    if "tensorflow" in sys.modules or os.environ.get("TF_CPP_MIN_LOG_LEVEL") == "0":
        return
    if not any(isinstance(finder, _QuietTensorFlowFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _QuietTensorFlowFinder())
