"""What a benchmark measures besides time: counted FLOPs, the machine's matmul peak and the
peak memory of a piece of work.

FLOPs are counted by TensorFlow's graph profiler (`tf.compat.v1.profiler`, the per-op
"flops" statistics TF registers) on a traced function with fixed input shapes. The profiler
sees only the ops of the graph it is given, so a loop body (`tf.while_loop`, which Keras uses
for LSTMs and `keras.ops.scan`) would be counted zero times; `counted_flops` profiles each
loop body on its own and multiplies it by the loop's trip count, read from the loop counter
of one execution. What the profiler counts: 2 per multiply-add of MatMul / BatchMatMul /
Conv2D and their gradients, 1 per element of the listed element-wise ops (add, mul, ...);
not counted: transcendentals (sigmoid, tanh, exp), gathers, einsum.
"""

import time

_LOOP_OPS = ("While", "StatelessWhile")
# Function-call and branch ops whose bodies the profiler would silently skip.
_UNSUPPORTED_OPS = (
    "If",
    "StatelessIf",
    "Case",
    "StatelessCase",
    "PartitionedCall",
    "StatefulPartitionedCall",
)


def _profiled_flops(graph):
    import tensorflow as tf

    options = tf.compat.v1.profiler.ProfileOptionBuilder.float_operation()
    options["output"] = "none"
    return int(tf.compat.v1.profiler.profile(graph=graph, options=options).total_float_ops)


def _check_supported(graph, where):
    for op in graph.get_operations():
        if op.type in _UNSUPPORTED_OPS:
            raise NotImplementedError(
                f"counted_flops: {where} holds a {op.type} op ({op.name}) whose body the graph "
                "profiler does not see; count this model analytically instead"
            )


def counted_flops(fn, input_specs):
    """FLOPs of one call of `fn(*inputs)` at the shapes of `input_specs` (tf.TensorSpec).

    The graph is traced with `tf.compat.v1.wrap_function` (which can fetch any tensor of the
    graph), executed once on inputs of ones to read each loop's trip count, and profiled.
    Loops nested in loop bodies are not supported (NotImplementedError).
    """
    import tensorflow as tf

    wrapped = tf.compat.v1.wrap_function(fn, list(input_specs))
    graph = wrapped.graph
    _check_supported(graph, "the traced function")
    loops = [op for op in graph.get_operations() if op.type in _LOOP_OPS]
    total = _profiled_flops(graph)
    if not loops:
        return total
    # The first output of a (v2) while op is its loop counter: the number of iterations run.
    trip_counts = wrapped.prune(
        feeds=wrapped.inputs[: len(input_specs)], fetches=[op.outputs[0] for op in loops]
    )(*[tf.ones(spec.shape, spec.dtype) for spec in input_specs])
    for op, trips in zip(loops, trip_counts):
        body = op._body_graph  # set by while_v2 on every loop it builds
        _check_supported(body, f"the body of loop {op.name}")
        if any(inner.type in _LOOP_OPS for inner in body.get_operations()):
            raise NotImplementedError(f"counted_flops: loop {op.name} contains a loop")
        total += int(trips) * _profiled_flops(body)
    return total


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


def _status_kib(field):
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


class PeakMemory:
    """Peak resident memory growth (bytes) of the work done inside a `with` block.

    The process' RSS high-water mark (Linux VmHWM) is reset on entry, by writing "5" to
    /proc/self/clear_refs, and read on exit; `bytes` is that peak minus the RSS on entry:
    everything the work kept resident at its worst moment (weights, optimizer slots,
    activations, gradients, the allocator's caches, compiled kernels). Memory that the
    process freed before entry but its allocator kept is reused without being counted, so
    measure in a fresh process for a footprint. `bytes` stays None where the mark cannot be
    reset (not Linux). Not tracemalloc (it sees Python objects only, not TF's buffers), and not
    `tf.config.experimental.get_memory_info`, which reports 0 for CPU devices.
    """

    def __enter__(self):
        self.bytes, self._start = None, None
        try:
            with open("/proc/self/clear_refs", "w", encoding="ascii") as handle:
                handle.write("5")
            self._start = _status_kib("VmRSS") * 1024
        except OSError:
            pass
        return self

    def __exit__(self, *exc):
        if self._start is not None:
            self.bytes = max(0, _status_kib("VmHWM") * 1024 - self._start)
        return False


def onednn_enabled():
    """Whether TensorFlow runs its oneDNN kernels in this process (TF_ENABLE_ONEDNN_OPTS, or
    TF's own default for this CPU when unset)."""
    from tensorflow.python.util import _pywrap_util_port

    return bool(_pywrap_util_port.IsMklEnabled())
