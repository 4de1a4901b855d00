"""A sequential scan that also compiles with XLA under the TensorFlow backend.

`keras.ops.scan` builds its TensorFlow loop without `maximum_iterations`, so the loop's
gradient keeps its per-step values in lists of unknown size, which XLA refuses to compile
("XLA compilation requires a fixed tensor list size"). `tf.scan` bounds its loop by the number
of steps; the other backends' `keras.ops.scan` compile as they are. Inside a scan body, multiply
by weights with `flat_matmul` or a batched matmul of equal-rank operands (a higher-rank x times
a 2-D kernel goes through tensordot, whose gradient XLA cannot compile in a loop).
"""

import keras
from keras import ops


def carry_scan(step, init, xs):
    """(last carry, every carry stacked on a new leading axis) of `carry = step(carry, x)`
    over the leading axis of `xs`, starting from `init`; `xs` and the carry are tensors or
    nests of tensors (each carry leaf stacked on its own)."""
    if keras.backend.backend() == "tensorflow":
        import tensorflow as tf

        carries = tf.scan(step, xs, initializer=init)
        return keras.tree.map_structure(lambda c: c[-1], carries), carries

    def both(carry, x):
        carry = step(carry, x)
        return carry, carry

    return ops.scan(both, init, xs)


def flat_matmul(x, kernel):
    """x (..., D) @ kernel (D,) or (D, G) as one 2-D matmul. TensorFlow multiplies a higher-rank
    x through tensordot, whose gradient XLA cannot compile inside a loop (the permutation of
    its transpose is computed at run time)."""
    out = ops.matmul(ops.reshape(x, (-1, ops.shape(x)[-1])), kernel)
    return ops.reshape(out, ops.shape(x)[:-1] + ops.shape(kernel)[1:])
