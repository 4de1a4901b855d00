"""The ATTCONV code's L2 normalisation of each feature across the mini-batch."""

import keras
from keras import ops


@keras.saving.register_keras_serializable(package="gcnn_match")
class BatchColumnNormalization(keras.layers.Layer):
    """Divides every feature by its L2 norm over the examples of the current batch.

    ```
    out_bk = x_bk / sqrt(epsilon + sum_b' x_b'k^2)
    ```

    The authors' ATTCONV code applies this (`normalize_matrix_col_wise`) to the input of
    the logistic regression, at training and at test time (docs/attconv.md#code-faithful-mode). A
    prediction therefore depends on the other examples of its batch; it is used only by
    the code-faithful ATTCONV models. No weights.

    Args:
        epsilon: added under the square root (1e-8 in the code).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, d).

    Returns:
        A float tensor (B, d).

    Masking:
        None: the input is already pooled.

    Example:

    >>> out = BatchColumnNormalization()(keras.ops.ones((4, 3)))
    >>> float(out[0, 0])
    0.5

    References:
        Yin and Schütze, TACL 2018, released code
        (yinwenpeng/Attentive_Convolution, src/common_functions.py).
    """

    def __init__(self, epsilon=1e-8, **kwargs):
        super().__init__(**kwargs)
        self.epsilon = float(epsilon)

    def call(self, inputs):
        return inputs / ops.sqrt(self.epsilon + ops.sum(ops.square(inputs), axis=0, keepdims=True))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"epsilon": self.epsilon})
        return config
