"""Masked max, mean and sum pooling over positions, concatenated (GCNN Eq. 8, ESIM Eq. 18-20,
the decomposable attention's Eq. 4)."""

import keras
from keras import ops

from gcnn_match.layers.masking import (
    ExplicitMaskLayer,
    apply_mask,
    masked_max,
    masked_mean,
    masked_sum,
)

_REDUCTIONS = {"max": masked_max, "mean": masked_mean, "sum": masked_sum}


@keras.saving.register_keras_serializable(package="gcnn_match")
class MaxMeanPooling(ExplicitMaskLayer):
    """Pools a sequence into one vector: masked max, mean or sum, concatenated in order.

    ```
    order=("max", "mean"):  v = [max_i v_i; ave_i v_i]     (GCNN Eq. 8, per sentence)
    order=("mean", "max"):  v = [ave_i v_i; max_i v_i]     (ESIM Eq. 18-20)
    order=("sum",):         v = sum_i v_i                  (Parikh et al. 2016, Eq. 4)
    ```

    GCNN's v = [max(v_a); ave(v_a); max(v_b); ave(v_b)] is the concatenation of this layer
    applied to v_a and to v_b. The layer has no weights.

    Args:
        order: sequence of "max" / "mean" / "sum", the reductions to concatenate, in order. Each
            may appear once.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: float tensor (B, L, d).
        mask: optional float tensor (B, L), 1 on real tokens and 0 on padding.

    Returns:
        A float tensor (B, len(order) * d).

    Masking:
        Explicit mask. The max runs over real positions only (padded positions get -1e9
        after being zeroed), the sum is over real positions and the mean is that sum divided
        by the true length, so padding never changes the result. An all-padding row pools to 0.

    Example:

    >>> x = keras.random.normal((2, 5, 8))
    >>> tuple(MaxMeanPooling()(x, mask=keras.ops.ones((2, 5))).shape)
    (2, 16)

    References:
        Chen et al., "Gated Convolutional Neural Network for Sentence Matching",
        Interspeech 2018, Eq. 8.
        Chen et al., "Enhanced LSTM for Natural Language Inference", ACL 2017, Eq. 18-20.
        Parikh et al., "A Decomposable Attention Model for Natural Language Inference",
        EMNLP 2016, Eq. 4.
    """

    def __init__(self, order=("max", "mean"), **kwargs):
        super().__init__(**kwargs)
        order = (order,) if isinstance(order, str) else tuple(order)
        if not order or len(set(order)) != len(order) or not set(order) <= set(_REDUCTIONS):
            raise ValueError(
                f"order must be distinct names from {sorted(_REDUCTIONS)}, got {order!r}."
            )
        self.order = order

    def call(self, inputs, mask=None):
        inputs = apply_mask(inputs, mask)
        return ops.concatenate([_REDUCTIONS[name](inputs, mask) for name in self.order], axis=-1)

    def compute_output_shape(self, input_shape):
        last = None if input_shape[-1] is None else len(self.order) * input_shape[-1]
        return (input_shape[0], last)

    def get_config(self):
        config = super().get_config()
        config.update({"order": list(self.order)})
        return config
