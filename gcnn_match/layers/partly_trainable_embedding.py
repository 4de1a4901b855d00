"""A word embedding whose first columns stay fixed while its last columns train."""

import keras
from keras import ops


@keras.saving.register_keras_serializable(package="gcnn_match")
class PartlyTrainableEmbedding(keras.layers.Layer):
    """Looks ids up in a table of fixed columns followed by trainable columns.

    ```
    out_bt = [F[ids_bt]; T[ids_bt]]      F: (V, output_dim − trainable_columns), not trained
                                         T: (V, trainable_columns), trained
    ```

    Narrow stand-in vectors padded to a paper's width (`embedding_width`) where the paper keeps
    its vectors fixed (COIN): the pretrained columns stay fixed, the padded columns are weights
    that train, as the other models' padded columns do (docs/coin.md#open-choices). Both parts
    start from one (V, output_dim) initializer, split by columns. The trainable part is the
    variable named "embeddings", like a `keras.layers.Embedding` table, so parameter counts
    that leave the embeddings out leave it out too.

    Args:
        input_dim: vocabulary size V.
        output_dim: width of the looked-up vectors.
        trainable_columns: how many of the last columns train (0 < it < output_dim).
        embeddings_initializer: of the whole (V, output_dim) table.
        **kwargs: base `keras.layers.Layer` arguments.

    Call arguments:
        inputs: int tensor (B, L) of ids.

    Returns:
        A float tensor (B, L, output_dim).

    Masking:
        None produced: the models compute their masks from the ids (id 0 is padding).

    Example:

    >>> layer = PartlyTrainableEmbedding(5, 4, trainable_columns=1)
    >>> tuple(layer(keras.ops.zeros((2, 3), "int32")).shape)
    (2, 3, 4)
    >>> [tuple(w.shape) for w in layer.trainable_weights]
    [(5, 1)]
    """

    def __init__(
        self, input_dim, output_dim, trainable_columns, embeddings_initializer="uniform", **kwargs
    ):
        super().__init__(**kwargs)
        if not 0 < trainable_columns < output_dim:
            raise ValueError(
                f"trainable_columns must lie between 0 and output_dim ({output_dim}), "
                f"got {trainable_columns}"
            )
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.trainable_columns = int(trainable_columns)
        self.embeddings_initializer = keras.initializers.get(embeddings_initializer)

    def build(self, input_shape):
        table = self.embeddings_initializer((self.input_dim, self.output_dim))
        fixed = self.output_dim - self.trainable_columns
        self.fixed_embeddings = self.add_weight(
            shape=(self.input_dim, fixed),
            initializer=lambda shape, dtype=None: table[:, :fixed],
            trainable=False,
            name="fixed_embeddings",
        )
        self.padding_embeddings = self.add_weight(
            shape=(self.input_dim, self.trainable_columns),
            initializer=lambda shape, dtype=None: table[:, fixed:],
            name="embeddings",
        )

    @property
    def embeddings(self):
        """The whole (V, output_dim) table."""
        return ops.concatenate([self.fixed_embeddings, self.padding_embeddings], axis=-1)

    def call(self, inputs):
        ids = ops.cast(inputs, "int32")
        return ops.concatenate(
            [
                ops.take(self.fixed_embeddings, ids, axis=0),
                ops.take(self.padding_embeddings, ids, axis=0),
            ],
            axis=-1,
        )

    def compute_output_shape(self, input_shape):
        return (*input_shape, self.output_dim)

    def get_config(self):
        config = super().get_config()
        config.update(
            {
                "input_dim": self.input_dim,
                "output_dim": self.output_dim,
                "trainable_columns": self.trainable_columns,
                "embeddings_initializer": keras.initializers.serialize(self.embeddings_initializer),
            }
        )
        return config
