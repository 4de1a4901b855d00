"""CNN+internal attention (Adel & Schütze, EACL 2017) as ATTCONV's Table 3 compares against it.

One text: the ATTCONV baselines' width-3 tanh convolution over the fine-tuned word vectors,
then `InternalAttentionPooling` (each hidden state scores itself by a weight vector, the
softmax-weighted average of the states, length-normalised), then the logistic regression of
ATTCONV's common set-up (§4.1):

```
h_i    = tanh(W [x_{i-1}; x_i; x_{i+1}] + b)             (d)
a      = Σ_i softmax_i(v · h_i) h_i,   r = a / ||a||_2    (d)
logits = U r + c
```

"Adel and Schütze (2017) generate an attention weight for each CNN hidden state by a linear
transformation of the same hidden state, then compute weighted average over all hidden states
as the text representation" (ATTCONV §4.2). The model reads text "b": the text of the
single-text datasets (Yelp), which the pipeline puts on both sides. With d = e = 300 its
weights without biases and classifier are the convolution's 270,000 and v's 300. Models
output logits (docs/attconv.md#cnninternal-attention).
"""

import keras

from gcnn_match.layers.internal_attention_pooling import InternalAttentionPooling
from gcnn_match.models.attconv import ATTENTION_LAYER, cnn, logistic_regression
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


@register("cnn_internal_attention")
def build_cnn_internal_attention(
    inputs,
    hidden=300,
    kernel_size=3,
    normalize=True,
    kernel_initializer="glorot_uniform",
    name=None,
):
    """CNN+internal attention (see the module docstring).

    Args:
        inputs: `ModelInputs`.
        hidden: d, the convolution's feature maps (300, ATTCONV's common set-up).
        kernel_size: filter width (3).
        normalize: length-normalise the attention's weighted average, as the authors' code
            (True).
        kernel_initializer: of the convolution's kernel.
        name: model name.
    """
    features = pair_inputs(inputs)
    _, mask = masks(features)
    encode = cnn(hidden, kernel_size, keras.initializers.get(kernel_initializer))
    states = encode(word_embedding(inputs)(features["b_ids"]), mask)
    vector = InternalAttentionPooling(normalize=normalize, name=ATTENTION_LAYER)(states, mask=mask)
    logits = logistic_regression(vector, inputs, False)
    return keras.Model(features, logits, name=name or "cnn_internal_attention")
