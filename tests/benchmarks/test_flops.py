"""Counted FLOPs match hand counts (loops included)."""

import keras
import pytest
import tensorflow as tf

from gcnn_match.benchmarks.flops import counted_flops

BATCH, IN, OUT = 8, 32, 16


def test_dense_layer_flops_are_two_per_multiply_add():
    dense = keras.layers.Dense(OUT, use_bias=False)
    dense.build((None, IN))
    flops = counted_flops(dense, [tf.TensorSpec((BATCH, IN), tf.float32)])
    assert flops == 2 * IN * OUT * BATCH
    with_bias = keras.layers.Dense(OUT)
    with_bias.build((None, IN))
    # BiasAdd: one addition per output element.
    assert counted_flops(with_bias, [tf.TensorSpec((BATCH, IN), tf.float32)]) == (
        2 * IN * OUT * BATCH + OUT * BATCH
    )


def test_loop_bodies_count_once_per_iteration():
    steps = 7
    weights = tf.Variable(tf.ones((IN, IN)))

    def recurrence(x):  # x: (steps, BATCH, IN)
        _, state = keras.ops.scan(lambda h, x_t: (x_t @ weights + h, x_t), x[0], x)
        return state

    per_step = 2 * BATCH * IN * IN + BATCH * IN  # matmul + the addition
    flops = counted_flops(recurrence, [tf.TensorSpec((steps, BATCH, IN), tf.float32)])
    # + the loop's own bookkeeping: a few scalar additions per iteration.
    assert steps * per_step <= flops <= steps * (per_step + 4)


def test_loops_of_an_lstm_and_its_gradient_are_counted():
    layer = keras.layers.LSTM(OUT)
    spec = tf.TensorSpec((BATCH, 10, IN), tf.float32)
    layer.build(spec.shape)

    def gradients(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x))
        return tape.gradient(loss, layer.trainable_variables)

    forward = counted_flops(layer, [spec])
    # Per step: [x_t; h] (IN + OUT) times the four gates' kernels, twice per multiply-add.
    assert forward >= 10 * 2 * BATCH * (IN + OUT) * 4 * OUT
    # The backward pass costs about twice the forward pass: forward + backward ~ 3x.
    assert 2.5 * forward < counted_flops(gradients, [spec]) < 3.5 * forward


def test_unsupported_control_flow_is_refused():
    def branch(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x @ tf.transpose(x), lambda: x[:, :1] * 0)

    with pytest.raises(NotImplementedError, match="analytically"):
        counted_flops(branch, [tf.TensorSpec((BATCH, IN), tf.float32)])
