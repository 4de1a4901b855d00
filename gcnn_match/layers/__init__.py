"""Keras 3 layers of the four papers, one public layer per module.

GCNN (Chen et al. 2018): GCNN, GLU, ResidualConv, ConvEncoder, CharComposition, SoftAlignment,
MatchingFeatures, MaxMeanPooling; its ESIM baseline: BiLSTMEncoder.
ATTCONV (Yin & Schütze 2018): AttentiveContext, AttentiveConv, GatedConvUnit, MultiGranular,
AdvancedAttentiveConv; baselines: AttentivePooling, ABCNNPooling, MultiWidthConvPooling (Kim's
MultichannelCNN), InternalAttentionPooling (Adel & Schütze's CNN+internal attention); the
authors' code: BatchColumnNormalization, BatchStatisticsNormalization; Decomp-Att (Parikh et
al. 2016), a baseline of its tables: IntraSentenceAttention with SoftAlignment's values and
MaxMeanPooling's sum.
Coupled-LSTMs (Liu et al. 2016): CoupledLSTM, DynamicPooling; baseline: ConditionalAttention.
COIN (Hu et al. 2021): SelfAlignmentContext, ContextCrossAttention, GateFusion,
MultiHeadPooling.
Shared: PartlyTrainableEmbedding (fixed vectors with trainable padded columns).
"""

from gcnn_match.layers.abcnn_pooling import ABCNNPooling
from gcnn_match.layers.advanced_attentive_conv import AdvancedAttentiveConv
from gcnn_match.layers.attentive_context import AttentiveContext
from gcnn_match.layers.attentive_conv import AttentiveConv
from gcnn_match.layers.attentive_pooling import AttentivePooling
from gcnn_match.layers.batch_column_normalization import BatchColumnNormalization
from gcnn_match.layers.batch_statistics_normalization import BatchStatisticsNormalization
from gcnn_match.layers.bilstm_encoder import BiLSTMEncoder
from gcnn_match.layers.char_composition import CharComposition
from gcnn_match.layers.conditional_attention import ConditionalAttention
from gcnn_match.layers.context_cross_attention import ContextCrossAttention
from gcnn_match.layers.conv_encoder import ConvEncoder
from gcnn_match.layers.coupled_lstm import CoupledLSTM
from gcnn_match.layers.dynamic_pooling import DynamicPooling
from gcnn_match.layers.gate_fusion import GateFusion
from gcnn_match.layers.gated_conv import GCNN
from gcnn_match.layers.gated_conv_unit import GatedConvUnit
from gcnn_match.layers.glu import GLU
from gcnn_match.layers.internal_attention_pooling import InternalAttentionPooling
from gcnn_match.layers.intra_sentence_attention import IntraSentenceAttention
from gcnn_match.layers.matching_features import MatchingFeatures
from gcnn_match.layers.max_mean_pooling import MaxMeanPooling
from gcnn_match.layers.multi_granular import MultiGranular
from gcnn_match.layers.multi_head_pooling import MultiHeadPooling
from gcnn_match.layers.multi_width_conv_pooling import MultiWidthConvPooling
from gcnn_match.layers.partly_trainable_embedding import PartlyTrainableEmbedding
from gcnn_match.layers.residual_conv import ResidualConv
from gcnn_match.layers.self_alignment_context import SelfAlignmentContext
from gcnn_match.layers.soft_alignment import SoftAlignment

__all__ = [
    "GCNN",
    "GLU",
    "ABCNNPooling",
    "AdvancedAttentiveConv",
    "AttentiveContext",
    "AttentiveConv",
    "AttentivePooling",
    "BatchColumnNormalization",
    "BatchStatisticsNormalization",
    "BiLSTMEncoder",
    "CharComposition",
    "ConditionalAttention",
    "ContextCrossAttention",
    "ConvEncoder",
    "CoupledLSTM",
    "DynamicPooling",
    "GateFusion",
    "GatedConvUnit",
    "InternalAttentionPooling",
    "IntraSentenceAttention",
    "MatchingFeatures",
    "MaxMeanPooling",
    "MultiGranular",
    "MultiHeadPooling",
    "MultiWidthConvPooling",
    "PartlyTrainableEmbedding",
    "ResidualConv",
    "SelfAlignmentContext",
    "SoftAlignment",
]
