"""Optimizers configured the way each paper used them (MODEL_SPECS §5)."""
import keras


def build_optimizer(config, steps_per_epoch=None, batch_size=None):
    """A Keras optimizer from an `OptimizerConfig`.

    `decay="exponential:<rate>:<examples>"` multiplies the rate by `rate` every `examples`
    training examples (staircase), as RE2/COIN do; it needs `batch_size`.
    """
    learning_rate = config.learning_rate
    if config.decay:
        kind, rate, examples = config.decay.split(":")
        if kind != "exponential":
            raise ValueError(f"unknown decay {config.decay!r}")
        if not batch_size:
            raise ValueError("exponential decay needs the batch size")
        learning_rate = keras.optimizers.schedules.ExponentialDecay(
            config.learning_rate, decay_steps=max(1, int(float(examples)) // batch_size),
            decay_rate=float(rate), staircase=True)
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
            initial_accumulator_value=(config.initial_accumulator_value
                                       if config.initial_accumulator_value is not None
                                       else 1e-10),
            epsilon=config.epsilon if config.epsilon is not None else 1e-16, **common)
    if name == "sgd":
        return keras.optimizers.SGD(**common)
    raise ValueError(f"unknown optimizer {config.name!r}")
