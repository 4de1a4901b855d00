"""Optimizers as the papers used them."""

import keras
import pytest

from gcnn_match.config.experiment import OptimizerConfig
from gcnn_match.training.optimizers import FlooredExponentialDecay, build_optimizer


def test_coin_decay_is_staircase_per_128k_examples_with_a_floor():
    optimizer = build_optimizer(
        OptimizerConfig(learning_rate=1e-3, decay="exponential:0.95:128000:6e-5"), batch_size=128
    )
    schedule = (
        optimizer.learning_rate if callable(optimizer.learning_rate) else optimizer._learning_rate
    )
    assert isinstance(schedule, FlooredExponentialDecay)
    rate = lambda step: float(keras.ops.convert_to_numpy(schedule(step)))  # noqa: E731
    assert rate(999) == pytest.approx(1e-3)
    assert rate(1000) == pytest.approx(1e-3 * 0.95)  # 1000 steps x 128 = 128,000 examples
    assert rate(10**6) == pytest.approx(6e-5)
    restored = FlooredExponentialDecay.from_config(schedule.get_config())
    assert float(keras.ops.convert_to_numpy(restored(10**6))) == pytest.approx(6e-5)


def test_adagrad_starts_like_theano_and_bad_specs_are_refused():
    adagrad = build_optimizer(OptimizerConfig(name="adagrad", learning_rate=0.01))
    assert adagrad.initial_accumulator_value == pytest.approx(1e-10)
    with pytest.raises(ValueError, match="unknown decay"):
        build_optimizer(OptimizerConfig(decay="linear:1:2"), batch_size=8)
    with pytest.raises(ValueError, match="unknown optimizer"):
        build_optimizer(OptimizerConfig(name="lion"))
