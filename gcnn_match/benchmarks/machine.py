"""What this machine and process offer a benchmark: the dense matmul rate (the peak that
achieved GFLOP/s are read against), whether TensorFlow runs its oneDNN kernels, and where the
tcmalloc library is that a process can be started with, and the machine's short name.
"""

import os
import pathlib
import re
import shutil
import subprocess
import time

# Where Debian/Ubuntu (libtcmalloc-minimal4, libgoogle-perftools4) and RPM distributions put
# tcmalloc; the minimal build (no heap profiler) first.
TCMALLOC_DIRS = (
    "/usr/lib/x86_64-linux-gnu",
    "/usr/lib/aarch64-linux-gnu",
    "/usr/lib64",
    "/usr/lib",
    "/usr/local/lib",
)
TCMALLOC_NAMES = ("libtcmalloc_minimal.so.4", "libtcmalloc.so.4")


def matmul_peak_gflops(size=2048, repeats=5):
    """This machine's dense float32 matmul rate (GFLOP/s): the best of `repeats` products of
    two `size` x `size` matrices on the current Keras backend, after one warm-up product."""
    import keras

    a = keras.random.normal((size, size), seed=1)
    b = keras.random.normal((size, size), seed=2)
    best = float("inf")
    for i in range(repeats + 1):
        start = time.perf_counter()
        # Reading one element waits for the product (JAX dispatches asynchronously).
        keras.ops.convert_to_numpy(keras.ops.matmul(a, b)[0, 0])
        if i:
            best = min(best, time.perf_counter() - start)
    return 2.0 * size**3 / best / 1e9


def onednn_enabled():
    """Whether TensorFlow runs its oneDNN kernels in this process (TF_ENABLE_ONEDNN_OPTS, or
    TF's own default for this CPU when unset)."""
    from tensorflow.python.util import _pywrap_util_port

    return bool(_pywrap_util_port.IsMklEnabled())


def find_tcmalloc(dirs=TCMALLOC_DIRS):
    """The path of a tcmalloc library to preload (LD_PRELOAD) in `dirs`, or None."""
    for name in TCMALLOC_NAMES:
        for folder in dirs:
            path = pathlib.Path(folder, name)
            if path.is_file():
                return str(path)
    return None


def machine_name():
    """A short name of this machine for record files: the first GPU's model as nvidia-smi
    names it ("h200" for "NVIDIA H200"), else "cpu<logical cores>"."""
    smi = shutil.which("nvidia-smi")
    if smi:
        listed = subprocess.run(
            [smi, "--query-gpu=name", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.split("\n")[0]
        model = re.search(r"\b([A-Z]+\d+[A-Za-z]*)\b", listed.replace("NVIDIA", ""))
        if model:
            return model.group(1).lower()
    return f"cpu{os.cpu_count()}"
