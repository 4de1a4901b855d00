"""FLOPs of a traced function, counted by TensorFlow's graph profiler.

The profiler (`tf.compat.v1.profiler`, the per-op "flops" statistics TF registers) runs on a
traced function with fixed input shapes. It sees only the ops of the graph it is given, so a
loop body (`tf.while_loop`, which Keras uses for LSTMs and `keras.ops.scan`) would be counted
zero times; `counted_flops` profiles each loop body on its own and multiplies it by the loop's
trip count, read from the loop counter of one execution. What the profiler counts: 2 per
multiply-add of MatMul / BatchMatMul / Conv2D and their gradients, 1 per element of the listed
element-wise ops (add, mul, ...); not counted: transcendentals (sigmoid, tanh, exp), gathers,
einsum.
"""

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
