"""A model's registration declares the optional per-token inputs each configuration consumes."""

import pytest

from gcnn_match.data.features import TokenFeatures
from gcnn_match.models.registry import input_features


def test_features_follow_the_builder_arguments_and_their_defaults():
    assert input_features("compare_aggregate") == TokenFeatures()
    assert input_features("compare_aggregate", char_features=True) == TokenFeatures(chars=True)
    assert input_features(
        "compare_aggregate", char_features=True, pos_features=True
    ) == TokenFeatures(chars=True, pos=True)
    assert input_features("attconv", context_wise=True, max_contexts=5) == TokenFeatures(
        segments=True
    )
    assert input_features("esim", encoder_units=8) == TokenFeatures()  # declares none


def test_unknown_models_and_arguments_are_refused():
    with pytest.raises(ValueError, match="unknown model 'gcnn'"):
        input_features("gcnn")
    with pytest.raises(TypeError, match="char_features"):
        input_features("esim", char_features=True)
