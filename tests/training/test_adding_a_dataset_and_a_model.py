"""Adding a dataset is one registration in the data registry; adding a model is its builder and
its registration. Both registered here, a run trains the one on the other end to end."""

import json

import keras
import pytest

from gcnn_match.config.experiment import ExperimentConfig
from gcnn_match.data import registry as data_registry
from gcnn_match.data.features import TokenFeatures
from gcnn_match.data.registry import DatasetSpec, FileSpec, register_dataset
from gcnn_match.models import registry as model_registry
from gcnn_match.models.common import pair_inputs, word_embedding
from gcnn_match.training.loop import run_experiment

# Split names of their own, so that the run can only have found them through the spec.
SPLITS = {"fit": 48, "tune": 16, "exam": 16, "spare": 4}


@pytest.fixture
def scratch_registries(monkeypatch):
    """What a test registers is gone afterwards: it goes into copies of the registries."""
    model_registry.import_all()  # the stock models register into the real table first
    monkeypatch.setattr(data_registry, "DATASETS", dict(data_registry.DATASETS))
    monkeypatch.setattr(model_registry, "_MODELS", dict(model_registry._MODELS))


def _write_pairs(folder, split, count):
    """`a<TAB>b<TAB>label` lines: "same" when both sides name the same colour."""
    colours = ["red", "green", "blue", "black"]
    lines = []
    for i in range(count):
        a, b = colours[i % 4], colours[(i // 2) % 4]
        lines.append(f"the {a} car\tis it {b} ?\t{'same' if a == b else 'different'}\n")
    (folder / f"{split}.tsv").write_text("".join(lines), "utf-8")


def _register_toy_pairs(data_dir):
    (data_dir / "toy_pairs").mkdir(parents=True)
    for split, count in SPLITS.items():
        _write_pairs(data_dir / "toy_pairs", split, count)
    register_dataset(
        DatasetSpec(
            name="toy_pairs",
            description="Colour pairs written by this test.",
            task="classification",
            labels=("different", "same"),
            splits={
                split: (FileSpec(f"toy_pairs/{split}.tsv", "pair_label_tsv", how_to_get="test"),)
                for split in SPLITS
            },
            official_splits=("fit", "tune", "exam"),
        )
    )


def _bag_of_words_features(chars, **_):
    return TokenFeatures(chars=chars)


def _register_bag_of_words():
    @model_registry.register("toy_bag_of_words", features=_bag_of_words_features)
    def build_bag_of_words(inputs, units=8, chars=False):
        features = pair_inputs(inputs)
        embed = word_embedding(inputs)
        sides = [embed(features["a_ids"]), embed(features["b_ids"])]
        if chars:  # each token's mean character vector
            embed_chars = keras.layers.Embedding(inputs.char_vocab_size, units)
            sides += [keras.ops.mean(embed_chars(features[f"{s}_chars"]), axis=2) for s in "ab"]
        pooled = keras.layers.Concatenate()(
            [keras.layers.GlobalAveragePooling1D()(x) for x in sides]
        )
        hidden = keras.layers.Dense(units, activation="relu")(pooled)
        return keras.Model(features, keras.layers.Dense(inputs.num_classes)(hidden))


@pytest.mark.slow
def test_a_registered_model_trains_on_a_registered_dataset(scratch_registries, tmp_path):
    _register_toy_pairs(tmp_path / "data")
    _register_bag_of_words()
    config = ExperimentConfig(
        name="toy/bag_of_words",
        paper="none",
        table="none",
        row="bag of words",
        dataset="toy_pairs",
        model="toy_bag_of_words",
        model_kwargs={"chars": True},
        embeddings="random",
        embedding_dim=8,
        batch_size=8,
        epochs=1,
    )
    run_dir = tmp_path / "run"
    run_experiment(config, run_dir, tmp_path / "data", tmp_path / "cache", log=lambda *_: None)

    metrics = json.loads((run_dir / "metrics.json").read_text())
    assert metrics["data_sources"] == {
        split: str(tmp_path / "data" / "toy_pairs" / f"{split}.tsv")
        for split in ("fit", "tune", "exam")
    }
    assert metrics["examples"] == {"train": 48, "dev": 16, "test": 16}
    assert 0 <= metrics["test_accuracy"] <= 1
    # The declared character input reached the data: the encoder fed character ids.
    assert json.loads((run_dir / "model_inputs.json").read_text())["char_vocab_size"]


def test_registrations_do_not_outlive_their_test():
    with pytest.raises(ValueError, match="unknown dataset 'toy_pairs'"):
        data_registry.get_dataset("toy_pairs")
    with pytest.raises(ValueError, match="unknown model 'toy_bag_of_words'"):
        model_registry.build_model("toy_bag_of_words", None)
