"""COIN, the context-aware interaction network (Hu, Fu, Yin and de Melo, EMNLP 2021).

Embedding (+ dropout) -> 2-layer conv encoder, concatenated with the embedding (D = e + d)
-> T interaction blocks (context-aware cross-attention, gate fusion) -> 1-layer conv
aggregation -> multi-head pooling -> [a; b; a - b; a * b] -> Dense(d, ReLU) -> logits.
Every weight is shared by the two sentences; each block has its own weights.

The paper's Table 3 ablations are builder switches: `use_context=False` ("w/o context"),
`fusion="simple"` ("simple fusion"), `aggregation=False` ("w/o aggregat."),
`pooling="max"` ("simple pool").

Width: Tables 2 and 5 give 6.5M parameters on Quora (e = 300, 3 blocks, embeddings fixed
and not counted). d = 225 gives 6,522,077 (docs/coin.md#parameter-counts; d was tuned over 150-300).
The number of pooling heads is not stated: n_h = 5 is the nearest to the spec's suggested 4 that
divides both d = 225 and the width of the pooled block outputs in the "w/o aggregat."
ablation, e + d = 525 (Quora) and 425 (LCQMC).
"""

import keras

from gcnn_match.layers.context_cross_attention import ContextCrossAttention
from gcnn_match.layers.gate_fusion import GateFusion
from gcnn_match.layers.masking import apply_mask
from gcnn_match.layers.max_mean_pooling import MaxMeanPooling
from gcnn_match.layers.multi_head_pooling import MultiHeadPooling
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register

_FUSIONS = ("gate", "simple")
_POOLINGS = ("multi_head", "max")


def _masked_conv(units, kernel_size, regularizer, name):
    """A 'same' ReLU convolution applied to an input zeroed at padding (shared by both sides)."""
    conv = keras.layers.Conv1D(
        units,
        kernel_size,
        padding="same",
        activation="relu",
        kernel_regularizer=regularizer,
        name=name,
    )

    def apply(x, mask):
        return apply_mask(conv(apply_mask(x, mask)), mask)

    return apply


def _input_representation(
    emb_a, emb_b, mask_a, mask_b, d, layers, kernel_size, dropout, regularizer
):
    """§2.1: a masked conv encoder of `layers` layers, concatenated with the embedding."""
    h_a, h_b = emb_a, emb_b
    for i in range(layers):
        conv = _masked_conv(d, kernel_size, regularizer, f"encoder_conv_{i + 1}")
        if i > 0:
            drop = keras.layers.Dropout(dropout, name=f"encoder_dropout_{i + 1}")
            h_a, h_b = drop(h_a), drop(h_b)
        h_a, h_b = conv(h_a, mask_a), conv(h_b, mask_b)
    concat = keras.layers.Concatenate(name="input_representation")
    return concat([emb_a, h_a]), concat([emb_b, h_b])


def _prediction(h_a, h_b, mask_a, mask_b, pooling, n_h, d, num_classes, dropout, regularizer):
    """§2.4, Eq. 13-16: pooled vectors, [v_a; v_b; v_a - v_b; v_a * v_b], a ReLU layer, logits."""
    if pooling == "multi_head":
        pool = MultiHeadPooling(n_h, kernel_regularizer=regularizer, name="pooling")
    else:
        pool = MaxMeanPooling(order=("max",), name="pooling")
    v_a, v_b = pool(h_a, mask=mask_a), pool(h_b, mask=mask_b)
    v = keras.layers.Concatenate(name="matching")(
        [v_a, v_b, keras.layers.Subtract()([v_a, v_b]), keras.layers.Multiply()([v_a, v_b])]
    )
    v = keras.layers.Dropout(dropout, name="prediction_dropout_1")(v)
    v = keras.layers.Dense(
        d, activation="relu", kernel_regularizer=regularizer, name="prediction_hidden"
    )(v)
    v = keras.layers.Dropout(dropout, name="prediction_dropout_2")(v)
    return keras.layers.Dense(num_classes, kernel_regularizer=regularizer, name="logits")(v)


@register("coin")
def build_coin(
    inputs,
    d=225,
    n_h=5,
    blocks=3,
    d_c=None,
    d_f=None,
    d_g=None,
    encoder_layers=2,
    kernel_size=3,
    dropout=0.2,
    l2=1e-6,
    use_context=True,
    fusion="gate",
    aggregation=True,
    pooling="multi_head",
    name=None,
):
    """Builds COIN (module docstring) for `inputs`.

    Args:
        d: width of the feed-forward and conv layers (the paper's "dimensionality of the
            feed-forward layers", tuned 150-300).
        n_h: pooling heads; must divide the pooled width (d, or e + d without aggregation).
        blocks: interaction blocks T (3 for Quora, 2 for LCQMC).
        d_c, d_f, d_g: widths of W_c (Eq. 5), F1 (Eq. 4) and G1-G3 (Eq. 7-9); None means d
            (docs/coin.md#open-choices [U→S]).
        encoder_layers, kernel_size: the conv encoder (2 layers, kernel 3 [P App. A]).
        dropout: rate (the paper's retention 0.8 = 0.2), placed as in RE2 (docs/coin.md#open-choices
            [U→S]): embedding output, input of encoder layers >= 2, inputs of F1, G1-G3,
            W_f, the aggregation conv and each prediction Dense.
        l2: L2 coefficient on every kernel except the embeddings ([U→S] 1e-6; the paper
            states L2 without its value).
        use_context, fusion, aggregation, pooling: the Table 3 ablations (module docstring).
    """
    if fusion not in _FUSIONS:
        raise ValueError(f"fusion must be one of {_FUSIONS}, got {fusion!r}.")
    if pooling not in _POOLINGS:
        raise ValueError(f"pooling must be one of {_POOLINGS}, got {pooling!r}.")
    regularizer = keras.regularizers.L2(l2) if l2 else None
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    drop = keras.layers.Dropout(dropout, name="embedding_dropout")
    emb_a, emb_b = drop(embed(features["a_ids"])), drop(embed(features["b_ids"]))

    h_a, h_b = _input_representation(
        emb_a, emb_b, mask_a, mask_b, d, encoder_layers, kernel_size, dropout, regularizer
    )

    # Interaction blocks (§2.2). The attention weights are kept as outputs of each
    # cross-attention layer so that `cross_attention_model` can read them (Figure 4).
    for t in range(1, blocks + 1):
        aligned_a, aligned_b, _, _ = ContextCrossAttention(
            d_f or d,
            context_units=d_c or d,
            use_context=use_context,
            dropout=dropout,
            return_attention=True,
            kernel_regularizer=regularizer,
            name=f"cross_attention_{t}",
        )([h_a, h_b], mask=[mask_a, mask_b])
        fuse = GateFusion(
            d_g or d,
            mode=fusion,
            dropout=dropout,
            kernel_regularizer=regularizer,
            name=f"fusion_{t}",
        )
        h_a, h_b = fuse([h_a, aligned_a], mask=mask_a), fuse([h_b, aligned_b], mask=mask_b)

    # Aggregation (§2.3): one more conv layer; "w/o aggregat." pools the last block output.
    if aggregation:
        drop = keras.layers.Dropout(dropout, name="aggregation_dropout")
        conv = _masked_conv(d, kernel_size, regularizer, "aggregation_conv")
        h_a, h_b = conv(drop(h_a), mask_a), conv(drop(h_b), mask_b)

    logits = _prediction(
        h_a, h_b, mask_a, mask_b, pooling, n_h, d, inputs.num_classes, dropout, regularizer
    )
    return keras.Model(features, logits, name=name or "coin")


def cross_attention_model(model, blocks=(1, -1)):
    """A model with `model`'s inputs that returns the cross-attention weights of `blocks`.

    `blocks` are 1-based block numbers (negative counts from the last). The outputs are a
    dict {"block_<t>_a": (B, L_a, L_b) softmax over b for each word of a, "block_<t>_b":
    (B, L_b, L_a)}; the default gives the first and last blocks, as in the paper's Figure 4.
    """
    layers = [layer for layer in model.layers if isinstance(layer, ContextCrossAttention)]
    outputs = {}
    for block in blocks:
        t = block if block > 0 else len(layers) + 1 + block
        layer = model.get_layer(f"cross_attention_{t}")
        _, _, weights_a, weights_b = layer.output
        outputs[f"block_{t}_a"] = weights_a
        outputs[f"block_{t}_b"] = weights_b
    return keras.Model(model.input, outputs, name=f"{model.name}_cross_attention")
