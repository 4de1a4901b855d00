"""The GCNN compare-aggregate model (Chen et al., Interspeech 2018) and its conv baselines.

Word embedding -> 4-layer context encoder -> dot-product soft alignment both ways ->
[a; alpha; |a - alpha|; a * alpha] -> 2-layer aggregation encoder -> masked max and mean
pooling of both sides -> ReLU MLP -> logits. The encoder variant selects the rows of Tables
1-2: "gcnn" (GCNN), "glu" (GLU), "cnn" (CNN), "gcnn_no_forget" (GCNN - forget gate),
"gcnn_no_output" (GCNN - output gate). Weights are shared between the two sentences.
"""
import keras

from gcnn_match.layers.conv_encoder import ConvEncoder
from gcnn_match.layers.pooling import MaxMeanPooling
from gcnn_match.layers.soft_alignment import MatchingFeatures, SoftAlignment
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


@register("compare_aggregate")
def build_compare_aggregate(inputs, variant="gcnn", hidden=300, context_layers=4,
                            aggregation_layers=2, kernel_size=3, initial_memory="zeros",
                            mlp_hidden=300, embedding_dropout=0.1, mlp_dropout=0.1,
                            name=None):
    """Builds the model of GCNN §2.2 with encoder `variant` (see module docstring).

    Unstated details follow MODEL_SPECS §1.5: kernel 3, C^0 = 0, MLP width 300, shared
    weights for both sentences, masked attention and pooling, dropout on the embeddings and
    the MLP input (`embedding_dropout`, `mlp_dropout`).
    """
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    drop_embedding = keras.layers.Dropout(embedding_dropout, name="embedding_dropout")
    x_a = drop_embedding(embed(features["a_ids"]))
    x_b = drop_embedding(embed(features["b_ids"]))

    context = ConvEncoder(variant, context_layers, hidden, kernel_size=kernel_size,
                          initial_memory=initial_memory, name="context_encoder")
    a = context(x_a, mask=mask_a)
    b = context(x_b, mask=mask_b)

    alpha, beta = SoftAlignment(name="soft_alignment")([a, b], mask=[mask_a, mask_b])
    compare = MatchingFeatures(difference="absolute", name="comparison")
    m_a = compare([a, alpha], mask=mask_a)
    m_b = compare([b, beta], mask=mask_b)

    aggregate = ConvEncoder(variant, aggregation_layers, hidden, kernel_size=kernel_size,
                            initial_memory=initial_memory, name="aggregation_encoder")
    pool = MaxMeanPooling(order=("max", "mean"), name="pooling")
    v = keras.layers.Concatenate(name="pooled")(
        [pool(aggregate(m_a, mask=mask_a), mask=mask_a),
         pool(aggregate(m_b, mask=mask_b), mask=mask_b)])

    h = keras.layers.Dropout(mlp_dropout, name="mlp_dropout")(v)
    h = keras.layers.Dense(mlp_hidden, activation="relu", name="mlp_hidden")(h)
    logits = keras.layers.Dense(inputs.num_classes, name="logits")(h)
    return keras.Model(features, logits, name=name or f"compare_aggregate_{variant}")
