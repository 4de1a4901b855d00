"""A trained run predicts on raw pairs; its export does the same in a fresh process."""

import json
import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.experiments import registry
from gcnn_match.training.loop import run_experiment
from gcnn_match.training.predict import TrainedModel

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
PAIRS = [
    ("How do I learn Python quickly ?", "What is the fastest way to learn Python ?"),
    ("What is the capital of France ?", "How do I cook rice ?"),
]


@pytest.fixture(scope="module")
def run_dir(shared_data, tmp_path_factory):
    config = registry.get("gcnn/quora/gcnn").replace(
        scale="smoke",
        model_kwargs={
            "variant": "gcnn",
            "hidden": 8,
            "context_layers": 1,
            "aggregation_layers": 1,
            "mlp_hidden": 8,
        },
    )
    path = tmp_path_factory.mktemp("run")
    run_experiment(config, path, shared_data, tmp_path_factory.mktemp("cache"), log=lambda *_: None)
    return path


@pytest.mark.slow
def test_saved_run_reproduces_its_test_predictions(run_dir):
    saved = TrainedModel.from_run(run_dir)
    lines = (run_dir / "predictions" / "test.tsv").read_text().splitlines()[1:6]
    stored = np.array([[float(x) for x in line.split("\t")[3:]] for line in lines])
    from gcnn_match.data import registry as data_registry

    examples = list(data_registry.read_split("quora", "test", saved_data_dir(run_dir)))[:5]
    np.testing.assert_allclose(saved.predict_examples(examples), stored, atol=1e-5)


@pytest.mark.slow
def test_only_the_resumable_checkpoint_keeps_the_optimizer(run_dir):
    import h5py

    checkpoints = run_dir / "checkpoints"
    last = checkpoints / json.loads((checkpoints / "last.json").read_text())["weights"]
    with h5py.File(checkpoints / "best.weights.h5") as best, h5py.File(last) as resumable:
        assert "optimizer" not in best and len(resumable["optimizer/vars"]) > 0
        assert set(best["layers"]) == set(resumable["layers"])
    assert (checkpoints / "best.weights.h5").stat().st_size < last.stat().st_size


def saved_data_dir(run_dir):
    return json.loads((run_dir / "environment.json").read_text())["data_dir"]


@pytest.mark.slow
def test_export_predicts_the_same_in_a_fresh_process(run_dir, tmp_path):
    saved = TrainedModel.from_run(run_dir)
    expected = saved.predict_pairs(PAIRS)
    assert expected.shape == (2, 2) and np.allclose(expected.sum(axis=1), 1.0, atol=1e-5)
    saved.export(tmp_path / "export")
    (tmp_path / "pairs.tsv").write_text("".join(f"{a}\t{b}\n" for a, b in PAIRS))
    out = subprocess.run(
        [
            sys.executable,
            str(REPO / "experiments" / "predict.py"),
            f"--export_dir={tmp_path / 'export'}",
            f"--input={tmp_path / 'pairs.tsv'}",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    )
    rows = [line.split("\t") for line in out.stdout.strip().splitlines()[1:]]
    got = np.array([[float(x) for x in row[2:]] for row in rows])
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert [row[1] for row in rows] == [saved.labels[i] for i in expected.argmax(axis=1)]


def test_not_a_run_directory_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="not a trained run directory"):
        TrainedModel.from_run(tmp_path)


def test_not_an_export_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="is not an export"):
        TrainedModel.from_export(tmp_path)


def test_an_export_whose_model_would_run_code_is_refused(run_dir, tmp_path, monkeypatch):
    import keras

    export = tmp_path / "export"
    TrainedModel.from_run(run_dir).export(export, saved_model=False)
    marker = tmp_path / "code-ran"
    monkeypatch.setenv("GCNN_MATCH_TEST_MARKER", str(marker))
    inputs = keras.Input((2,))
    # A Lambda layer is stored as bytecode, which rebuilding the model runs (as here); with
    # safe_mode=False the load below would create the marker.
    touch = keras.layers.Lambda(
        lambda x: (open(__import__("os").environ["GCNN_MATCH_TEST_MARKER"], "w").close(), x)[1]
    )
    keras.Model(inputs, touch(inputs)).save(export / "model.keras")
    marker.unlink()
    with pytest.raises(ValueError, match="safe_mode"):
        TrainedModel.from_export(export)
    assert not marker.exists()


def evil(x):
    """The function a tampered export's Lambda layer names: it would run on loading."""
    open(__import__("os").environ["GCNN_MATCH_TEST_MARKER"], "w").close()
    return x


def _tampered_export(tmp_path, monkeypatch):
    """An export (of an untrained tiny CNN) whose model.keras was replaced by a model holding
    a Lambda layer of a named function, which a fresh process cannot find; and the file that
    the function creates whenever it runs (building the model here ran it once)."""
    import keras

    from gcnn_match.data import registry as data_registry
    from gcnn_match.data.pipeline import PairEncoder
    from gcnn_match.data.tokenizers import TextPolicy
    from gcnn_match.data.vocab import Vocabulary
    from gcnn_match.models.registry import ModelInputs, build_model

    config = registry.get("gcnn/quora/cnn")
    encoder = PairEncoder(TextPolicy(), Vocabulary(["what", "is", "it"]), 40, 40)
    inputs = ModelInputs(vocab_size=len(encoder.vocab), num_classes=2, embedding_dim=4)
    kwargs = dict(variant="cnn", hidden=4, context_layers=1, aggregation_layers=1, mlp_hidden=4)
    model = build_model(config.model, inputs, **kwargs)
    saved = TrainedModel(model, encoder, data_registry.get_dataset("quora"), config)
    export = saved.export(tmp_path / "export", saved_model=False)
    pair = keras.Input((2,))
    marker = tmp_path / "code-ran"
    monkeypatch.setenv("GCNN_MATCH_TEST_MARKER", str(marker))
    keras.Model(pair, keras.layers.Lambda(evil, name="evil")(pair)).save(export / "model.keras")
    marker.unlink()
    return export, marker


def _refusal(export):
    return (
        f"{export / 'model.keras'}: layer 'evil' is a Lambda layer, which would run code when "
        "loaded; refused (Keras safe_mode). This project's models have none: export the run "
        "again from its run directory"
    )


def test_an_export_with_a_lambda_layer_is_refused_in_one_line(tmp_path, monkeypatch):
    export, marker = _tampered_export(tmp_path, monkeypatch)
    with pytest.raises(ValueError) as info:
        TrainedModel.from_export(export)
    assert str(info.value) == _refusal(export) and not marker.exists()


@pytest.mark.slow
def test_predict_py_refuses_an_export_with_a_lambda_layer_in_one_line(tmp_path, monkeypatch):
    export, marker = _tampered_export(tmp_path, monkeypatch)
    (tmp_path / "pairs.tsv").write_text("what is it\tit is\n")
    done = subprocess.run(
        [
            sys.executable,
            "experiments/predict.py",
            f"--export_dir={export}",
            f"--input={tmp_path / 'pairs.tsv'}",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert done.returncode == 1 and done.stdout == "" and not marker.exists()
    assert done.stderr.strip().splitlines() == [f"error: {_refusal(export)}"]
