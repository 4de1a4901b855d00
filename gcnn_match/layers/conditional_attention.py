"""Rocktäschel et al.'s attention of a hypothesis LSTM over the premise (a C-LSTMs baseline)."""

import keras
from keras import ops

from gcnn_match.layers.initializers import paper_uniform
from gcnn_match.layers.masking import ExplicitMaskLayer, masked_softmax, unpack_pair_mask
from gcnn_match.layers.scan import carry_scan, flat_matmul


@keras.saving.register_keras_serializable(package="gcnn_match")
class ConditionalAttention(ExplicitMaskLayer):
    """Rocktäschel et al.'s attention of a hypothesis LSTM over the premise states.

    Premise states Y (B, n, k), hypothesis states H (B, m, k) whose last real state is h_N:

    ```
    final:        M = tanh(Y W^y + h_N W^h);  a = softmax(M w);  r = a^T Y
    word_by_word: for t = 1..N:  M_t = tanh(Y W^y + h_t W^h + r_{t-1} W^r)
                  a_t = softmax(M_t w);  r_t = a_t^T Y + tanh(r_{t-1} W^t),  r_0 = 0
    h* = tanh(r W^p + h_N W^x)      (r = r_N for word_by_word)
    ```

    No biases, as in the equations. The word-by-word recurrence runs in one compiled loop
    (`carry_scan`) over the hypothesis positions.

    Args:
        units: k, the LSTM size.
        word_by_word: attend at every hypothesis word (True) or from h_N only (False).
        kernel_regularizer: optional regularizer of every weight (the paper's L2).
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: list `[Y, H, h_N]`: (B, n, k), (B, m, k), (B, k).
        mask: optional list `[mask_premise, mask_hypothesis]`, float (B, n), (B, m).

    Returns:
        h* (B, k).

    Masking:
        Padded premise positions get zero attention weight; padded hypothesis steps leave
        r unchanged, so r_N is the state at the last real word. No Keras mask propagates.

    Example:

    >>> premise, hypothesis = keras.random.normal((2, 5, 8)), keras.random.normal((2, 4, 8))
    >>> layer = ConditionalAttention(8, word_by_word=True)
    >>> tuple(layer([premise, hypothesis, hypothesis[:, -1]]).shape)
    (2, 8)

    References:
        Rocktäschel, Grefenstette, Hermann, Kočiský and Blunsom, "Reasoning about
        Entailment with Neural Attention", ICLR 2016, §2.3 (Eq. 7-10) and §2.4 (Eq. 11-14);
        the baselines of Liu et al., EMNLP 2016, §6.2.
    """

    def __init__(self, units, word_by_word=False, kernel_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        self.units = int(units)
        self.word_by_word = bool(word_by_word)
        self.kernel_regularizer = keras.regularizers.get(kernel_regularizer)

    def build(self, input_shape):
        names = ["W_y", "W_h", "W_p", "W_x"] + (["W_r", "W_t"] if self.word_by_word else [])
        k = self.units
        self.matrices = {
            n: self.add_weight(
                shape=(k, k),
                name=n,
                initializer=paper_uniform(i),
                regularizer=self.kernel_regularizer,
            )
            for i, n in enumerate(names)
        }
        self.score_vector = self.add_weight(
            shape=(k, 1),
            name="w",
            initializer=paper_uniform(9),
            regularizer=self.kernel_regularizer,
        )

    def _attend(self, premise_term, premise, premise_mask, query):
        scores = flat_matmul(ops.tanh(premise_term + query[:, None, :]), self.score_vector)
        weights = masked_softmax(scores[..., 0], premise_mask, axis=-1)
        return ops.sum(weights[..., None] * premise, axis=1)

    def call(self, inputs, mask=None):
        premise, hypothesis, last = inputs
        # Called without masks, Keras passes one None per input: three.
        mask_p, mask_h = unpack_pair_mask(mask)[:2]
        if mask_p is None:
            mask_p = ops.ones(ops.shape(premise)[:2], premise.dtype)
        if mask_h is None:
            mask_h = ops.ones(ops.shape(hypothesis)[:2], premise.dtype)
        w = self.matrices
        premise_term = ops.matmul(premise, w["W_y"])
        if not self.word_by_word:
            r = self._attend(premise_term, premise, mask_p, ops.matmul(last, w["W_h"]))
        else:
            # One scanned tensor [W_h h_t ; mask_t]: Keras' TF scan fails on several inputs
            # whose length is unknown when traced (length-bucketed batches).
            steps = ops.concatenate(
                [ops.matmul(hypothesis, w["W_h"]), ops.cast(mask_h, premise.dtype)[..., None]],
                axis=-1,
            )

            def step(r, inputs_t):
                h_term, real = inputs_t[:, :-1], inputs_t[:, -1:]
                query = h_term + ops.matmul(r, w["W_r"])
                new = self._attend(premise_term, premise, mask_p, query) + ops.tanh(
                    ops.matmul(r, w["W_t"])
                )
                return real * new + (1.0 - real) * r

            r, _ = carry_scan(step, ops.zeros_like(last), ops.transpose(steps, (1, 0, 2)))
        return ops.tanh(ops.matmul(r, w["W_p"]) + ops.matmul(last, w["W_x"]))

    def compute_output_shape(self, input_shape):
        return (input_shape[0][0], self.units)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "units": self.units,
                "word_by_word": self.word_by_word,
                "kernel_regularizer": keras.regularizers.serialize(self.kernel_regularizer),
            }
        )
        return config
