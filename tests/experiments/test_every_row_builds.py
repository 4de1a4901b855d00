"""Every registered table row names a real dataset and a model that builds and predicts."""

import json

import numpy as np
import pytest

from gcnn_match.data.registry import get_dataset
from gcnn_match.experiments import registry
from gcnn_match.models.registry import ModelInputs, build_model, input_features


def _unique_models():
    seen = {}
    for config in registry.select():
        key = (config.model, json.dumps(config.model_kwargs, sort_keys=True), config.dataset)
        seen.setdefault(key, config)
    return list(seen.values())


def test_rows_name_known_datasets_and_their_compared_targets():
    for config in registry.select():
        get_dataset(config.dataset)
        for paper_key, _ in config.compare:
            # Stand-in rows (e.g. C-LSTMs' WikiQA) have no paper number at all.
            assert paper_key in config.targets or not config.targets, (config.name, paper_key)


# A sweep over every registered model configuration (~30 s): the full tier runs it.
@pytest.mark.slow
@pytest.mark.parametrize("config", _unique_models(), ids=lambda c: c.name)
def test_row_model_builds_and_predicts(config):
    features = input_features(config.model, **config.model_kwargs)
    inputs = ModelInputs(
        vocab_size=40,
        num_classes=len(get_dataset(config.dataset).labels),
        embedding_dim=50,
        max_chars=5,
        char_vocab_size=20 if features.chars else None,
        pos_vocab_size=48 if features.pos else None,
        segments=features.segments,
    )
    model = build_model(config.model, inputs, **config.model_kwargs)
    rng = np.random.RandomState(0)
    batch = {"a_ids": rng.randint(1, 40, (2, 7)), "b_ids": rng.randint(1, 40, (2, 5))}
    if inputs.char_vocab_size:
        batch.update(a_chars=rng.randint(1, 20, (2, 7, 5)), b_chars=rng.randint(1, 20, (2, 5, 5)))
    if inputs.pos_vocab_size:
        batch.update(a_pos=rng.randint(1, 48, (2, 7)), b_pos=rng.randint(1, 48, (2, 5)))
    if inputs.segments:  # three context sentences
        batch.update(a_segments=np.array([[1, 1, 2, 2, 3, 3, 3]] * 2))
    logits = np.asarray(model({k: v.astype("int32") for k, v in batch.items()}))
    width = 1 if config.task == "ranking" else inputs.num_classes  # one score per pair
    assert logits.shape == (2, width) and np.isfinite(logits).all()
