"""GCNN's character-composition vector of each word (Chen et al., Interspeech 2018, Eq. 9)."""

import keras
from keras import ops

from gcnn_match.layers.conv_encoder import ConvEncoder
from gcnn_match.layers.masking import ExplicitMaskLayer, masked_max, sequence_mask


@keras.saving.register_keras_serializable(package="gcnn_match")
class CharComposition(ExplicitMaskLayer):
    """Embeds each word's characters, runs a GCNN over them and max-pools (Eq. 9).

    For a word with characters c_1..c_n (ids, 0 = padding character):

    ```
    e_t = CharEmbedding(c_t)                         (char_dim, trained, random init)
    [c_1^H, ..., c_n^H] = GCNN_H(e_1, ..., e_n)      (num_layers GCNN layers, `units` wide)
    c = max(c_1^H, ..., c_n^H)                       (Eq. 9, element-wise, real chars only)
    ```

    The GCNN stack is a `ConvEncoder("gcnn", num_layers, units, kernel_size)`, so its first
    layer carries the bias-free projection P (char_dim -> units) of Eq. 3 and the memory
    cell is passed from layer to layer. All words of the batch are processed at once as
    one batch of B * L character sequences; shapes may be unknown (XLA-compilable, no
    Python loop). The paper states char_dim 40, units 100 and H = 2 (Sec. 3.2); the
    kernel width is not stated (3 here, as in its worked example, docs/gcnn.md#open-choices [U→S]),
    nor is the mask over character padding (masked max here [U→S]).

    Args:
        char_vocab_size: int, number of character ids including 0 (padding).
        char_dim: int, character embedding size (40 in the paper).
        units: int, output size of the char GCNN and of c (100 in the paper).
        num_layers: int, GCNN layers H over the characters (2 in the paper).
        kernel_size: int, width of the character convolutions.
        embeddings_initializer: initializer of the character embedding.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: int tensor (B, L, W): W character ids per word, 0 = padding character.
        mask: optional float tensor (B, L), 1 on real words. Characters of padded words are
            ignored (treated as padding), whatever their ids.
        training: unused, accepted for a uniform signature.

    Returns:
        Float tensor (B, L, units): the character-composition vector c of each word.

    Masking:
        Inside a word, the char GCNN receives the character mask (id != 0): padded
        characters are zeroed before every convolution and excluded from the max, so
        appending padding characters changes nothing. A word without real characters (a
        padding token, or a word masked out by `mask`) gives the zero vector.

    Example:

    >>> chars = keras.ops.convert_to_tensor([[[3, 4, 0], [5, 0, 0]]])
    >>> tuple(CharComposition(char_vocab_size=10, char_dim=4, units=6)(chars).shape)
    (1, 2, 6)

    References:
        Chen, Guo, Chen, Sun and You, "Gated Convolutional Neural Network for Sentence
        Matching", Interspeech 2018, Sec. 2.3 (Eq. 9) and Sec. 3.2 (40-d characters,
        100-d vector, 2-layer GCNN); the GCNN layer is Eq. 2-3.
    """

    def __init__(
        self,
        char_vocab_size,
        char_dim=40,
        units=100,
        num_layers=2,
        kernel_size=3,
        embeddings_initializer="uniform",
        **kwargs,
    ):
        super().__init__(**kwargs)
        self.char_vocab_size = int(char_vocab_size)
        self.char_dim = int(char_dim)
        self.units = int(units)
        self.num_layers = int(num_layers)
        self.kernel_size = int(kernel_size)
        self.embeddings_initializer = keras.initializers.get(embeddings_initializer)

    def build(self, input_shape):
        self.char_embedding = keras.layers.Embedding(
            self.char_vocab_size,
            self.char_dim,
            embeddings_initializer=self.embeddings_initializer,
            dtype=self.dtype_policy,
            name="char_embedding",
        )
        self.char_embedding.build((None, input_shape[-1]))
        self.encoder = ConvEncoder(
            "gcnn",
            self.num_layers,
            self.units,
            kernel_size=self.kernel_size,
            dtype=self.dtype_policy,
            name="char_gcnn",
        )
        self.encoder.build((None, input_shape[-1], self.char_dim))

    def call(self, inputs, mask=None, training=None):
        ids = ops.cast(inputs, "int32")
        if mask is not None:
            # A padded word's ids may be anything; make them padding characters.
            ids = ids * ops.cast(ops.expand_dims(mask, -1), "int32")
        shape = ops.shape(ids)
        words = ops.reshape(ids, (-1, shape[2]))  # (B * L, W)
        char_mask = sequence_mask(words, dtype=self.compute_dtype)
        hidden = self.encoder(self.char_embedding(words), mask=char_mask)
        composed = masked_max(hidden, char_mask, axis=1)  # (B * L, units), 0 if no chars
        return ops.reshape(composed, (shape[0], shape[1], self.units))

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:2]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "char_vocab_size": self.char_vocab_size,
                "char_dim": self.char_dim,
                "units": self.units,
                "num_layers": self.num_layers,
                "kernel_size": self.kernel_size,
                "embeddings_initializer": keras.initializers.serialize(self.embeddings_initializer),
            }
        )
        return config
