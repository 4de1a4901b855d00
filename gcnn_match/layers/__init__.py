"""Keras 3 layers of the GCNN model family (Chen et al., Interspeech 2018)."""
from gcnn_match.layers.conv_encoder import ConvEncoder
from gcnn_match.layers.gated_conv import GCNN
from gcnn_match.layers.glu import GLU
from gcnn_match.layers.pooling import MaxMeanPooling
from gcnn_match.layers.residual_conv import ResidualConv
from gcnn_match.layers.soft_alignment import MatchingFeatures, SoftAlignment

__all__ = [
    "GCNN",
    "GLU",
    "ConvEncoder",
    "MatchingFeatures",
    "MaxMeanPooling",
    "ResidualConv",
    "SoftAlignment",
]
