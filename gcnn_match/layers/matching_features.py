"""The comparison features of compare-aggregate models (GCNN Eq. 7, ESIM Eq. 14-15)."""

import keras
from keras import ops

from gcnn_match.layers.masking import ExplicitMaskLayer, apply_mask, shared_position_mask

_DIFFERENCES = ("absolute", "signed")


@keras.saving.register_keras_serializable(package="gcnn_match")
class MatchingFeatures(ExplicitMaskLayer):
    """Concatenates two aligned sequences with their difference and element-wise product.

    ```
    m_i = [x_i; y_i; |x_i - y_i|; x_i * y_i]      difference="absolute"  (GCNN Eq. 7)
    m_i = [x_i; y_i;  x_i - y_i ; x_i * y_i]      difference="signed"    (ESIM Eq. 14-15)
    ```

    In GCNN, x is a context representation (a~ or b~) and y its soft alignment (alpha or
    beta) from `SoftAlignment`. The layer has no weights.

    Args:
        difference: "absolute" (GCNN) or "signed" (ESIM).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[x, y]`, float tensors of the same shape (B, L, d).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding (a list
            `[mask_x, mask_y]` is also accepted; mask_x is used).

    Returns:
        A float tensor (B, L, 4 * d).

    Masking:
        Explicit mask; the features are multiplied by the mask, so they are 0 at padding.
        The layer is position-wise: padding never affects real positions.

    Example:

    >>> x = keras.random.normal((2, 5, 8))
    >>> y = keras.random.normal((2, 5, 8))
    >>> tuple(MatchingFeatures()([x, y]).shape)
    (2, 5, 32)

    References:
        Chen et al., "Gated Convolutional Neural Network for Sentence Matching",
        Interspeech 2018, Eq. 7.
        Chen et al., "Enhanced LSTM for Natural Language Inference", ACL 2017, Eq. 14-15.
    """

    def __init__(self, difference="absolute", **kwargs):
        super().__init__(**kwargs)
        if difference not in _DIFFERENCES:
            raise ValueError(f"difference must be one of {_DIFFERENCES}, got {difference!r}.")
        self.difference = difference

    def call(self, inputs, mask=None):
        x, y = inputs
        mask = shared_position_mask(mask)
        diff = x - y
        if self.difference == "absolute":
            diff = ops.abs(diff)
        return apply_mask(ops.concatenate([x, y, diff, x * y], axis=-1), mask)

    def compute_output_shape(self, inputs_shape):
        shape_x = tuple(inputs_shape[0])
        last = None if shape_x[-1] is None else 4 * shape_x[-1]
        return shape_x[:-1] + (last,)

    def get_config(self):
        config = super().get_config()
        config.update({"difference": self.difference})
        return config
