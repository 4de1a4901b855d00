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

from gcnn_match.data.pos import NUM_POS_TAGS
from gcnn_match.models.registry import ModelInputs, build_model


def _model_inputs(
    vocabulary_size, num_classes, embedding_matrix, embedding_dim, embeddings_trainable, **fields
):
    """The `ModelInputs` of a builder's natural arguments; `fields` are its other fields."""
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
    return ModelInputs(
        vocab_size=vocabulary_size,
        num_classes=num_classes,
        embedding_matrix=embedding_matrix,
        embedding_dim=embedding_dim,
        embeddings_trainable=embeddings_trainable,
        **fields,
    )


def _registered_model(
    name, vocabulary_size, num_classes, embedding_matrix, embedding_dim, trainable, **kwargs
):
    """The model registered as `name` for the word inputs; `kwargs` go to its builder."""
    inputs = _model_inputs(vocabulary_size, num_classes, embedding_matrix, embedding_dim, trainable)
    return build_model(name, inputs, **kwargs)


def GCNN(
    vocabulary_size=None,
    *,
    num_classes,
    embedding_matrix=None,
    embedding_dim=300,
    embeddings_trainable=True,
    char_vocabulary_size=None,
    max_chars=16,
    pos_tags=False,
    **kwargs,
):
    """The gated-CNN compare-aggregate model (registered as "compare_aggregate"); its gated
    convolution is the layer `gcnn_match.layers.GCNN`.

    Reference: Chen, Wang, Wang and Yuan, "Gated Convolutional Neural Network for Sentence
    Matching", Interspeech 2018 (§2.2; the rows of Tables 1-2).

    Args:
        vocabulary_size: word ids 0..vocabulary_size - 1, 0 the padding; None: the rows of
            `embedding_matrix`.
        num_classes: output classes.
        embedding_matrix: pretrained word vectors (vocabulary_size, dim), fine-tuned from
            there; None: random vectors of width `embedding_dim`.
        embedding_dim: width of random vectors (300, the paper's).
        embeddings_trainable: fine-tune the word vectors (the paper does).
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
    """
    inputs = _model_inputs(
        vocabulary_size,
        num_classes,
        embedding_matrix,
        embedding_dim,
        embeddings_trainable,
        char_vocab_size=char_vocabulary_size,
        max_chars=max_chars,
        pos_vocab_size=NUM_POS_TAGS + 1 if pos_tags else None,
    )
    return build_model(
        "compare_aggregate",
        inputs,
        char_features=char_vocabulary_size is not None,
        pos_features=pos_tags,
        **kwargs,
    )


def ATTCONV(
    vocabulary_size=None,
    *,
    num_classes,
    embedding_matrix=None,
    embedding_dim=300,
    embeddings_trainable=True,
    variant="light",
    context_wise=False,
    **kwargs,
):
    """ATTCONV, the attentive convolution over text "b" with context "a" ("attconv").

    Reference: Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
    Mechanisms", TACL 2018 (§3; rows "ATTCONV-light" and "ATTCONV-advanced" of Tables 3, 5, 7
    and 9).

    Args:
        vocabulary_size: word ids 0..vocabulary_size - 1, 0 the padding; None: the rows of
            `embedding_matrix`.
        num_classes: output classes.
        embedding_matrix: pretrained word vectors (vocabulary_size, dim), fine-tuned from
            there; None: random vectors of width `embedding_dim`.
        embedding_dim: width of random vectors (300, the paper's).
        embeddings_trainable: fine-tune the word vectors (the paper does).
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
    """
    inputs = _model_inputs(
        vocabulary_size,
        num_classes,
        embedding_matrix,
        embedding_dim,
        embeddings_trainable,
        segments=context_wise,
    )
    return build_model("attconv", inputs, variant=variant, context_wise=context_wise, **kwargs)


def LCLSTMs(
    vocabulary_size=None,
    *,
    num_classes,
    embedding_matrix=None,
    embedding_dim=100,
    embeddings_trainable=True,
    l2=1e-5,
    **kwargs,
):
    """The loosely coupled LSTMs over the two sentences' grid ("clstm", `cell="loose"`).

    Reference: Liu, Qiu, Chen and Huang, "Modelling Interaction of Sentence Pair with
    Coupled-LSTMs", EMNLP 2016 (§3.3, §4; row "LC-LSTMs" of Table 2).

    Args:
        vocabulary_size: word ids 0..vocabulary_size - 1, 0 the padding; None: the rows of
            `embedding_matrix`.
        num_classes: output classes.
        embedding_matrix: pretrained word vectors (vocabulary_size, dim), fine-tuned from
            there; None: random vectors of width `embedding_dim`.
        embedding_dim: width of random vectors (100, the paper's).
        embeddings_trainable: fine-tune the word vectors (the paper does).
        l2: L2 coefficient on every non-embedding kernel (Table 1: 1e-5 for RTE; 5e-5 for
            MQA, with `pool_size=(2, 1)` and `head="score"`).
        **kwargs: the other arguments of `gcnn_match.models.clstm.build_clstm`: `num_layers`
            (1; 4 for "four stacked LC-LSTMs"), `directions` (4; 1 for "(Single
            Direction)"), `units`, `pool_size`, `head`, the weight sharing.

    Example:

    >>> model = LCLSTMs(vocabulary_size=50, num_classes=3, embedding_dim=8, units=4)
    >>> model.output.shape
    (None, 3)
    """
    return _registered_model(
        "clstm",
        vocabulary_size,
        num_classes,
        embedding_matrix,
        embedding_dim,
        embeddings_trainable,
        cell="loose",
        l2=l2,
        **kwargs,
    )


def TCLSTMs(
    vocabulary_size=None,
    *,
    num_classes,
    embedding_matrix=None,
    embedding_dim=100,
    embeddings_trainable=True,
    l2=1e-5,
    **kwargs,
):
    """The tightly coupled LSTMs over the two sentences' grid ("clstm", `cell="tight"`).

    Reference: Liu, Qiu, Chen and Huang, "Modelling Interaction of Sentence Pair with
    Coupled-LSTMs", EMNLP 2016 (§3.2, §4; row "TC-LSTMs" of Table 2).

    Args:
        vocabulary_size: word ids 0..vocabulary_size - 1, 0 the padding; None: the rows of
            `embedding_matrix`.
        num_classes: output classes.
        embedding_matrix: pretrained word vectors (vocabulary_size, dim), fine-tuned from
            there; None: random vectors of width `embedding_dim`.
        embedding_dim: width of random vectors (100, the paper's).
        embeddings_trainable: fine-tune the word vectors (the paper does).
        l2: L2 coefficient on every non-embedding kernel (Table 1: 1e-5 for RTE; 5e-5 for
            MQA, with `pool_size=(2, 1)` and `head="score"`).
        **kwargs: the other arguments of `gcnn_match.models.clstm.build_clstm`: `num_layers`
            (1; 4 for "four stacked TC-LSTMs"), `directions` (4; 1 for "(Single
            Direction)"), `units`, `pool_size`, `head`, the weight sharing.

    Example:

    >>> model = TCLSTMs(vocabulary_size=50, num_classes=3, embedding_dim=8, units=4)
    >>> model.output.shape
    (None, 3)
    """
    return _registered_model(
        "clstm",
        vocabulary_size,
        num_classes,
        embedding_matrix,
        embedding_dim,
        embeddings_trainable,
        cell="tight",
        l2=l2,
        **kwargs,
    )


def COIN(
    vocabulary_size=None,
    *,
    num_classes,
    embedding_matrix=None,
    embedding_dim=300,
    embeddings_trainable=None,
    **kwargs,
):
    """COIN, the context-aware interaction network ("coin").

    Reference: Hu, Fu, Yin and de Melo, "Context-Aware Interaction Network for Question
    Matching", EMNLP 2021 (§2; row "COIN (ours)" of Tables 1-2).

    Args:
        vocabulary_size: word ids 0..vocabulary_size - 1, 0 the padding; None: the rows of
            `embedding_matrix`.
        num_classes: output classes.
        embedding_matrix: pretrained word vectors (vocabulary_size, dim); None: random
            vectors of width `embedding_dim`.
        embedding_dim: width of random vectors (300; the paper's LCQMC characters: 200).
        embeddings_trainable: train the vectors; None: the paper's choice, pretrained
            vectors fixed (Quora's GloVe), random ones trained (LCQMC's characters).
        **kwargs: the other arguments of `gcnn_match.models.coin.build_coin`: `d`, `n_h`,
            `blocks` (3, Quora; 2 for LCQMC), `dropout`, `l2`, and the Table 3 ablations
            `use_context`, `fusion`, `aggregation`, `pooling`.

    Example:

    >>> model = COIN(vocabulary_size=50, num_classes=2, embedding_dim=8, d=8, n_h=2, blocks=1)
    >>> model.output.shape
    (None, 2)
    """
    if embeddings_trainable is None:
        embeddings_trainable = embedding_matrix is None
    return _registered_model(
        "coin",
        vocabulary_size,
        num_classes,
        embedding_matrix,
        embedding_dim,
        embeddings_trainable,
        **kwargs,
    )
