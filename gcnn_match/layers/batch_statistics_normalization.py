"""Batch normalisation with the current batch's statistics at training and at test time."""

import math

import keras
from keras import ops


@keras.saving.register_keras_serializable(package="gcnn_match")
class BatchStatisticsNormalization(keras.layers.Layer):
    """Normalises every feature by its mean and standard deviation over the current batch.

    ```
    out_bk = gamma_k * (x_bk - mean_b x_bk) / sqrt(var_b x_bk + epsilon) + beta_k
    ```

    The ATTCONV authors' light scripts normalise their pooled sentence vectors and their hidden
    layer so (Theano's `batch_normalization` given the batch's mean and standard deviation), at
    training and at test time alike: there are no moving averages, and a prediction depends
    on the other examples of its batch (docs/attconv.md#authors-light-configuration). One
    instance called on several tensors shares gamma and beta between them, as the scripts'
    four sentence vectors do; each call uses its own tensor's statistics. The variance is the
    population variance, as Theano's `std`.

    Args:
        epsilon: added to the variance. The code adds nothing; here a feature that is equal
            over the batch (a batch of one) gives beta instead of a division by zero.
        gamma_initializer: initializer of the scale; None: U(-1/sqrt(d), 1/sqrt(d)), the
            code's draw for d features.
        beta_initializer: initializer of the shift (zeros in the code).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, d).

    Returns:
        A float tensor (B, d).

    Masking:
        None: the input is already pooled.

    Example:

    >>> layer = BatchStatisticsNormalization(gamma_initializer="ones")
    >>> out = layer(keras.ops.convert_to_tensor([[1.0], [3.0]]))
    >>> [round(float(v), 3) for v in out[:, 0]]
    [-1.0, 1.0]

    References:
        Yin and Schütze, TACL 2018, released code (yinwenpeng/Attentive_Convolution,
        src/train_AttentiveConvNet_SNLI_light.py; yinwenpeng/SciTail,
        src/train_SciTail_AttentiveConvNet_light.py).
    """

    def __init__(self, epsilon=1e-6, gamma_initializer=None, beta_initializer="zeros", **kwargs):
        super().__init__(**kwargs)
        self.epsilon = float(epsilon)
        self.gamma_initializer = (
            None if gamma_initializer is None else keras.initializers.get(gamma_initializer)
        )
        self.beta_initializer = keras.initializers.get(beta_initializer)

    def build(self, input_shape):
        dim = input_shape[-1]
        bound = 1.0 / math.sqrt(dim)
        self.gamma = self.add_weight(
            shape=(dim,),
            name="gamma",
            initializer=self.gamma_initializer or keras.initializers.RandomUniform(-bound, bound),
        )
        self.beta = self.add_weight(shape=(dim,), name="beta", initializer=self.beta_initializer)

    def call(self, inputs):
        mean = ops.mean(inputs, axis=0, keepdims=True)
        variance = ops.var(inputs, axis=0, keepdims=True)
        return self.gamma * (inputs - mean) / ops.sqrt(variance + self.epsilon) + self.beta

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "epsilon": self.epsilon,
                "gamma_initializer": None
                if self.gamma_initializer is None
                else keras.initializers.serialize(self.gamma_initializer),
                "beta_initializer": keras.initializers.serialize(self.beta_initializer),
            }
        )
        return config
