"""The GCNN compare-aggregate model (Chen et al., Interspeech 2018) and its conv baselines.

Word embedding -> 4-layer context encoder -> dot-product soft alignment both ways ->
[a; alpha; |a - alpha|; a * alpha] -> 2-layer aggregation encoder -> masked max and mean
pooling of both sides -> ReLU MLP -> logits. The encoder variant selects the rows of Tables
1-2: "gcnn" (GCNN), "glu" (GLU), "cnn" (CNN), "gcnn_no_forget" (GCNN - forget gate),
"gcnn_no_output" (GCNN - output gate). Weights are shared between the two sentences.

Rows "GCNN (char)" and "GCNN (char+POS)" (Sec. 2.3) widen each word's input to
x_i = [w_i; c_i] or [w_i; c_i; pos_i]: c_i is the 100-d character-composition vector
(`CharComposition`, Eq. 9) and pos_i the 47-d one-hot of the word's tag in the fixed
inventory of `gcnn_match.data.pos`.
"""

import keras

from gcnn_match.data.features import TokenFeatures
from gcnn_match.data.pos import NUM_POS_TAGS
from gcnn_match.layers.char_composition import CharComposition
from gcnn_match.layers.conv_encoder import ConvEncoder
from gcnn_match.layers.matching_features import MatchingFeatures
from gcnn_match.layers.max_mean_pooling import MaxMeanPooling
from gcnn_match.layers.soft_alignment import SoftAlignment
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


def _consumed_features(char_features, pos_features, **_):
    return TokenFeatures(chars=char_features, pos=pos_features)


@register("compare_aggregate", features=_consumed_features)
def build_compare_aggregate(
    inputs,
    variant="gcnn",
    hidden=300,
    context_layers=4,
    aggregation_layers=2,
    kernel_size=3,
    initial_memory="zeros",
    mlp_hidden=300,
    embedding_dropout=0.1,
    mlp_dropout=0.1,
    char_features=False,
    pos_features=False,
    char_dim=40,
    char_units=100,
    char_layers=2,
    char_kernel_size=3,
    name=None,
):
    """Builds the model of GCNN §2.2 with encoder `variant` (see module docstring).

    Unstated details follow docs/gcnn.md#open-choices: kernel 3, C^0 = 0, MLP width 300, shared
    weights for both sentences, masked attention and pooling, dropout on the input features
    and the MLP input (`embedding_dropout`, `mlp_dropout`).

    `char_features` appends the character-composition vector (needs "a_chars"/"b_chars",
    i.e. `inputs.char_vocab_size`): `char_dim` 40, `char_units` 100 and `char_layers` 2 are
    the paper's (Sec. 3.2), `char_kernel_size` 3 is [U→S]. `pos_features` appends the
    one-hot POS tag (needs "a_pos"/"b_pos", i.e. `inputs.pos_vocab_size`). The POS ids must
    come from `gcnn_match.data.pos.pos_ids` (0 padding, 1..47): the one-hot is always
    `NUM_POS_TAGS` = 47 wide whatever `inputs.pos_vocab_size` says, id k sets dimension
    k - 1 and ids outside 1..47 give zeros. Both feature encoders are shared by the two
    sentences, and the embedding dropout applies to the whole concatenated x_i.
    """
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    # Built in this order (word table, characters, dropout): their initializers draw seeds
    # from the global generator as they are constructed.
    embed = word_embedding(inputs)
    chars = None
    if char_features:
        _require(features, "a_chars", "char_features", "char_vocab_size")
        chars = CharComposition(
            inputs.char_vocab_size,
            char_dim=char_dim,
            units=char_units,
            num_layers=char_layers,
            kernel_size=char_kernel_size,
            name="char_composition",
        )
    if pos_features:
        _require(features, "a_pos", "pos_features", "pos_vocab_size")
    x_a, x_b = _word_features(
        features, (mask_a, mask_b), embed, chars, pos_features, embedding_dropout
    )

    context = ConvEncoder(
        variant,
        context_layers,
        hidden,
        kernel_size=kernel_size,
        initial_memory=initial_memory,
        name="context_encoder",
    )
    a = context(x_a, mask=mask_a)
    b = context(x_b, mask=mask_b)

    alpha, beta = SoftAlignment(name="soft_alignment")([a, b], mask=[mask_a, mask_b])
    compare = MatchingFeatures(difference="absolute", name="comparison")
    m_a = compare([a, alpha], mask=mask_a)
    m_b = compare([b, beta], mask=mask_b)

    aggregate = ConvEncoder(
        variant,
        aggregation_layers,
        hidden,
        kernel_size=kernel_size,
        initial_memory=initial_memory,
        name="aggregation_encoder",
    )
    pool = MaxMeanPooling(order=("max", "mean"), name="pooling")
    v = keras.layers.Concatenate(name="pooled")(
        [
            pool(aggregate(m_a, mask=mask_a), mask=mask_a),
            pool(aggregate(m_b, mask=mask_b), mask=mask_b),
        ]
    )

    h = keras.layers.Dropout(mlp_dropout, name="mlp_dropout")(v)
    h = keras.layers.Dense(mlp_hidden, activation="relu", name="mlp_hidden")(h)
    logits = keras.layers.Dense(inputs.num_classes, name="logits")(h)
    return keras.Model(features, logits, name=name or f"compare_aggregate_{variant}")


def _word_features(features, masks_ab, embed, chars, pos_features, dropout):
    """x_i of both sentences: `embed` vector, [`chars` composition], [one-hot POS], dropped out.

    The feature encoders and the dropout layer are shared by the two sentences.
    """
    drop_embedding = keras.layers.Dropout(dropout, name="embedding_dropout")

    def side_features(side, mask):
        parts = [embed(features[f"{side}_ids"])]
        if chars is not None:
            parts.append(chars(features[f"{side}_chars"], mask=mask))
        if pos_features:
            # one_hot over 0..47 without the padding column: id k -> dimension k - 1.
            parts.append(keras.ops.one_hot(features[f"{side}_pos"], NUM_POS_TAGS + 1)[..., 1:])
        x = (
            parts[0]
            if len(parts) == 1
            else keras.layers.Concatenate(name=f"{side}_word_features")(parts)
        )
        return drop_embedding(x)

    return side_features("a", masks_ab[0]), side_features("b", masks_ab[1])


def _require(features, key, flag, field):
    if key not in features:
        raise ValueError(f"{flag}=True needs ModelInputs.{field} (the pipeline's {key} input)")
