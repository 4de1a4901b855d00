"""MultichannelCNN (Kim, EMNLP 2014), the strongest no-attention baseline of ATTCONV's Table 3.

One text, two channels of word vectors initialised from the same vectors: a static one, kept
fixed, and a non-static one, fine-tuned. Convolutions of widths 3, 4 and 5 with 100 ReLU maps
each read both channels, each map is max-pooled over time, and the 300 pooled features pass
dropout 0.5 into the softmax layer, whose weight vectors are rescaled to an L2 norm of 3
whenever a step takes them above it:

```
x_t   = [x^static_t; x^non-static_t]                    (2e)
z     = MultiWidthConvPooling(x)                        (3 * 100)
logits = U dropout(z) + c,   ||U_:,k||_2 <= 3
```

The model reads text "b": the text of the single-text datasets (Yelp), which the pipeline puts
on both sides. Models output logits.
"""

import keras

from gcnn_match.layers.multi_width_conv_pooling import MultiWidthConvPooling
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


@register("multichannel_cnn")
def build_multichannel_cnn(
    inputs,
    filters=100,
    kernel_sizes=(3, 4, 5),
    dropout=0.5,
    max_norm=3.0,
    multichannel=True,
    name=None,
):
    """Kim's CNN-multichannel (see the module docstring).

    Args:
        inputs: `ModelInputs`.
        filters: feature maps per width (100).
        kernel_sizes: filter widths ((3, 4, 5)).
        dropout: rate of the dropout on the pooled features (0.5).
        max_norm: the l2 constraint s on each class's weight vector (3); None: none.
        multichannel: a static channel beside the fine-tuned one; False is Kim's
            CNN-non-static.
        name: model name.
    """
    features = pair_inputs(inputs)
    _, mask = masks(features)
    ids = features["b_ids"]
    channels = [word_embedding(inputs)(ids)]
    if multichannel:
        static = word_embedding(inputs, name="static_embedding")
        static.trainable = False
        channels.insert(0, static(ids))
    x = channels[0] if len(channels) == 1 else keras.layers.Concatenate(name="channels")(channels)
    pooled = MultiWidthConvPooling(filters, kernel_sizes, name="convolutions")(x, mask=mask)
    pooled = keras.layers.Dropout(dropout, name="dropout")(pooled)
    constraint = keras.constraints.MaxNorm(max_norm, axis=0) if max_norm else None
    logits = keras.layers.Dense(inputs.num_classes, kernel_constraint=constraint, name="logits")(
        pooled
    )
    return keras.Model(features, logits, name=name or "multichannel_cnn")
