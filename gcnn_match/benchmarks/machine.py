"""What this machine and process offer a benchmark: the dense matmul rate (the peak that
achieved GFLOP/s are read against) and whether TensorFlow runs its oneDNN kernels.
"""

import time


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
