"""Sentence-pair models of the four papers and their baselines, as Keras 3 models.

The builders under the papers' names (`gcnn_match.models.paper_models`): GCNN (Chen et al.
2018), ATTCONV (Yin & Schütze 2018), LCLSTMs and TCLSTMs (Liu et al. 2016), COIN (Hu et al.
2021); the baselines of their tables (`gcnn_match.models.baseline_models`): ESIM, BiCNN,
APCNN, ABCNN, MultichannelCNN, CNNInternalAttention, BiLSTM, AttentiveLSTM, DecompAtt. Each
returns the model that the registry's builder (`gcnn_match.models.registry.build_model`) makes
with the paper's settings.
"""

from gcnn_match.models.baseline_models import (
    ABCNN,
    APCNN,
    ESIM,
    AttentiveLSTM,
    BiCNN,
    BiLSTM,
    CNNInternalAttention,
    DecompAtt,
    MultichannelCNN,
)
from gcnn_match.models.paper_models import ATTCONV, COIN, GCNN, LCLSTMs, TCLSTMs

__all__ = [
    "ABCNN",
    "APCNN",
    "ATTCONV",
    "COIN",
    "ESIM",
    "GCNN",
    "AttentiveLSTM",
    "BiCNN",
    "BiLSTM",
    "CNNInternalAttention",
    "DecompAtt",
    "LCLSTMs",
    "MultichannelCNN",
    "TCLSTMs",
]
