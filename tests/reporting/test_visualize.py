"""The per-paper figures of saved runs on real SNLI and Quora.

ATTCONV's runs are smoke-trained end to end (they also give Figure 5 its predictions). The
C-LSTM and COIN run directories hold their initial weights, written with the same run-dir
helpers: their figures read only the config, preprocessing and weights, and one training
step of either takes tens of seconds to compile on this machine.
"""

import csv
import subprocess
import sys

import numpy as np
import pytest

from gcnn_match.data import registry as data_registry
from gcnn_match.data.experiment_data import apply_scale, text_policy
from gcnn_match.data.pipeline import PairEncoder, tokenize_examples
from gcnn_match.experiments import registry
from gcnn_match.files import write_json
from gcnn_match.models.registry import ModelInputs, build_model
from gcnn_match.reporting import run_figures
from gcnn_match.reporting.figure_pairs import UNKNOWN_MARK, encode_pair
from gcnn_match.training.loop import model_input_shapes, run_experiment
from gcnn_match.training.predict import TrainedModel
from gcnn_match.training.run_dir import RunDirectory, environment_record

# Trains or runs real processes: left out of `make test-fast`.
pytestmark = pytest.mark.slow

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
TRAINED = {
    "light": ("attconv/snli/attconv_light", {"variant": "light", "hidden": 4}),
    "bicnn": ("attconv/snli/bi_cnn", {"hidden": 4}),
}
UNTRAINED = {
    "clstm": ("clstm/snli/tc_lstms", {"cell": "tight", "units": 3}),
    "coin": ("coin/quora/coin_ours", {"d": 4, "n_h": 2, "blocks": 2}),
}
SMALL = dict(
    scale="smoke",
    embeddings="random",
    embedding_dim=8,
    max_train_examples=100,
    max_eval_examples=100,
    jit_compile=False,
)


def _config(name, kwargs):
    base = registry.get(name)
    return apply_scale(base.replace(**SMALL, model_kwargs={**base.model_kwargs, **kwargs}))


def _untrained_run(config, path, data_dir):
    """A run directory as `run_experiment` leaves it, with the model's initial weights."""
    run = RunDirectory(path).create()
    policy = text_policy(config)
    examples = list(data_registry.read_split(config.dataset, "test", data_dir))[:100]
    encoder = PairEncoder.fit(
        tokenize_examples(examples, policy), policy, config.max_len_a, config.max_len_b
    )
    inputs = ModelInputs(
        vocab_size=len(encoder.vocab),
        num_classes=len(data_registry.get_dataset(config.dataset).labels),
        embedding_dim=8,
    )
    write_json(run / "config.json", config.to_dict())
    write_json(run / "environment.json", environment_record(data_dir))
    write_json(run / "model_inputs.json", model_input_shapes(inputs))
    encoder.save(run / "preprocessing")
    build_model(config.model, inputs, **config.model_kwargs).save_weights(run.best_weights)


@pytest.fixture(scope="module")
def runs(shared_data, tmp_path_factory):
    root = tmp_path_factory.mktemp("runs")
    cache = tmp_path_factory.mktemp("cache")
    paths = {}
    for key, (name, kwargs) in {**TRAINED, **UNTRAINED}.items():
        paths[key] = root / name / "smoke-seed1"
        if key in TRAINED:
            run_experiment(
                _config(name, kwargs), paths[key], shared_data, cache, log=lambda *_: None
            )
        else:
            _untrained_run(_config(name, kwargs), paths[key], shared_data)
    return root, paths


def test_attconv_figure_of_the_paper_pair_and_of_a_test_example(runs):
    _, paths = runs
    paper = run_figures.attconv_figure(paths["light"])
    assert paper == paths["light"] / "figures" / "attconv_figure6_paper.png"
    indexed = run_figures.attconv_figure(paths["light"], index=7, filters=[0, 3])
    assert indexed.name == "attconv_figure6_test-7.png"
    for path in (paper, indexed):
        assert path.read_bytes()[:8] == PNG_MAGIC and path.stat().st_size > 1000


def test_the_pair_is_encoded_by_the_run_s_own_preprocessing(runs):
    _, paths = runs
    saved = TrainedModel.from_run(paths["light"])
    example, tag = run_figures.choose_example("attconv", saved.config, saved.labels)
    pair = encode_pair(saved, example, tag)
    assert tag == "paper" and pair.label is None
    words = [token.rstrip(UNKNOWN_MARK) for token in pair.tokens_b]
    assert words == list(saved.encoder.policy.tokenize_pair(example)[1])[: len(words)]
    assert words[:3] == ["a", "dog", "jumping"]  # this row's policy lower-cases
    ids = pair.features["b_ids"][0]
    np.testing.assert_array_equal(ids, saved.encoder.vocab.encode(words))
    assert [t.endswith(UNKNOWN_MARK) for t in pair.tokens_b] == [i == 1 for i in ids]


def test_length_groups_match_a_numpy_recomputation(runs):
    _, paths = runs
    path, curves = run_figures.length_group_figure([paths["light"], paths["bicnn"]])
    assert path.read_bytes()[:8] == PNG_MAGIC
    saved_dir = paths["light"]
    with open(saved_dir / "predictions" / "test.tsv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    by_uid = {
        ex.uid: ex
        for ex in data_registry.read_split("snli", "test", run_figures.run_data_dir(saved_dir))
    }
    policy = PairEncoder.load(saved_dir / "preprocessing").policy
    lengths = [
        len(p.a) + len(p.b) for p in tokenize_examples([by_uid[row["uid"]] for row in rows], policy)
    ]
    order = sorted(range(len(rows)), key=lambda i: (lengths[i], i))
    size = len(rows) // 10  # 100 examples: 10 groups of 10
    expected = [
        np.mean([rows[i]["gold"] == rows[i]["predicted"] for i in order[g * size : (g + 1) * size]])
        for g in range(10)
    ]
    np.testing.assert_allclose(curves["ATTCONV – light (seed 1)"], expected)
    assert list(curves) == ["ATTCONV – light (seed 1)", "Bi-CNN (seed 1)"]


def test_clstm_and_coin_figures(runs):
    _, paths = runs
    chosen = run_figures.clstm_figure(paths["clstm"], neuron=2)
    assert chosen.name == "clstm_figure3_paper_neuron2.png"
    assert run_figures.clstm_figure(
        paths["clstm"], text=("A man sleeps .", "A man rests .")
    ).name.startswith("clstm_figure3_text-")
    coin = run_figures.coin_figure(paths["coin"], index=0)
    assert coin.name == "coin_figure4_test-0.png" and coin.read_bytes()[:8] == PNG_MAGIC


def test_a_figure_for_the_wrong_model_is_skipped_with_the_reason(runs):
    _, paths = runs
    with pytest.raises(run_figures.SkipFigure, match="'attconv' run; this figure needs a 'coin'"):
        run_figures.coin_figure(paths["light"])


def test_all_draws_what_it_can_and_says_why_it_skips(runs, tmp_path):
    root, paths = runs
    unfinished = root / "attconv" / "snli" / "attconv_advanced" / "smoke-seed1"
    (unfinished / "checkpoints").mkdir(parents=True)
    (unfinished / "config.json").write_text((paths["light"] / "config.json").read_text())
    out = subprocess.run(
        [sys.executable, str(REPO / "experiments" / "visualize.py"), f"--runs_dir={root}", "--all"],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO,
    ).stdout
    assert "attconv_figure6_paper.png" in out and "attconv_figure5_test_pair.png" in out
    assert "clstm_figure3_paper_neuron" in out and "coin_figure4_paper.png" in out
    assert "no selected weights yet" in out
    assert "per-paper figures: 4 written; 1 runs of models without one" in out


def test_bad_pairs_are_clear_errors(runs):
    _, paths = runs
    with pytest.raises(IndexError, match="--index=100000 is out of range"):
        run_figures.attconv_figure(paths["light"], index=100000)
    with pytest.raises(ValueError, match="has no tokens"):
        run_figures.attconv_figure(paths["light"], text=("A dog runs .", "   "))
