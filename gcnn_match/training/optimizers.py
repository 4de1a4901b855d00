"""Optimizers configured the way each paper used them (docs/design.md#keras-conventions)."""

import keras


@keras.saving.register_keras_serializable(package="gcnn_match")
class FlooredExponentialDecay(keras.optimizers.schedules.ExponentialDecay):
    """Exponential decay that never goes below `minimum` (RE2/COIN: 0.95 per 128K examples,
    floor 6e-5)."""

    def __init__(self, *args, minimum=0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.minimum = minimum

    def __call__(self, step):
        return keras.ops.maximum(super().__call__(step), self.minimum)

    def get_config(self):
        return {**super().get_config(), "minimum": self.minimum}


def build_optimizer(config, steps_per_epoch=None, batch_size=None):
    """A Keras optimizer from an `OptimizerConfig`.

    `decay="exponential:<rate>:<examples>[:<minimum>]"` multiplies the rate by `rate` every
    `examples` training examples (staircase) and keeps it above `minimum`, as RE2/COIN do; it
    needs `batch_size`.
    """
    learning_rate = config.learning_rate
    if config.decay:
        kind, rate, examples, *floor = config.decay.split(":")
        if kind != "exponential" or len(floor) > 1:
            raise ValueError(
                f"unknown decay {config.decay!r}; expected "
                "exponential:<rate>:<examples>[:<minimum rate>]"
            )
        if not batch_size:
            raise ValueError("exponential decay needs the batch size")
        learning_rate = FlooredExponentialDecay(
            config.learning_rate,
            decay_steps=max(1, int(float(examples)) // batch_size),
            decay_rate=float(rate),
            staircase=True,
            minimum=float(floor[0]) if floor else 0.0,
        )
    common = {"learning_rate": learning_rate}
    if config.global_clipnorm:
        common["global_clipnorm"] = config.global_clipnorm
    name = config.name.lower()
    if name == "adam":
        if config.epsilon is not None:
            common["epsilon"] = config.epsilon
        return keras.optimizers.Adam(**common)
    if name == "adagrad":
        # Theano's AdaGrad starts its accumulator at 0 and adds epsilon outside the root;
        # tiny values here reproduce that instead of Keras' damped first updates.
        return keras.optimizers.Adagrad(
            initial_accumulator_value=(
                config.initial_accumulator_value
                if config.initial_accumulator_value is not None
                else 1e-10
            ),
            epsilon=config.epsilon if config.epsilon is not None else 1e-16,
            **common,
        )
    if name == "sgd":
        return keras.optimizers.SGD(**common)
    raise ValueError(f"unknown optimizer {config.name!r}")
