"""ATTCONV (Yin & Schütze, TACL 2018) and the CNN baselines of its Tables 5 and 7.

Every model reads the pipeline's pair: "a" is the premise, the context t_y, and "b" the
hypothesis, the text t_x being modelled (docs/attconv.md#roles). The paper's three scenarios are
options of the same "attconv" model: single context (SciTail, SNLI; FEVER context-conc, whose
context is the concatenated evidence), intra-context (Yelp, `intra_context=True`: t_y = t_x)
and multiple contexts (FEVER context-wise, `context_wise=True`). The paper's set-up (§4.1):
fine-tuned word embedding -> attentive convolution over t_x with context t_y -> max-pooling
-> logistic regression on t_x's vector. Models output logits.

Registered builders:
- "attconv": `variant` "light" (Eq. 1-6), "advanced" (Eq. 7-13), "no_conv" (the
  "w/o convolution" row: h_i + c_i through 4 position-wise tanh layers, as many weights as
  light) or "no_context" (the "w/o context" row: a width-3 CNN over the hypothesis only).
- "bicnn": the Siamese CNN without attention ("Bi-CNN").
- "apcnn": the same CNN with attentive pooling (dos Santos et al. 2016), the comparison
  the paper is about.
- "attconv_code_light": the authors' released light configuration, which the paper does not
  describe (their SciTail and SNLI "light" scripts; docs/attconv.md#authors-light-configuration).

With d = e = 300 the encoder weights (no embeddings, biases or classifier) are Table 7's
numbers: Bi-CNN and no_context 270,000, light, no_conv and APCNN 360,000. Advanced has
1,170,000 (13 d^2; 1,350,000 with a separate f_bene) where the paper reports 900K (see
`AdvancedAttentiveConv`).
"""

import keras

from gcnn_match.data.features import TokenFeatures
from gcnn_match.layers.advanced_attentive_conv import AdvancedAttentiveConv
from gcnn_match.layers.attentive_context import AttentiveContext
from gcnn_match.layers.attentive_conv import AttentiveConv
from gcnn_match.layers.attentive_pooling import AttentivePooling
from gcnn_match.layers.batch_column_normalization import BatchColumnNormalization
from gcnn_match.layers.batch_statistics_normalization import BatchStatisticsNormalization
from gcnn_match.layers.gated_conv_unit import GatedConvUnit
from gcnn_match.layers.initializers import fresh_initializer
from gcnn_match.layers.masking import apply_mask, masked_max
from gcnn_match.layers.max_mean_pooling import MaxMeanPooling
from gcnn_match.models.common import masks, pair_inputs, word_embedding
from gcnn_match.models.registry import register

VARIANTS = ("light", "advanced", "no_conv", "no_context")
# The layer of each variant that computes the attention weights (for figures).
ATTENTION_LAYER = "attention"
# The authors' code draws every conv and classifier weight from U(-0.01, 0.01).
CODE_UNIFORM = {"class_name": "RandomUniform", "config": {"minval": -0.01, "maxval": 0.01}}


def pair_features(premise, hypothesis, kind, name):
    """The classifier input built from both pooled texts.

    Args:
        premise, hypothesis: the pooled vectors l and r (B, d).
        kind: "code": [l; r; l + r; l * r] as in the authors' code; "product":
            [l; r; l * r], the spec's suggested default for the Bi-CNN baseline.
        name: name of the concatenation (and prefix of its parts' layers).
    """
    product = keras.layers.Multiply(name=f"{name}_product")([premise, hypothesis])
    if kind == "product":
        parts = [premise, hypothesis, product]
    elif kind == "code":
        total = keras.layers.Add(name=f"{name}_sum")([premise, hypothesis])
        parts = [premise, hypothesis, total, product]
    else:
        raise ValueError(f"pair classifier must be 'product' or 'code', got {kind!r}")
    return keras.layers.Concatenate(name=name)(parts)


def logistic_regression(features, inputs, code_faithful, kernel_initializer="glorot_uniform"):
    """The logistic regression of §4.1 on `features`: logits (B, num_classes).

    Args:
        features: the classifier input (B, f).
        inputs: `ModelInputs` (its `num_classes`).
        code_faithful: normalise the columns of `features` over the batch first, as the
            authors' code (`BatchColumnNormalization`).
        kernel_initializer: of the logits layer.
    """
    if code_faithful:
        features = BatchColumnNormalization(name="batch_column_normalization")(features)
    return keras.layers.Dense(
        inputs.num_classes, kernel_initializer=kernel_initializer, name="logits"
    )(features)


def cnn(hidden, kernel_size, kernel_initializer, name="cnn"):
    """The plain width-k convolution of the no-attention baselines: tanh(W1 window + b).

    Args:
        hidden: d, the feature maps.
        kernel_size: the filter width k ("same" padding).
        kernel_initializer: of the kernel.
        name: the convolution layer's name.

    Returns:
        A function `(x, mask) -> (B, L, d)` that zeroes padded positions before and after
        the convolution; every call shares one convolution.
    """
    conv = keras.layers.Conv1D(
        hidden,
        kernel_size,
        padding="same",
        activation="tanh",
        kernel_initializer=kernel_initializer,
        name=name,
    )
    return lambda x, mask: apply_mask(conv(apply_mask(x, mask)), mask)


def _attentive_encoder(
    variant,
    hidden,
    kernel_size,
    matching,
    code_faithful,
    share_focus_weights,
    share_beneficiary_weights,
    fc_layers,
    kernel_initializer,
):
    """encode(x, y, mask_x, mask_y) -> (B, L_x, hidden) for the attentive variants."""
    common = dict(
        matching=matching,
        code_faithful=code_faithful,
        return_attention=True,
        kernel_initializer=kernel_initializer,
        name=ATTENTION_LAYER,
    )
    if variant == "light":
        layer = AttentiveConv(hidden, kernel_size=kernel_size, **common)
        return lambda x, y, mx, my: layer([x, y], mask=[mx, my])[0]
    if variant == "advanced":
        layer = AdvancedAttentiveConv(
            hidden,
            kernel_size=kernel_size,
            share_focus_weights=share_focus_weights,
            share_beneficiary_weights=share_beneficiary_weights,
            **common,
        )
        return lambda x, y, mx, my: layer([x, y], mask=[mx, my])[0]
    # "no_conv": z_i = h_i + c_i, then a position-wise tanh stack in place of Eq. 5.
    attention = AttentiveContext(**common)
    dense = [
        keras.layers.Dense(
            hidden,
            activation="tanh",
            name=f"position_wise_{i}",
            kernel_initializer=fresh_initializer(kernel_initializer, i),
        )
        for i in range(fc_layers)
    ]

    def encode(x, y, mask_x, mask_y):
        context = attention([x, y], mask=[mask_x, mask_y])[0]
        z = keras.layers.Add()([apply_mask(x, mask_x), context])
        for layer in dense:
            z = layer(z)
        return apply_mask(z, mask_x)

    return encode


def _context_wise(encode, pool, x, y, mask_x, mask_y, segments, max_contexts):
    """FEVER's context-wise usage (§4.4): t_x's pooled vector with each context sentence k
    alone as t_y, then the element-wise max over the sentences.

    Sentence k is the focus masked to the tokens of segment k, so attention and every
    convolution over the focus see that sentence only, as if it were the one context. A claim
    without any context text keeps one all-padding context (its attentive context is 0),
    [U→S] docs/attconv.md#open-choices.
    """
    vectors, present = [], []
    for k in range(1, max_contexts + 1):
        in_sentence = keras.ops.cast(keras.ops.equal(segments, k), mask_y.dtype)
        mask_k = mask_y * in_sentence
        vectors.append(keras.ops.expand_dims(pool(encode(x, y, mask_x, mask_k), mask=mask_x), 1))
        present.append(keras.ops.max(mask_k, axis=1, keepdims=True))
    present[0] = keras.ops.ones_like(present[0])
    return masked_max(
        keras.ops.concatenate(vectors, axis=1), keras.ops.concatenate(present, axis=1), axis=1
    )


def _consumed_features(context_wise, **_):
    return TokenFeatures(segments=context_wise)  # reads each context sentence on its own


def _check_options(inputs, variant, classifier, intra_context, context_wise):
    """A ValueError naming the option to change when `build_attconv`'s options disagree."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    if classifier not in ("paper", "code"):
        raise ValueError(f"classifier must be 'paper' or 'code', got {classifier!r}")
    if variant == "no_context" and classifier == "code":
        raise ValueError("no_context models the hypothesis alone; use classifier='paper'")
    if (intra_context or context_wise) and (variant == "no_context" or classifier == "code"):
        raise ValueError(
            "intra_context and context_wise need an attentive variant with "
            "classifier='paper' (the paper's t_x-only classifier)"
        )
    if context_wise and not inputs.segments:
        raise ValueError(
            "context_wise reads the sentences of 'a' separately: the inputs need "
            "'a_segments' (ModelInputs.segments; a FEVER contexts split)"
        )


@register("attconv", features=_consumed_features)
def build_attconv(
    inputs,
    variant="light",
    hidden=300,
    kernel_size=3,
    matching="dot",
    classifier="paper",
    code_faithful=False,
    share_focus_weights=True,
    share_beneficiary_weights=True,
    fc_layers=4,
    intra_context=False,
    context_wise=False,
    max_contexts=5,
    kernel_initializer="glorot_uniform",
    name=None,
):
    """ATTCONV of §3 with the paper's single-layer set-up (see the module docstring).

    Args:
        inputs: `ModelInputs`.
        variant: "light", "advanced", "no_conv" or "no_context".
        hidden: hidden size d (300).
        kernel_size: filter width (3).
        matching: "dot" (Eq. 1; the default, docs/attconv.md#open-choices), "bilinear" or
        "additive".
        classifier: "paper": logistic regression on t_x's max-pooled vector (§4.1);
            "code": the authors' code, t_x attending to t_y AND t_y attending to t_x with the
            same weights, LR on [l; r; l + r; l * r] (docs/attconv.md#code-faithful-mode, the code's
            symmetric head; select it with `--model_kwargs=classifier=code`).
        code_faithful: the authors' code's attention (softmax over padding with score 0),
            unmasked convolution input and batch-column L2 normalisation before the LR
            (docs/attconv.md#code-faithful-mode). Predictions then depend on the batch's padding and
            other examples. Default: proper masking.
        share_focus_weights: advanced, [U→S] True: one f_mgran for source and focus.
        share_beneficiary_weights: advanced, True: f_bene is f_mgran's width-1 branch (Eq. 13
            writes Eq. 10's f_gconv(h^x_i)); False: f_bene has its own weights
            (docs/attconv.md#open-choices).
        fc_layers: no_conv's position-wise layers (4, "the same size as light").
        intra_context: t_y = t_x (§3.3, §4.2, Yelp): the text attends to itself; "a" is not
            read.
        context_wise: "a" is several context sentences ("a_segments", FEVER evidence); t_x is
            pooled against each one alone and the vectors are max-pooled (§4.4). Without it a
            multi-sentence "a" is one concatenated context (context-conc).
        max_contexts: context-wise: sentences read (segments 1..max_contexts; the data must
            not hold more: the FEVER reader's `max_sentences`).
        kernel_initializer: of every kernel. The paper does not state it ([U→S] Glorot);
            the authors' code uses U(-0.01, 0.01), i.e. {"class_name": "RandomUniform",
            "config": {"minval": -0.01, "maxval": 0.01}}.
        name: model name.
    """
    _check_options(inputs, variant, classifier, intra_context, context_wise)
    kernel_initializer = keras.initializers.get(kernel_initializer)
    features = pair_inputs(inputs)
    mask_y, mask_x = masks(features)
    embed = word_embedding(inputs)
    x = embed(features["b_ids"])
    y = x if intra_context else embed(features["a_ids"])
    mask_y = mask_x if intra_context else mask_y
    pool = MaxMeanPooling(order=("max",), name="max_pooling")

    if variant == "no_context":
        encode_x = cnn(hidden, kernel_size, kernel_initializer)
        vector = pool(encode_x(x, mask_x), mask=mask_x)
    else:
        encode = _attentive_encoder(
            variant,
            hidden,
            kernel_size,
            matching,
            code_faithful,
            share_focus_weights,
            share_beneficiary_weights,
            fc_layers,
            kernel_initializer,
        )
        if context_wise:
            vector = _context_wise(
                encode, pool, x, y, mask_x, mask_y, features["a_segments"], max_contexts
            )
        else:
            vector = pool(encode(x, y, mask_x, mask_y), mask=mask_x)
        if classifier == "code":
            premise = pool(encode(y, x, mask_y, mask_x), mask=mask_y)
            vector = pair_features(premise, vector, "code", name="pair_features")
    logits = logistic_regression(vector, inputs, code_faithful)
    return keras.Model(features, logits, name=name or f"attconv_{variant}")


@register("bicnn")
def build_bicnn(
    inputs,
    hidden=300,
    kernel_size=3,
    classifier="product",
    kernel_initializer="glorot_uniform",
    name=None,
):
    """Bi-CNN: one shared width-3 tanh CNN over each text, max-pooling, LR on both vectors.

    `classifier` [U→S] "product" ([l; r; l * r]) or "code" ([l; r; l + r; l * r]);
    docs/attconv.md#baselines. The CNN has Table 7's 270K weights (+ d biases) at d = e = 300.
    """
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    encode = cnn(hidden, kernel_size, keras.initializers.get(kernel_initializer))
    pool = MaxMeanPooling(order=("max",), name="max_pooling")
    premise = pool(encode(embed(features["a_ids"]), mask_a), mask=mask_a)
    hypothesis = pool(encode(embed(features["b_ids"]), mask_b), mask=mask_b)
    vector = pair_features(premise, hypothesis, classifier, name="pair_features")
    return keras.Model(features, logistic_regression(vector, inputs, False), name=name or "bicnn")


@register("apcnn")
def build_apcnn(
    inputs,
    hidden=300,
    kernel_size=3,
    classifier="product",
    kernel_initializer="glorot_uniform",
    name=None,
):
    """APCNN: the Bi-CNN's shared CNN, then attentive pooling (dos Santos et al. 2016).

    Attention only re-weights the pooling (G = tanh(Q U A^T), max over rows / columns,
    softmax); the convolution is ATTCONV-free. 270K + 90K = Table 7's 360K at d = 300.
    `classifier` as in "bicnn" (dos Santos et al. rank with a cosine; here the pair is
    classified, [U→S]).
    """
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    encode = cnn(hidden, kernel_size, keras.initializers.get(kernel_initializer))
    hypothesis, premise = AttentivePooling(
        kernel_initializer=fresh_initializer(kernel_initializer, 1), name=ATTENTION_LAYER
    )(
        [encode(embed(features["b_ids"]), mask_b), encode(embed(features["a_ids"]), mask_a)],
        mask=[mask_b, mask_a],
    )
    vector = pair_features(premise, hypothesis, classifier, name="pair_features")
    return keras.Model(features, logistic_regression(vector, inputs, False), name=name or "apcnn")


@register("attconv_code_light")
def build_attconv_code_light(
    inputs,
    hidden=300,
    kernel_sizes=(3, 1),
    code_faithful=True,
    kernel_initializer=CODE_UNIFORM,
    name=None,
):
    """ATTCONV as the authors' released SciTail and SNLI "light" scripts configure it.

    Not the paper's light (§3.1); docs/attconv.md#authors-light-configuration:

    ```
    g_a, g_b   = f_gconv(H^a), f_gconv(H^b)     one width-1 gated conv (Eq. 7-9), both texts
    for k in kernel_sizes (3 and 1), with one AttentiveConv of width k per k:
      l_k = max_i AttentiveConv_k(beneficiary H^a, focus g_b, source g_a)   premise attends
      r_k = max_i AttentiveConv_k(beneficiary H^b, focus g_a, source g_b)   hypothesis attends
    p      = [BN(l_k); BN(r_k); BN(l_k) + BN(r_k); BN(l_k) * BN(r_k)] over k   (8 d)
    logits = U colnorm([p; BN(tanh(W p + b))]) + u                               (8 d + d)
    ```

    BN normalises with the current batch's mean and standard deviation, at test time too
    (`BatchStatisticsNormalization`; one gamma and beta for all four sentence vectors, another
    for the hidden layer), and colnorm divides each feature by its L2 norm over the batch
    (`BatchColumnNormalization`): a prediction depends on the other examples of its batch.
    Conv, gate and classifier weights start U(-0.01, 0.01), the hidden layer Glorot, biases
    zero (as the scripts).

    Args:
        inputs: `ModelInputs`.
        hidden: d, the width of every attentive convolution and of the hidden layer (300).
        kernel_sizes: the attentive convolutions' widths ([3, 1] in the scripts).
        code_faithful: the scripts' masking (`AttentiveConv`: the attention softmax keeps
            padded focus positions with score 0, the beneficiary convolution reads the
            padding), so predictions depend on padding too; False masks properly.
        kernel_initializer: of the gate, the attentive convolutions and the classifier.
        name: model name.
    """
    kernel_initializer = keras.initializers.get(kernel_initializer)
    features = pair_inputs(inputs)
    mask_a, mask_b = masks(features)
    embed = word_embedding(inputs)
    x_a, x_b = embed(features["a_ids"]), embed(features["b_ids"])
    gate = GatedConvUnit(
        x_a.shape[-1],
        kernel_size=1,
        kernel_initializer=fresh_initializer(kernel_initializer, 0),
        name="gated_source",
    )
    g_a, g_b = gate(x_a, mask=mask_a), gate(x_b, mask=mask_b)
    pool = MaxMeanPooling(order=("max",), name="max_pooling")
    batch_norm = BatchStatisticsNormalization(name="batch_norm")
    pairs = []
    for index, width in enumerate(kernel_sizes):
        conv = AttentiveConv(
            hidden,
            kernel_size=width,
            code_faithful=code_faithful,
            kernel_initializer=fresh_initializer(kernel_initializer, 10 * (index + 1)),
            name=f"attentive_conv_width{width}",
        )
        premise = pool(conv([x_a, g_b], mask=[mask_a, mask_b], source=g_a), mask=mask_a)
        hypothesis = pool(conv([x_b, g_a], mask=[mask_b, mask_a], source=g_b), mask=mask_b)
        pairs.append(
            pair_features(
                batch_norm(premise), batch_norm(hypothesis), "code", f"pair_features_width{width}"
            )
        )
    pair = keras.layers.Concatenate(name="pair_features")(pairs)
    hidden_layer = keras.layers.Dense(hidden, activation="tanh", name="hidden")(pair)
    normalized = BatchStatisticsNormalization(name="hidden_batch_norm")(hidden_layer)
    classifier_input = keras.layers.Concatenate(name="classifier_input")([pair, normalized])
    logits = logistic_regression(
        classifier_input, inputs, True, fresh_initializer(kernel_initializer, 100)
    )
    return keras.Model(features, logits, name=name or "attconv_code_light")


def attention_model(model):
    """A model from the same inputs to what the paper's Figure 6(a) shows for t_x.

    Works for the attentive "attconv" variants: it re-uses `model`'s embedding and its
    "attention" layer (built with `return_attention=True`), so the weights are the trained
    ones. Outputs a dict:
    - "attention" (B, L_b, L_a): row i is softmax_j(e_ij) of hypothesis token i over the
      premise tokens (Eq. 1 after the softmax; Figure 6(a), right);
    - "features" (B, L_b, hidden), light and advanced only: h^x_i,new of Eq. 5, the
      attentive convolution's output before max-pooling (Figure 6(a), left).
    """
    layer = model.get_layer(ATTENTION_LAYER)
    if isinstance(layer, AttentivePooling):
        raise ValueError("APCNN pools with attention vectors, not a token-by-token matrix")
    features = model.input
    mask_y, mask_x = masks(features)
    embed = model.get_layer("word_embedding")
    first, weights = layer(
        [embed(features["b_ids"]), embed(features["a_ids"])], mask=[mask_x, mask_y]
    )
    outputs = {"attention": weights}
    if isinstance(layer, (AttentiveConv, AdvancedAttentiveConv)):
        outputs["features"] = first  # the no_conv variant's first output is the context c_i
    return keras.Model(features, outputs, name=f"{model.name}_attention")
