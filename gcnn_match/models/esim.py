"""ESIM (Chen et al., ACL 2017): the `ESIM (our implement)` baseline of the GCNN paper.

Word embedding (fine-tuned) -> dropout -> shared BiLSTM input encoder -> masked soft
alignment both ways -> [a; a~; a - a~; a * a~] -> projection F (ReLU) -> dropout -> shared
BiLSTM composition -> masked [mean; max] pooling of both sides -> dropout -> tanh MLP ->
dropout -> logits. The GCNN paper only says it re-implemented ESIM in TensorFlow (Sec. 4);
the details follow ESIM's official code as docs/gcnn.md#esim-baseline records them.
"""

import keras

from gcnn_match.layers.bilstm_encoder import BiLSTMEncoder
from gcnn_match.layers.initializers import OrthogonalIfSquare
from gcnn_match.layers.matching_features import MatchingFeatures
from gcnn_match.layers.max_mean_pooling import MaxMeanPooling
from gcnn_match.layers.soft_alignment import SoftAlignment
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


@register("esim")
def build_esim(
    inputs,
    encoder_units=300,
    projection_units=300,
    composition_units=300,
    mlp_hidden=300,
    embedding_dropout=0.5,
    projection_dropout=0.5,
    pooled_dropout=0.5,
    mlp_dropout=0.5,
    name=None,
):
    """Builds ESIM with its official code's sizes, dropout and initialisation.

    Defaults are ESIM's: 300 units per LSTM direction (input encoder and composition), a
    300-d ReLU projection F, a 300-d tanh MLP, dropout 0.5 in the four places of the
    official code (embeddings, after F, on the pooled vector, after the MLP hidden layer).
    Every weight matrix is orthogonal when square and N(0, 0.01^2) otherwise, biases 0
    (`OrthogonalIfSquare`; per gate block inside the LSTMs). Encoders and F are shared by
    premise and hypothesis.

    Two details differ from the official code on purpose:
    - The enhancement is [a; a~; a - a~; a * a~] (ESIM paper Eq. 14; the code concatenates
      the product before the difference), a permutation of F's input with the same count.
    - The max pooling runs over real positions only. The official code takes the max after
      multiplying the composition outputs by the mask, so a feature that is negative at
      every real position pools to 0 there; here it pools to its true maximum.
    """
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    drop_embedding = keras.layers.Dropout(embedding_dropout, name="embedding_dropout")
    x_a = drop_embedding(embed(features["a_ids"]))
    x_b = drop_embedding(embed(features["b_ids"]))

    encoder = BiLSTMEncoder(encoder_units, name="input_encoder")
    a = encoder(x_a, mask=mask_a)
    b = encoder(x_b, mask=mask_b)

    alpha, beta = SoftAlignment(name="soft_alignment")([a, b], mask=[mask_a, mask_b])
    enhance = MatchingFeatures(difference="signed", name="enhancement")
    projection = keras.layers.Dense(
        projection_units,
        activation="relu",
        kernel_initializer=OrthogonalIfSquare(),
        name="projection",
    )
    drop_projection = keras.layers.Dropout(projection_dropout, name="projection_dropout")
    composition = BiLSTMEncoder(composition_units, name="composition")
    pool = MaxMeanPooling(order=("mean", "max"), name="pooling")

    def compose(x, aligned, mask):
        projected = drop_projection(projection(enhance([x, aligned], mask=mask)))
        return pool(composition(projected, mask=mask), mask=mask)

    v = keras.layers.Concatenate(name="pooled")(
        [compose(a, alpha, mask_a), compose(b, beta, mask_b)]
    )
    h = keras.layers.Dropout(pooled_dropout, name="pooled_dropout")(v)
    h = keras.layers.Dense(
        mlp_hidden, activation="tanh", kernel_initializer=OrthogonalIfSquare(), name="mlp_hidden"
    )(h)
    h = keras.layers.Dropout(mlp_dropout, name="mlp_dropout")(h)
    logits = keras.layers.Dense(
        inputs.num_classes, kernel_initializer=OrthogonalIfSquare(), name="logits"
    )(h)
    return keras.Model(features, logits, name=name or "esim")
