"""Coupled-LSTMs (Liu et al., EMNLP 2016) and the baselines of its Tables 2 and 4.

C-LSTMs: shared word embedding -> stacked four-directional coupled LSTMs over the n x m
grid -> dynamic p x q max-pooling over the true region -> FC (tanh) -> output layer (§4).
Baselines (§6.2), in two builders because they share two mechanisms:
- `sentence_encoder_mlp`: each sentence encoded on its own (kind "nbow": sum of its word
  vectors; kind "lstm": last state of an LSTM, "parallel LSTMs") -> [a; b] -> tanh MLP.
- `conditional_lstm` (Rocktäschel et al. 2016): the hypothesis LSTM starts from the
  premise LSTM's final state (attention None: "single LSTM"), plus attention over the
  premise states from the last hypothesis state ("final": "Attention LSTMs") or at every
  hypothesis word ("word_by_word").

Every non-embedding parameter is drawn from U[-0.1, 0.1] (§6.1). Models output logits
(B, num_classes) with `head="softmax"` (the softmax lives in the loss) or a ranking score
(B, 1) with `head="score"` (train with `gcnn_match.training.ranking`).

Table 2's |θ|_M counts weights without embeddings, biases and the output layer
(`gcnn_match/experiments/param_counts.py`): with e = 100 and one weight set shared by the
four directions (the default) TC gives 77,500 and four stacked TC 190,000, as printed; LC
gives 45,000 and 135,000 as printed only with one weight set for its two LSTMs
(`share_streams=True`), 85,000 and 265,000 with the two separate LSTMs the text describes
(the default; docs/clstm.md#open-choices).
"""

import keras
from keras import ops

from gcnn_match.layers.conditional_attention import ConditionalAttention
from gcnn_match.layers.coupled_lstm import CoupledLSTM
from gcnn_match.layers.dynamic_pooling import DynamicPooling
from gcnn_match.layers.initializers import paper_uniform
from gcnn_match.layers.masking import apply_mask
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register

HEADS = ("softmax", "score")


def _regularizer(l2):
    return keras.regularizers.L2(l2) if l2 else None


def _dense(units, name, activation=None, l2=0.0):
    return keras.layers.Dense(
        units,
        activation=activation,
        kernel_initializer=paper_uniform(),
        bias_initializer=paper_uniform(),
        kernel_regularizer=_regularizer(l2),
        name=name,
    )


def _output(features, inputs, head, l2):
    """Classification logits (B, num_classes) or a ranking score (B, 1) (§4.5)."""
    if head not in HEADS:
        raise ValueError(f"head must be one of {HEADS}, got {head!r}")
    if head == "softmax":
        return _dense(inputs.num_classes, "logits", l2=l2)(features)
    return _dense(1, "score", l2=l2)(features)


def _lstm(units, name, l2, return_sequences=False, return_state=False):
    # unit_forget_bias would add 1 to the forget bias; the paper draws every bias uniformly.
    return keras.layers.LSTM(
        units,
        return_sequences=return_sequences,
        return_state=return_state,
        kernel_initializer=paper_uniform(),
        recurrent_initializer=paper_uniform(1),
        bias_initializer=paper_uniform(2),
        unit_forget_bias=False,
        kernel_regularizer=_regularizer(l2),
        recurrent_regularizer=_regularizer(l2),
        name=name,
    )


def _embedded_pair(inputs, project_inputs, units, l2):
    """Ids -> masks and word vectors of both sentences, optionally projected to `units`."""
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    x_a, x_b = embed(features["a_ids"]), embed(features["b_ids"])
    if project_inputs:
        projection = _dense(units, "input_projection", l2=l2)
        x_a, x_b = projection(x_a), projection(x_b)
    return features, (x_a, x_b), (mask_a, mask_b)


@register("clstm")
def build_clstm(
    inputs,
    cell="tight",
    num_layers=1,
    directions=4,
    share_streams=False,
    share_directions=True,
    units=50,
    pool_size=(1, 1),
    fc_units=None,
    fc_activation="tanh",
    head="softmax",
    l2=0.0,
    rematerialize=False,
    name=None,
):
    """Builds the C-LSTM matching model of §4 (Figure 2).

    Args:
        inputs: `ModelInputs`.
        cell: "tight" (TC-LSTMs) or "loose" (LC-LSTMs).
        num_layers: stacked blocks: 1, or 4 (SNLI) / 3 (Yahoo) for the "stacked" rows.
        directions: 4 (the four-directional block) or 1 ("(Single Direction)" rows).
        share_streams: LC only: one weight set for LSTM1 and LSTM2. Default False, §3.3's "two
            separated LSTMs"; True is the reading that reproduces Table 2's LC counts
            (docs/clstm.md#open-choices).
        share_directions: one weight set for the four directions of a block. Default True,
            the reading Table 2's equal single- and four-direction counts need; the text
            only likens the directions to a bidirectional LSTM's (docs/clstm.md#open-choices).
        units: hidden size k (Table 1: 50).
        pool_size: dynamic pooling (p, q): (1, 1) for RTE, (2, 1) for MQA (Table 1); with
            (2, 1) the question must be sentence a (X) [U→S].
        fc_units: width of the fully connected layer; None = `units` (the FC of 50 units
            that makes Table 2's counts, docs/clstm.md#parameter-counts).
        fc_activation: its activation; unstated in the paper [U→S tanh].
        head: "softmax" (classification logits) or "score" (ranking score).
        l2: L2 coefficient on every non-embedding kernel (Table 1: 1e-5 RTE, 5e-5 MQA);
            Keras' L2 adds l2 * sum(w^2).
        rematerialize: recompute each block's scan in the backward pass rather than keep
            its activations: same gradients, less memory, more time (docs/clstm.md#memory).
        name: model name.
    """
    if directions not in (1, 4):
        raise ValueError(f"directions must be 1 or 4, got {directions}")
    features, (x_a, x_b), (mask_a, mask_b) = _embedded_pair(inputs, False, units, l2)
    grid = CoupledLSTM(
        units,
        cell=cell,
        num_layers=num_layers,
        directions=[1, 2, 3, 4][:directions],
        share_streams=share_streams,
        share_directions=share_directions,
        kernel_regularizer=_regularizer(l2),
        rematerialize=rematerialize,
        name="coupled_lstm",
    )([x_a, x_b], mask=[mask_a, mask_b])
    pooled = DynamicPooling(pool_size, name="dynamic_pooling")(grid, mask=[mask_a, mask_b])
    hidden = _dense(fc_units or units, "fully_connected", fc_activation, l2)(pooled)
    outputs = _output(hidden, inputs, head, l2)
    return keras.Model(features, outputs, name=name or f"clstm_{cell}_{num_layers}x{directions}")


@register("sentence_encoder_mlp")
def build_sentence_encoder_mlp(
    inputs,
    kind="nbow",
    units=100,
    mlp_layers=2,
    mlp_units=None,
    shared_encoder=False,
    project_inputs=False,
    head="softmax",
    l2=0.0,
    name=None,
):
    """NBOW or parallel LSTMs (§6.2): separate sentence vectors, concatenated, into a MLP.

    Args:
        kind: "nbow" (sum of the word vectors of each sentence) or "lstm" (last hidden
            state of an LSTM with `units` per sentence).
        units: LSTM size k (Table 2: 100; Table 4: 50).
        mlp_layers, mlp_units: the tanh MLP; unstated [U→S]: 2 layers of 2 * units (the
            width of [a; b] for NBOW with k = e = 100), which gives NBOW Table 2's 80K
            exactly under the paper's count (200 * 200 * 2 = 80,000).
        shared_encoder: one LSTM for both sentences; the paper says "two LSTMs separately"
            (default False).
        project_inputs: linear map of the word vectors to `units` before the encoder.
        head, l2, name: as in `build_clstm`.
    """
    if kind not in ("nbow", "lstm"):
        raise ValueError(f"kind must be 'nbow' or 'lstm', got {kind!r}")
    features, (x_a, x_b), (mask_a, mask_b) = _embedded_pair(inputs, project_inputs, units, l2)
    if kind == "nbow":
        v_a = ops.sum(apply_mask(x_a, mask_a), axis=1)
        v_b = ops.sum(apply_mask(x_b, mask_b), axis=1)
    else:
        encoder_a = _lstm(units, "lstm_a", l2)
        encoder_b = encoder_a if shared_encoder else _lstm(units, "lstm_b", l2)
        v_a = encoder_a(x_a, mask=ops.cast(mask_a, "bool"))
        v_b = encoder_b(x_b, mask=ops.cast(mask_b, "bool"))
    hidden = keras.layers.Concatenate(name="pair")([v_a, v_b])
    for i in range(mlp_layers):
        hidden = _dense(mlp_units or 2 * units, f"mlp_{i + 1}", "tanh", l2)(hidden)
    outputs = _output(hidden, inputs, head, l2)
    return keras.Model(features, outputs, name=name or f"{kind}_mlp")


@register("conditional_lstm")
def build_conditional_lstm(
    inputs,
    attention=None,
    units=100,
    shared_lstm=None,
    project_inputs=False,
    num_layers=1,
    head="softmax",
    l2=0.0,
    name=None,
):
    """Rocktäschel et al.'s conditional encoding, with optional attention (§6.2).

    The premise LSTM reads sentence a; the hypothesis LSTM reads sentence b starting from
    the premise LSTM's final (h, c). The output layer reads h_N ("single LSTM") or h* of
    `ConditionalAttention` ("Attention LSTMs" / "Attention(w-by-w) LSTMs"). With
    `num_layers` L > 1 both LSTMs are stacks of L layers, layer l reading the states of
    layer l - 1 and the hypothesis' layer l starting from the premise's layer l final
    (h, c); the attention reads the top layer's states (footnote 2's "stacked
    attention-based LSTM"; docs/clstm.md#stacked-attention-lstm).

    Args:
        attention: None, "final" or "word_by_word".
        units: k (Table 2: 100; Table 4: 50).
        shared_lstm: one LSTM for both sentences. None = the paper's reading: shared for
            the "single LSTM" baseline ("a single LSTM to encode the two sequences"),
            separate for the attention models [U→S].
        project_inputs: a linear map of the word vectors to k before the LSTMs. Table 2's
            counts for these rows come from Rocktäschel et al., whose 300-d word2vec inputs
            need such a map: with it and 300-d vectors the single LSTM has 110,803
            parameters (their 111K); Liu et al. feed 100-d GloVe, so it is off by default.
        num_layers: L, the stacked LSTM layers of each sentence (default 1).
        head, l2, name: as in `build_clstm`.
    """
    if attention not in (None, "final", "word_by_word"):
        raise ValueError(f"attention must be None, 'final' or 'word_by_word', got {attention!r}")
    if num_layers < 1:
        raise ValueError(f"num_layers must be at least 1, got {num_layers}")
    if shared_lstm is None:
        shared_lstm = attention is None
    features, (premise, hypothesis), (mask_a, mask_b) = _embedded_pair(
        inputs, project_inputs, units, l2
    )
    for layer in range(num_layers):
        suffix = f"_{layer + 1}" if layer else ""
        premise_lstm = _lstm(
            units, f"premise_lstm{suffix}", l2, return_sequences=True, return_state=True
        )
        hypothesis_lstm = (
            premise_lstm
            if shared_lstm
            else _lstm(
                units, f"hypothesis_lstm{suffix}", l2, return_sequences=True, return_state=True
            )
        )
        premise, h_a, c_a = premise_lstm(premise, mask=ops.cast(mask_a, "bool"))
        hypothesis, h_n, _ = hypothesis_lstm(
            hypothesis, initial_state=[h_a, c_a], mask=ops.cast(mask_b, "bool")
        )
    if attention is None:
        hidden = h_n
    else:
        hidden = ConditionalAttention(
            units,
            word_by_word=attention == "word_by_word",
            kernel_regularizer=_regularizer(l2),
            name="attention",
        )([premise, hypothesis, h_n], mask=[mask_a, mask_b])
    outputs = _output(hidden, inputs, head, l2)
    return keras.Model(features, outputs, name=name or f"conditional_lstm_{attention}")


def grid_model(model):
    """A model with `model`'s inputs that returns the grid its dynamic pooling reads.

    Output (B, n, m, d_out): h_ijk, the summed four-directional states of the top
    coupled-LSTM block at cell (i, j) (0 at padded cells) -- "the neuron activations in the
    last aggregation layer" that the paper's §6.3.2 and Figure 3 visualise. The layer is the
    trained one, unchanged; this only exposes its output.
    """
    return keras.Model(
        model.input, model.get_layer("coupled_lstm").output, name=f"{model.name}_grid"
    )
