"""The four papers' models under their paper names: `GCNN`, `ATTCONV`, `LCLSTMs`, `TCLSTMs`
and `COIN`.

Each builder takes the data's facts (the vocabulary size or a pretrained embedding matrix, the
number of classes) and returns the uncompiled `keras.Model` of the registered builder it
names (`gcnn_match.models.registry.build_model`). Other keyword arguments go to that builder,
whose defaults are the paper's; a builder here sets an argument itself only where the paper's
registered rows (`gcnn_match/experiments/*_rows.py`) differ from that default.

Every model reads a dict of int32 word ids, "a_ids" (B, L_a) and "b_ids" (B, L_b), right-padded
with id 0, of any lengths (the papers' cut-offs belong to the preprocessing), and returns
logits (B, num_classes):

>>> import numpy as np
>>> model = ATTCONV(vocabulary_size=50, num_classes=3, embedding_dim=8, hidden=8)
>>> premise = np.array([[4, 5, 6, 7, 0]], "int32")  # id 0: padding
>>> hypothesis = np.array([[4, 9, 0]], "int32")
>>> tuple(model({"a_ids": premise, "b_ids": hypothesis}).shape)
(1, 3)
"""

import inspect
import re
import textwrap

from gcnn_match.data.pos import NUM_POS_TAGS
from gcnn_match.models.registry import ModelInputs, build_model

# The word inputs every builder takes, with the Args text of each; `{embedding_dim}` is the
# builder's default width.
_WORD_ARGS = {
    "vocabulary_size": "word ids 0..vocabulary_size - 1, 0 the padding; None: the rows of "
    "`embedding_matrix`.",
    "num_classes": "output classes.",
    "embedding_matrix": "pretrained word vectors (vocabulary_size, dim), fine-tuned from there; "
    "None: random vectors of width `embedding_dim`.",
    "embedding_dim": "width of random vectors ({embedding_dim}, the registered rows').",
    "embeddings_trainable": "fine-tune the word vectors (the registered rows do).",
}


def _model_inputs(
    vocabulary_size, num_classes, embedding_matrix, embedding_dim, embeddings_trainable, **fields
):
    """The `ModelInputs` of a builder's word arguments; `fields` are its other fields. An
    `embeddings_trainable` of None trains random vectors and keeps pretrained ones fixed."""
    if embedding_matrix is not None:
        rows = len(embedding_matrix)
        if vocabulary_size not in (None, rows):
            raise ValueError(
                f"vocabulary_size {vocabulary_size} differs from the {rows} rows of "
                "embedding_matrix"
            )
        vocabulary_size = rows
    if vocabulary_size is None:
        raise ValueError("give vocabulary_size or embedding_matrix")
    if embeddings_trainable is None:
        embeddings_trainable = embedding_matrix is None
    return ModelInputs(
        vocab_size=vocabulary_size,
        num_classes=num_classes,
        embedding_matrix=embedding_matrix,
        embedding_dim=embedding_dim,
        embeddings_trainable=embeddings_trainable,
        **fields,
    )


def _signature(embedding_dim, embeddings_trainable, keywords):
    """`(vocabulary_size=None, *, num_classes, <word keywords>, <keywords>, **kwargs)`."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    defaults = dict(
        embedding_matrix=None,
        embedding_dim=embedding_dim,
        embeddings_trainable=embeddings_trainable,
        **keywords,
    )
    return inspect.Signature(
        [
            inspect.Parameter(
                "vocabulary_size", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None
            ),
            inspect.Parameter("num_classes", keyword),
            *(inspect.Parameter(name, keyword, default=value) for name, value in defaults.items()),
            inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
        ]
    )


def _docstring(doc, embedding_dim, word_args):
    """`doc` with its `{word_args}` line replaced by the Args of the word inputs (`word_args`
    where given, else `_WORD_ARGS`), indented as that line is."""
    indent = re.search(r"^( *)\{word_args\}$", doc, re.M).group(1)
    lines = []
    for name, text in {**_WORD_ARGS, **word_args}.items():
        text = f"{name}: " + text.format(embedding_dim=embedding_dim)
        lines.append(textwrap.fill(text, 92 - len(indent), subsequent_indent="    "))
    return doc.replace("{word_args}", textwrap.indent("\n".join(lines), indent).lstrip())


def paper_builder(
    name,
    registered,
    doc,
    *,
    embedding_dim=300,
    embeddings_trainable=True,
    keywords=None,
    fixed=None,
    prepare=None,
    word_args=None,
    module=__name__,
):
    """A builder under a paper's name: a function of the word inputs, `keywords` and the
    further arguments of the registered builder, which returns that builder's model.

    Args:
        name: the builder's name, e.g. "LCLSTMs".
        registered: the name of the registered builder it calls, e.g. "clstm".
        doc: its docstring: the model, its paper and reference, its Args and an Example; a
            line `{word_args}` in Args stands for the Args of the word inputs.
        embedding_dim: the default width of random vectors.
        embeddings_trainable: the default of `embeddings_trainable` (None: random vectors
            train, pretrained ones stay fixed).
        keywords: the builder's own keyword arguments and their defaults, in order.
        fixed: arguments of the registered builder that this builder always sets.
        prepare: None, or a function of the `keywords` that returns the further `ModelInputs`
            fields and the registered builder's arguments they stand for; without it the
            keywords go to the registered builder as they are.
        word_args: the Args text of a word input where the model's differs from the shared
            one, by name.
        module: the name of the module the builder belongs to.
    """
    signature = _signature(embedding_dim, embeddings_trainable, keywords or {})

    def builder(*args, **kwargs):
        arguments = signature.bind(*args, **kwargs)
        arguments.apply_defaults()
        values = dict(arguments.arguments)
        further = values.pop("kwargs")
        words = {key: values.pop(key) for key in _WORD_ARGS}
        fields, own = prepare(**values) if prepare else ({}, values)
        inputs = _model_inputs(**words, **fields)
        return build_model(registered, inputs, **(fixed or {}), **own, **further)

    builder.__name__ = builder.__qualname__ = name
    builder.__module__ = module
    builder.__doc__ = _docstring(inspect.cleandoc(doc), embedding_dim, word_args or {})
    builder.__signature__ = signature
    return builder


def _gcnn_features(char_vocabulary_size, max_chars, pos_tags):
    """GCNN's character and POS inputs, and the builder arguments that turn them on."""
    fields = dict(
        char_vocab_size=char_vocabulary_size,
        max_chars=max_chars,
        pos_vocab_size=NUM_POS_TAGS + 1 if pos_tags else None,
    )
    return fields, dict(char_features=char_vocabulary_size is not None, pos_features=pos_tags)


GCNN = paper_builder(
    "GCNN",
    "compare_aggregate",
    """The gated-CNN compare-aggregate model (registered as "compare_aggregate"); its gated
    convolution is the layer `gcnn_match.layers.GCNN`.

    Reference: Chen, Wang, Wang and Yuan, "Gated Convolutional Neural Network for Sentence
    Matching", Interspeech 2018 (§2.2; the rows of Tables 1-2).

    Args:
        {word_args}
        char_vocabulary_size: set to add the character-composition vector of each word
            (row "GCNN (char)"): the model then also reads "a_chars"/"b_chars" (B, L,
            `max_chars`), character ids 1..char_vocabulary_size - 1.
        max_chars: characters per word of "a_chars"/"b_chars".
        pos_tags: add the one-hot POS tag of each word (row "GCNN (char+POS)"): the model also
            reads "a_pos"/"b_pos", tag ids of `gcnn_match.data.pos.pos_ids`.
        **kwargs: the other arguments of `gcnn_match.models.gcnn.build_compare_aggregate`:
            `variant` ("gcnn"; "glu", "cnn", "gcnn_no_forget", "gcnn_no_output" are the
            tables' other rows), `hidden`, `context_layers`, `aggregation_layers`,
            `kernel_size`, `mlp_hidden`, the dropout rates.

    Example:

    >>> model = GCNN(vocabulary_size=50, num_classes=2, embedding_dim=8, hidden=8, mlp_hidden=8)
    >>> model.output.shape
    (None, 2)
    """,
    keywords=dict(char_vocabulary_size=None, max_chars=16, pos_tags=False),
    prepare=_gcnn_features,
)


def _attconv_contexts(variant, context_wise):
    """ATTCONV's sentence numbers of "a" when it reads several contexts."""
    return dict(segments=context_wise), dict(variant=variant, context_wise=context_wise)


ATTCONV = paper_builder(
    "ATTCONV",
    "attconv",
    """ATTCONV, the attentive convolution over text "b" with context "a" ("attconv").

    Reference: Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
    Mechanisms", TACL 2018 (§3; rows "ATTCONV-light" and "ATTCONV-advanced" of Tables 3, 5, 7
    and 9).

    Args:
        {word_args}
        variant: "light" (Eq. 1-6) or "advanced" (Eq. 7-13); "no_conv" and "no_context" are
            the rows "w/o convolution" and "w/o context".
        context_wise: "a" holds several context sentences (FEVER's evidence), read one at a
            time (§4.4): the model also reads "a_segments" (B, L_a), the sentence number
            1..`max_contexts` of each token of "a", 0 at padding.
        **kwargs: the other arguments of `gcnn_match.models.attconv.build_attconv`: `hidden`,
            `kernel_size`, `matching`, `intra_context` (the text attends to itself, Yelp),
            `max_contexts`.

    Example:

    >>> model = ATTCONV(vocabulary_size=50, num_classes=3, embedding_dim=8, variant="advanced",
    ...                 hidden=8)
    >>> model.output.shape
    (None, 3)
    """,
    keywords=dict(variant="light", context_wise=False),
    prepare=_attconv_contexts,
)

_CLSTMS_DOC = """
    The {coupling} coupled LSTMs over the two sentences' grid ("clstm", `cell="{cell}"`).

    Reference: Liu, Qiu, Chen and Huang, "Modelling Interaction of Sentence Pair with
    Coupled-LSTMs", EMNLP 2016 ({sections}, §4; row "{row}" of Table 2).

    Args:
        {{word_args}}
        l2: L2 coefficient on every non-embedding kernel (Table 1: 1e-5 for RTE; 5e-5 for
            MQA, with `pool_size=(2, 1)` and `head="score"`).
        **kwargs: the other arguments of `gcnn_match.models.clstm.build_clstm`: `num_layers`
            (1; 4 for "four stacked {row}"), `directions` (4; 1 for "(Single
            Direction)"), `units`, `pool_size`, `head`, the weight sharing.

    Example:

    >>> model = {name}(vocabulary_size=50, num_classes=3, embedding_dim=8, units=4)
    >>> model.output.shape
    (None, 3)
    """


def _clstms(name, cell, coupling, sections):
    """The builder of the C-LSTMs paper's model with `cell` ("loose" or "tight")."""
    doc = _CLSTMS_DOC.format(
        name=name, cell=cell, coupling=coupling, sections=sections, row=f"{name[:2]}-LSTMs"
    )
    return paper_builder(
        name, "clstm", doc, embedding_dim=100, keywords=dict(l2=1e-5), fixed=dict(cell=cell)
    )


LCLSTMs = _clstms("LCLSTMs", "loose", "loosely", "§3.3")
TCLSTMs = _clstms("TCLSTMs", "tight", "tightly", "§3.2")

COIN = paper_builder(
    "COIN",
    "coin",
    """COIN, the context-aware interaction network ("coin").

    Reference: Hu, Fu, Yin and de Melo, "Context-Aware Interaction Network for Question
    Matching", EMNLP 2021 (§2; row "COIN (ours)" of Tables 1-2).

    Args:
        {word_args}
        **kwargs: the other arguments of `gcnn_match.models.coin.build_coin`: `d`, `n_h`,
            `blocks` (3, Quora; 2 for LCQMC), `dropout`, `l2`, and the Table 3 ablations
            `use_context`, `fusion`, `aggregation`, `pooling`.

    Example:

    >>> model = COIN(vocabulary_size=50, num_classes=2, embedding_dim=8, d=8, n_h=2, blocks=1)
    >>> model.output.shape
    (None, 2)
    """,
    embeddings_trainable=None,
    word_args=dict(
        embedding_matrix="pretrained word vectors (vocabulary_size, dim); None: random vectors "
        "of width `embedding_dim`.",
        embedding_dim="width of random vectors (300; the paper's LCQMC characters: 200).",
        embeddings_trainable="train the vectors; None: the paper's choice, pretrained vectors "
        "fixed (Quora's GloVe), random ones trained (LCQMC's characters).",
    ),
)
