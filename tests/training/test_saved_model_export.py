"""An export's TensorFlow SavedModel gives predict.py's outputs on real pairs in a process that
cannot import gcnn_match: one row of every model family, built on its smoke-scale data."""

import json
import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.data import registry as data_registry
from gcnn_match.data.example import Example
from gcnn_match.data.experiment_data import apply_scale, prepare_data
from gcnn_match.data.pipeline import tokenize_examples
from gcnn_match.experiments import registry
from gcnn_match.models.registry import build_model, input_features
from gcnn_match.training import raw_input
from gcnn_match.training.loop import model_inputs
from gcnn_match.training.predict import TrainedModel
from tests.data.typed_text import as_typed

# family: (row, tiny model kwargs, whether its tokenization runs in the graph, the standard
# deviation of the noise added to its untrained weights; see `_smoke_export`)
FAMILIES = {
    "gcnn_char": (
        "gcnn/quora/gcnn_char",
        dict(hidden=8, context_layers=1, aggregation_layers=1, mlp_hidden=8, char_dim=4),
        True,
        0.1,
    ),
    "esim": (
        "gcnn/quora/esim_our_implement",
        dict(encoder_units=8, projection_units=8, composition_units=8, mlp_hidden=8),
        True,
        0.3,
    ),
    "attconv": ("attconv/scitail/w_o_context", dict(hidden=8, fc_layers=1), False, 0.1),
    "clstm_ranking": ("clstm/wikiqa/lc_lstms_single_direction", dict(units=8), True, 0.1),
    "coin_chars": ("coin/lcqmc/coin_ours", dict(d=8, n_h=2, blocks=1), True, 0.1),
}
PAIRS = 4

# Runs with `python -I` outside the repository: `import gcnn_match` raises, whatever the
# environment installs; then the lines a client writes.
CLIENT = """
import json, sys

class NoPackage:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "gcnn_match":
            raise ImportError("gcnn_match is not available here")

sys.meta_path.insert(0, NoPackage())
try:
    import gcnn_match
    sys.exit("gcnn_match was imported")
except ImportError:
    pass

import tensorflow as tf

request = json.load(open(sys.argv[1]))
model = tf.saved_model.load(request["saved_model"])
answers = {}
for name, inputs in request["calls"].items():
    tensors = {key: tf.constant(value) for key, value in inputs.items()}
    outputs = model.signatures["serving_default" if name == "typed" else name](**tensors)
    answers[name] = {key: value.numpy().tolist() for key, value in outputs.items()}
    if name == "serving_default":  # the same, as TFSMLayer calls it
        outputs = model.serve(tensors)
        answers["serve"] = {key: value.numpy().tolist() for key, value in outputs.items()}
print(json.dumps(answers, default=bytes.decode))
"""


def _padded(ragged):
    """Equal-length rows of a feature's `RaggedIds`, 0 after the end."""
    arrays = [ragged.row(i) for i in range(len(ragged))]
    width = max(1, max(len(x) for x in arrays))
    out = np.zeros((len(arrays), width, *arrays[0].shape[1:]), np.int32)
    for row, x in zip(out, arrays):
        row[: len(x)] = x
    return out.tolist()


def _smoke_export(family, shared_data, tmp_path):
    """The export of the family's row built on its smoke-scale data (vocabularies, cut-offs,
    pretrained vectors) with random weights, and the row's config."""
    name, kwargs, _, noise = FAMILIES[family]
    config = registry.get(name)
    config = apply_scale(
        config.replace(scale="smoke", model_kwargs={**config.model_kwargs, **kwargs})
    )
    features = input_features(config.model, **config.model_kwargs)
    encoder = prepare_data(config, shared_data, tmp_path / "cache", features).encoder
    inputs, _ = model_inputs(config, encoder, shared_data, tmp_path / "cache", log=lambda *_: None)
    model = build_model(config.model, inputs, **config.model_kwargs)
    # Untrained weights are near zero (outputs close to uniform whatever the ids): noise makes
    # every id count, so a wrong id would show in the comparison; more saturates the softmax.
    rng = np.random.default_rng(0)
    for weight in model.trainable_weights:
        weight.assign(weight.numpy() + rng.normal(0, noise, weight.shape).astype(weight.dtype))
    dataset = data_registry.get_dataset(config.dataset)
    return TrainedModel(model, encoder, dataset, config).export(tmp_path / "export"), config


def _real_pairs(config, data_dir):
    """The first test pairs of the row's dataset, as raw text."""
    examples = list(data_registry.read_split(config.dataset, "test", data_dir))[:PAIRS]
    return [Example(a=e.a, b=e.b, label=None, uid=str(i)) for i, e in enumerate(examples)]


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_saved_model_matches_predict_py_without_the_package(family, shared_data, tmp_path):
    export, config = _smoke_export(family, shared_data, tmp_path)
    trained = TrainedModel.from_export(export)  # what predict.py --export_dir scores with
    examples = _real_pairs(config, shared_data)
    ranking = config.task == "ranking"
    score = trained.score_examples if ranking else trained.predict_examples
    expected = score(examples)
    assert np.ptp(expected, axis=0).max() > 1e-3  # the pairs differ: a wrong id would show
    encoder = trained.encoder
    encoded = encoder.encode("pairs", examples, tokenize_examples(examples, encoder.policy))
    calls = {"token_ids": {k: _padded(v) for k, v in encoded.features.items()}}
    in_graph = FAMILIES[family][2]
    calls["serving_default"] = calls["token_ids"]
    if in_graph:
        calls["serving_default"] = {"a": [e.a for e in examples], "b": [e.b for e in examples]}
        # The same pairs as a user types them: the graph rewrites them as predict.py does.
        typed = [(as_typed(e.a.split()), as_typed(e.b.split())) for e in examples]
        calls["typed"] = {"a": [a for a, _ in typed], "b": [b for _, b in typed]}
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"saved_model": str(export / "saved_model"), "calls": calls}))
    done = subprocess.run(
        [sys.executable, "-I", "-c", CLIENT, str(request)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answers = json.loads(done.stdout)
    record = json.loads((export / "export.json").read_text())["saved_model"]
    default_inputs = ["a", "b"] if in_graph else sorted(encoder.feature_names())
    assert sorted(record["signatures"]["serving_default"]["inputs"]) == default_inputs
    assert record["tokenization"]["in_graph"] == in_graph
    assert sorted(answers) == sorted(
        ["serve", "serving_default", "token_ids"] + in_graph * ["typed"]
    )
    for name, outputs in answers.items():
        key = "scores" if ranking else "probabilities"
        want = expected
        if name == "typed":
            pairs = [Example(a=a, b=b, label=None, uid=str(i)) for i, (a, b) in enumerate(typed)]
            tokenization = raw_input.run_tokenization(trained.encoder, trained.dataset)
            want = score(raw_input.rewrite_examples(pairs, tokenization))
        np.testing.assert_allclose(outputs[key], want, atol=1e-5, err_msg=name)
        if not ranking:
            assert outputs["class_names"] == list(trained.labels)
            assert outputs["predicted"] == [trained.labels[i] for i in expected.argmax(axis=1)]
