"""Initializers shared by the layers: independent draws and block-wise fused kernels."""

import keras
from keras import ops


def fresh_initializer(initializer, offset=0):
    """A new instance of `initializer` that does not repeat the values of the original.

    Keras 3 initializers draw the same values on every call of one instance, so two weights
    initialised from one instance would be correlated. An integer seed is shifted by `offset`
    (reproducible); an unseeded initializer gets a new random seed.
    """
    initializer = keras.initializers.get(initializer)
    config = initializer.get_config()
    if "seed" not in config:
        return initializer
    if isinstance(config["seed"], int):
        config["seed"] = config["seed"] + offset
    return initializer.__class__.from_config(config)


def paper_uniform(offset=0):
    """U[-0.1, 0.1], the C-LSTMs paper's initialisation of every non-embedding weight (§6.1);
    `offset` gives independent draws for weights built from one call site."""
    return fresh_initializer(keras.initializers.RandomUniform(-0.1, 0.1), offset)


class BlockInitializer(keras.initializers.Initializer):
    """Initialises a fused kernel as `num_blocks` independent kernels stacked on the last axis.

    A fused `Conv1D(3 * units)` initialised with Glorot would use fan_out = 3 * k * units and
    draw smaller weights than three separate `Conv1D(units)`; this initializer keeps the
    distribution of the separate kernels the paper describes.
    """

    def __init__(self, base, num_blocks):
        self.base = keras.initializers.get(base)
        self.num_blocks = int(num_blocks)

    def __call__(self, shape, dtype=None):
        shape = tuple(shape)
        if shape[-1] % self.num_blocks:
            raise ValueError(f"Last axis of {shape} does not split into {self.num_blocks} blocks.")
        block_shape = shape[:-1] + (shape[-1] // self.num_blocks,)
        blocks = [
            fresh_initializer(self.base, offset=i)(block_shape, dtype=dtype)
            for i in range(self.num_blocks)
        ]
        return ops.concatenate(blocks, axis=-1)

    def get_config(self):
        return {
            "base": keras.initializers.serialize(self.base),
            "num_blocks": self.num_blocks,
        }

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["base"] = keras.initializers.deserialize(config["base"])
        return cls(**config)


@keras.saving.register_keras_serializable(package="gcnn_match")
class OrthogonalIfSquare(keras.initializers.Initializer):
    """Random orthogonal for a square matrix, N(0, stddev^2) otherwise.

    The rule of ESIM's official code (its `norm_weight(nin, nout, scale=0.01, ortho=True)`)
    for every weight matrix: square ones (recurrent matrices, 300 -> 300 input matrices)
    are orthogonal, the others normal with standard deviation 0.01.

    Args:
        stddev: standard deviation of the non-square case.
        seed: optional int seed. Without one, every call draws new values, so one instance
            can initialise several weights independently.
    """

    def __init__(self, stddev=0.01, seed=None):
        self.stddev = float(stddev)
        self.seed = seed

    def __call__(self, shape, dtype=None):
        if len(shape) == 2 and shape[0] == shape[1]:
            base = keras.initializers.Orthogonal(seed=self.seed)
        else:
            base = keras.initializers.RandomNormal(stddev=self.stddev, seed=self.seed)
        return base(shape, dtype=dtype)

    def get_config(self):
        return {"stddev": self.stddev, "seed": self.seed}
