"""Decomp-Att (Parikh et al., EMNLP 2016): the decomposable attention model, a baseline of
ATTCONV's Tables 5 (SciTail) and 7 (SNLI).

Word embedding -> linear projection to 200 -> [intra-sentence attention: ā = [a; a']] ->
attend -> compare -> aggregate, with F, G, H two-layer ReLU networks shared by both texts:

```
e_ij  = F(ā_i) . F(b̄_j)                                        attend (Eq. 1)
β_i   = Σ_j softmax_j(e_i.) b̄_j,   α_j = Σ_i softmax_i(e_.j) ā_i          (Eq. 2)
v1_i  = G([ā_i; β_i]),   v2_j = G([b̄_j; α_j])                   compare (Eq. 3)
v1    = Σ_i v1_i,   v2 = Σ_j v2_j                                aggregate (Eq. 4)
logits = W H([v1; v2]) + c                                                  (Eq. 5)
```

With intra-sentence attention (§3.4) ā_i = [a_i; a'_i], a' from `IntraSentenceAttention` with
keys F_intra(a); without it ā = a. Table 7's Decomp-Att (580K, 86.8) is the intra-attention
model: at e = 300 and 200 units its weights without biases and the classifier are the
projection's 60,000, F_intra's 80,000, F's 120,000, G's 200,000 and H's 120,000, 580,000
(582K with biases and the classifier, the count Parikh et al. report; 382K without
intra-attention). Models output logits (docs/attconv.md#decomp-att).
"""

import keras

from gcnn_match.layers.intra_sentence_attention import IntraSentenceAttention
from gcnn_match.layers.max_mean_pooling import MaxMeanPooling
from gcnn_match.layers.soft_alignment import SoftAlignment
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


def feed_forward(units, layers, dropout, name):
    """`layers` ReLU layers of `units`, each after a dropout of its input: F, G, H, F_intra."""
    steps = []
    for index in range(layers):
        steps += [
            keras.layers.Dropout(dropout, name=f"{name}_dropout_{index}"),
            keras.layers.Dense(units, activation="relu", name=f"{name}_{index}"),
        ]
    return keras.Sequential(steps, name=name)


@register("decomposable_attention")
def build_decomposable_attention(
    inputs,
    units=200,
    layers=2,
    intra_attention=True,
    max_distance=10,
    signed_distance=True,
    dropout=0.2,
    name=None,
):
    """Decomp-Att (see the module docstring).

    Args:
        inputs: `ModelInputs`.
        units: width of the projection and of every layer of F, G, H, F_intra (200).
        layers: layers per feed-forward network (2).
        intra_attention: the §3.4 variant, Table 7's row (True).
        max_distance: the greatest distance with an intra-attention bias of its own (10).
        signed_distance: one intra-attention bias per signed distance (True) or per
            absolute distance.
        dropout: rate at the input of every feed-forward layer (0.2, Parikh et al.'s).
        name: model name.
    """
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    project = keras.layers.Dense(units, use_bias=False, name="projection")
    a = project(embed(features["a_ids"]))
    b = project(embed(features["b_ids"]))
    if intra_attention:
        intra_keys = feed_forward(units, layers, dropout, "intra_attend")
        intra = IntraSentenceAttention(max_distance, signed_distance, name="intra_attention")
        join = keras.layers.Concatenate(name="intra_concatenate")
        a = join([a, intra([intra_keys(a), a], mask=mask_a)])
        b = join([b, intra([intra_keys(b), b], mask=mask_b)])

    attend = feed_forward(units, layers, dropout, "attend")
    beta, alpha = SoftAlignment(name="attention")(
        [attend(a), attend(b), a, b], mask=[mask_a, mask_b]
    )
    compare = feed_forward(units, layers, dropout, "compare")
    aggregate = MaxMeanPooling(order=("sum",), name="aggregate")
    pair = keras.layers.Concatenate(name="compare_concatenate")
    v1 = aggregate(compare(pair([a, beta])), mask=mask_a)
    v2 = aggregate(compare(pair([b, alpha])), mask=mask_b)
    hidden = feed_forward(units, layers, dropout, "classify")(
        keras.layers.Concatenate(name="aggregated")([v1, v2])
    )
    logits = keras.layers.Dense(inputs.num_classes, name="logits")(hidden)
    return keras.Model(features, logits, name=name or "decomposable_attention")
