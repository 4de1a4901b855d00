"""Every registered row's config survives to_dict -> JSON -> from_dict unchanged."""

import json

import pytest

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.experiments import registry


@pytest.mark.parametrize("config", registry.select(), ids=lambda config: config.name)
def test_config_round_trips_through_json(config):
    values = json.loads(json.dumps(config.to_dict()))
    assert ExperimentConfig.from_dict(values) == config
