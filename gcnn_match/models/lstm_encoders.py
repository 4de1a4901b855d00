"""The LSTM sentence-encoder classifier of Bowman et al. (EMNLP 2015), ATTCONV's "Bi-LSTM".

Each text is encoded on its own by one shared encoder (Bowman et al.: "two identical copies of
the model are run with the two sentences as input"): the word vectors pass a tanh layer that
maps them to the encoder's width, then an LSTM whose last state is the sentence vector. The
two vectors, concatenated, feed a stack of tanh layers and the output layer:

```
x'_t = tanh(W_p x_t + b_p)                      300 -> 100
u    = LSTM(x'_a)_{n},  v = LSTM(x'_b)_{m}      the last real state of each text, 100 each
h    = tanh(W_3 tanh(W_2 tanh(W_1 [u; v])))     three 200-d tanh layers
logits = U h + c
```

ATTCONV's Table 5 and Table 7 name the row "Bi-LSTM (Bowman et al., 2015)"; Bowman et al.'s
model reads each text with a left-to-right LSTM. `bidirectional=True` encodes with a
`BiLSTMEncoder` instead (the sentence vector is then [forward state at the last token; backward
state at the first], 2 * units). With e = 300, Table 7's convention (no embeddings, biases or
output layer) counts 30,000 + 80,000 + 120,000 = 230,000 weights, where the table prints 220K
(a listed mismatch; docs/attconv.md#bi-lstm-bowman-et-al-2015). Models output logits.
"""

import keras
from keras import ops

from gcnn_match.layers.bilstm_encoder import BiLSTMEncoder
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


def _final_states(states, mask, units):
    """A `BiLSTMEncoder`'s sentence vector: the forward half at the last real token, the
    backward half at the first token (each has then read the whole text)."""
    last = ops.maximum(ops.cast(ops.sum(mask, axis=1), "int32") - 1, 0)
    forward = ops.take_along_axis(states[:, :, :units], last[:, None, None], axis=1)[:, 0]
    return ops.concatenate([forward, states[:, 0, units:]], axis=-1)


def _encoder(units, bidirectional):
    """encode(x, mask) -> (B, units) or (B, 2 * units), one weight set for both texts."""
    if bidirectional:
        layer = BiLSTMEncoder(units, name="sentence_encoder")
        return lambda x, mask: _final_states(layer(x, mask=mask), mask, units)
    layer = keras.layers.LSTM(units, name="sentence_encoder")
    return lambda x, mask: layer(x, mask=ops.cast(mask, "bool"))


@register("lstm_encoders")
def build_lstm_encoders(
    inputs,
    units=100,
    bidirectional=False,
    projection_units=100,
    mlp_layers=3,
    mlp_units=200,
    dropout=0.0,
    name=None,
):
    """Bowman et al.'s (2015) sentence-encoder classifier (see the module docstring).

    Args:
        inputs: `ModelInputs`.
        units: the LSTM's hidden size (Bowman et al.: 100-d sentence vectors); per direction
            with `bidirectional`.
        bidirectional: encode with a BiLSTM (ATTCONV's row name) instead of Bowman et al.'s
            left-to-right LSTM (docs/attconv.md#open-choices).
        projection_units: width of the tanh layer that maps the word vectors to the encoder
            (Bowman et al. map the 300-d vectors to 100-d); 0 reads the vectors directly.
        mlp_layers, mlp_units: the tanh layers on [u; v] (Bowman et al.: three of 200).
        dropout: rate of the dropout on the encoder's inputs and on the sentence vectors
            (Bowman et al. drop out there at a rate they do not state; ATTCONV's rows use
            none).
        name: model name.
    """
    features = pair_inputs(inputs)
    text_masks = masks(features)
    embed = word_embedding(inputs)
    project = (
        keras.layers.Dense(projection_units, activation="tanh", name="input_projection")
        if projection_units
        else None
    )
    drop_inputs = keras.layers.Dropout(dropout, name="input_dropout")
    drop_vectors = keras.layers.Dropout(dropout, name="sentence_dropout")
    encode = _encoder(units, bidirectional)

    def sentence_vector(ids, mask):
        x = embed(ids)
        if project is not None:
            x = project(x)
        return drop_vectors(encode(drop_inputs(x), mask))

    vectors = [
        sentence_vector(features[key], mask) for key, mask in zip(("a_ids", "b_ids"), text_masks)
    ]
    hidden = keras.layers.Concatenate(name="pair")(vectors)
    for index in range(mlp_layers):
        hidden = keras.layers.Dense(mlp_units, activation="tanh", name=f"mlp_{index + 1}")(hidden)
    logits = keras.layers.Dense(inputs.num_classes, name="logits")(hidden)
    return keras.Model(features, logits, name=name or "lstm_encoders")
