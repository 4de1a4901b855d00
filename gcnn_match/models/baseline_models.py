"""The baselines of the papers' tables under their names: `ESIM`, `BiCNN`, `APCNN`, `ABCNN`,
`MultichannelCNN`, `CNNInternalAttention`, `BiLSTM`, `AttentiveLSTM` and `DecompAtt`.

As the builders of `gcnn_match.models.paper_models`: each takes the vocabulary size or a
pretrained embedding matrix and the number of classes, passes its other keyword arguments to
the registered builder it names (whose defaults are the settings of the baseline's rows) and
returns that builder's uncompiled `keras.Model`, which reads "a_ids" and "b_ids" and returns
logits (B, num_classes).

>>> import numpy as np
>>> model = BiCNN(vocabulary_size=50, num_classes=2, embedding_dim=8, hidden=8)
>>> ids = np.array([[4, 5, 6, 0]], "int32")  # id 0: padding
>>> tuple(model({"a_ids": ids, "b_ids": ids[:, :3]}).shape)
(1, 2)
"""

import functools

from gcnn_match.models import paper_models

_builder = functools.partial(paper_models.paper_builder, module=__name__)

ESIM = _builder(
    "ESIM",
    "esim",
    """The sequential enhanced LSTM (ESIM) as GCNN's tables train it ("esim").

    Reference: Chen, Zhu, Ling, Wei, Jiang and Inkpen, "Enhanced LSTM for Natural Language
    Inference", ACL 2017; row "ESIM (our implement)" of GCNN's Tables 1-2 and "Enhanced LSTM"
    of ATTCONV's Tables 5 and 7.

    Args:
        {word_args}
        **kwargs: the other arguments of `gcnn_match.models.esim.build_esim`:
            `encoder_units`, `projection_units`, `composition_units`, `mlp_hidden`, the
            dropout rates.

    Example:

    >>> model = ESIM(vocabulary_size=50, num_classes=3, embedding_dim=8, encoder_units=4,
    ...              projection_units=4, composition_units=4, mlp_hidden=4)
    >>> model.output.shape
    (None, 3)
    """,
)

BiCNN = _builder(
    "BiCNN",
    "bicnn",
    """The Siamese CNN without attention, ATTCONV's "Bi-CNN" ("bicnn").

    Reference: Yin and Schütze, "Attentive Convolution: Equipping CNNs with RNN-style Attention
    Mechanisms", TACL 2018 (row "Bi-CNN" of Tables 5 and 7).

    Args:
        {word_args}
        **kwargs: the other arguments of `gcnn_match.models.attconv.build_bicnn`: `hidden`,
            `kernel_size`, `classifier`.

    Example:

    >>> model = BiCNN(vocabulary_size=50, num_classes=2, embedding_dim=8, hidden=8)
    >>> model.output.shape
    (None, 2)
    """,
)

APCNN = _builder(
    "APCNN",
    "apcnn",
    """The CNN with attentive pooling ("apcnn").

    Reference: dos Santos, Tan, Xiang and Zhou, "Attentive Pooling Networks", arXiv 2016; row
    "APCNN" of ATTCONV's Tables 3, 5 and 7.

    Args:
        {word_args}
        **kwargs: the other arguments of `gcnn_match.models.attconv.build_apcnn`: `hidden`,
            `kernel_size`, `classifier`.

    Example:

    >>> model = APCNN(vocabulary_size=50, num_classes=2, embedding_dim=8, hidden=8)
    >>> model.output.shape
    (None, 2)
    """,
)

ABCNN = _builder(
    "ABCNN",
    "abcnn",
    """The CNN with attention-based pooling ("abcnn").

    Reference: Yin, Schütze, Xiang and Zhou, "ABCNN: Attention-Based Convolutional Neural
    Network for Modeling Sentence Pairs", TACL 2016; row "ABCNN" of ATTCONV's Tables 3, 5
    and 7.

    Args:
        {word_args}
        **kwargs: the other arguments of `gcnn_match.models.abcnn.build_abcnn`: `hidden`,
            `kernel_size`, `classifier`.

    Example:

    >>> model = ABCNN(vocabulary_size=50, num_classes=2, embedding_dim=8, hidden=8)
    >>> model.output.shape
    (None, 2)
    """,
)

MultichannelCNN = _builder(
    "MultichannelCNN",
    "multichannel_cnn",
    """Kim's CNN-multichannel, a single-text classifier of text "b" ("multichannel_cnn").

    Reference: Kim, "Convolutional Neural Networks for Sentence Classification", EMNLP 2014;
    row "MultichannelCNN (Kim)" of ATTCONV's Table 3. The model still takes "a_ids" (a
    single-text dataset puts its text on both sides) and does not read it.

    Args:
        {word_args}
        **kwargs: the other arguments of
            `gcnn_match.models.multichannel_cnn.build_multichannel_cnn`: `filters`,
            `kernel_sizes`, `dropout`, `max_norm`, `multichannel`.

    Example:

    >>> model = MultichannelCNN(vocabulary_size=50, num_classes=5, embedding_dim=8, filters=4)
    >>> model.output.shape
    (None, 5)
    """,
    word_args=dict(
        embedding_matrix="pretrained word vectors (vocabulary_size, dim), both channels' "
        "start; None: random vectors of width `embedding_dim`.",
        embeddings_trainable="fine-tune the non-static channel (Kim does).",
    ),
)

CNNInternalAttention = _builder(
    "CNNInternalAttention",
    "cnn_internal_attention",
    """A CNN over text "b" pooled by internal attention ("cnn_internal_attention").

    Reference: Adel and Schütze, "Exploring Different Dimensions of Attention for Uncertainty
    Detection", EACL 2017; row "CNN+internal attention" of ATTCONV's Table 3. The model still
    takes "a_ids" (a single-text dataset puts its text on both sides) and does not read it.

    Args:
        {word_args}
        **kwargs: the other arguments of
            `gcnn_match.models.cnn_internal_attention.build_cnn_internal_attention`:
            `hidden`, `kernel_size`, `normalize`.

    Example:

    >>> model = CNNInternalAttention(vocabulary_size=50, num_classes=5, embedding_dim=8,
    ...                              hidden=4)
    >>> model.output.shape
    (None, 5)
    """,
)

BiLSTM = _builder(
    "BiLSTM",
    "lstm_encoders",
    """The LSTM sentence-encoder classifier, ATTCONV's "Bi-LSTM" ("lstm_encoders").

    Reference: Bowman, Angeli, Potts and Manning, "A large annotated corpus for learning
    natural language inference", EMNLP 2015; row "Bi-LSTM (Bowman et al., 2015)" of ATTCONV's
    Tables 5 and 7.

    Args:
        {word_args}
        **kwargs: the other arguments of
            `gcnn_match.models.lstm_encoders.build_lstm_encoders`: `units`, `bidirectional`
            (False, Bowman et al.'s left-to-right LSTM), `projection_units`, `mlp_layers`,
            `mlp_units`, `dropout`.

    Example:

    >>> model = BiLSTM(vocabulary_size=50, num_classes=3, embedding_dim=8, units=4,
    ...                projection_units=4, mlp_units=4)
    >>> model.output.shape
    (None, 3)
    """,
)

AttentiveLSTM = _builder(
    "AttentiveLSTM",
    "conditional_lstm",
    """Conditional LSTMs with word-by-word attention ("conditional_lstm").

    Reference: Rocktäschel, Grefenstette, Hermann, Kočiský and Blunsom, "Reasoning about
    Entailment with Neural Attention", ICLR 2016; row "Attentive-LSTM" of ATTCONV's Tables 3,
    5 and 7 (k = 100, the word vectors projected to k).

    Args:
        {word_args}
        attention: "word_by_word"; "final" (attention from the last hypothesis state) and
            None (no attention) are the C-LSTMs paper's other rows of this family.
        project_inputs: map the word vectors to `units` before the LSTMs (Rocktäschel et al.
            with 300-d vectors; the C-LSTMs paper's rows read 100-d vectors directly).
        **kwargs: the other arguments of `gcnn_match.models.clstm.build_conditional_lstm`:
            `units`, `shared_lstm`, `head`, `l2`.

    Example:

    >>> model = AttentiveLSTM(vocabulary_size=50, num_classes=3, embedding_dim=8, units=4)
    >>> model.output.shape
    (None, 3)
    """,
    keywords=dict(attention="word_by_word", project_inputs=True),
)

DecompAtt = _builder(
    "DecompAtt",
    "decomposable_attention",
    """The decomposable attention model with intra-sentence attention
    ("decomposable_attention").

    Reference: Parikh, Täckström, Das and Uszkoreit, "A Decomposable Attention Model for
    Natural Language Inference", EMNLP 2016; row "Decomp-Att" of ATTCONV's Tables 5 and 7.

    Args:
        {word_args}
        **kwargs: the other arguments of
            `gcnn_match.models.decomposable_attention.build_decomposable_attention`: `units`,
            `layers`, `intra_attention`, `max_distance`, `signed_distance`, `dropout`.

    Example:

    >>> model = DecompAtt(vocabulary_size=50, num_classes=3, embedding_dim=8, units=4)
    >>> model.output.shape
    (None, 3)
    """,
)
