"""ABCNN (Yin et al., TACL 2016) as ATTCONV's Tables 3, 5 and 7 compare against it.

ATTCONV groups ABCNN with APCNN as the CNNs "that implement the attention in pooling (i.e.,
the convolution is still not affected)" (§2.2, Figure 3): the Bi-CNN's shared width-3 tanh
convolution over each text, then `ABCNNPooling` (dot-product matching of the two texts'
states, row and column maxima, softmax, weighted sums, as the authors' code's `ABCNN`
function), then the logistic regression on both pooled vectors. Models output logits.

With d = e = 300 its weights by Table 7's convention are the convolution's 270,000; Table 7
prints 834K (a listed mismatch of `gcnn_match/experiments/param_counts.py`;
docs/attconv.md#abcnn).
"""

import keras

from gcnn_match.layers.abcnn_pooling import ABCNNPooling
from gcnn_match.models.attconv import ATTENTION_LAYER, cnn, logistic_regression, pair_features
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register


@register("abcnn")
def build_abcnn(
    inputs,
    hidden=300,
    kernel_size=3,
    classifier="product",
    kernel_initializer="glorot_uniform",
    name=None,
):
    """ABCNN: the Bi-CNN's shared CNN, then attention-based pooling of both texts.

    Args:
        inputs: `ModelInputs`.
        hidden: d, the convolution's feature maps (300).
        kernel_size: filter width (3).
        classifier: the logistic regression's input, as in "bicnn": "product"
            ([r_a; r_b; r_a * r_b]) or "code" ([r_a; r_b; r_a + r_b; r_a * r_b]).
        kernel_initializer: of the convolution's kernel.
        name: model name.
    """
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    encode = cnn(hidden, kernel_size, keras.initializers.get(kernel_initializer))
    hypothesis, premise = ABCNNPooling(name=ATTENTION_LAYER)(
        [encode(embed(features["b_ids"]), mask_b), encode(embed(features["a_ids"]), mask_a)],
        mask=[mask_b, mask_a],
    )
    vector = pair_features(premise, hypothesis, classifier, name="pair_features")
    return keras.Model(features, logistic_regression(vector, inputs, False), name=name or "abcnn")
