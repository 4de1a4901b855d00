"""A trained run scores pairs typed as users type them as it scores the benchmark's own form."""

import dataclasses
import json
import subprocess
import sys

import pytest

from gcnn_match.config.overrides import apply_overrides
from gcnn_match.data import registry as data_registry
from gcnn_match.experiments import registry
from gcnn_match.training import raw_input
from gcnn_match.training.loop import run_experiment
from gcnn_match.training.predict import TrainedModel
from tests.conftest import REPO, subprocess_env
from tests.data.typed_text import as_typed, capitalised

PAIRS = 2000  # Quora test pairs: a binomial standard error of about 1.1 points at 65%
# The smoke run of the GCNN row with a narrow model on the 50-d vectors: 0.13 M weights besides
# the word table, where the row's 300-d model has 8.0 M; in its two epochs it still learns
# enough (about 63% on the balanced test pairs) for typed text to cost it points.
SMALL = (
    ("model_kwargs.hidden", 64),
    ("model_kwargs.mlp_hidden", 64),
    ("model_kwargs.context_layers", 1),
    ("model_kwargs.aggregation_layers", 1),
    ("embedding_width", None),
    ("optimizer.learning_rate", 2e-3),
)


@pytest.fixture(scope="module")
def run_dir(shared_data, tmp_path_factory):
    config = apply_overrides(registry.get("gcnn/quora/gcnn").replace(scale="smoke"), SMALL)
    path = tmp_path_factory.mktemp("run")
    run_experiment(config, path, shared_data, tmp_path_factory.mktemp("cache"), log=lambda *_: None)
    return path


@pytest.fixture(scope="module")
def saved(run_dir):
    return TrainedModel.from_run(run_dir)


def _typed(examples):
    return [
        dataclasses.replace(ex, a=as_typed(ex.a.split()), b=as_typed(ex.b.split()))
        for ex in examples
    ]


@pytest.mark.slow
def test_typed_pairs_score_as_the_benchmark_s_after_the_rewrite(saved, shared_data):
    assert saved.encoder.tokenization == "ptb-pretokenized"
    rates = saved.encoder.unknown_rates
    assert rates["train"] == 0 and 0 < rates["dev"] < 0.2
    shipped = list(data_registry.read_split("quora", "test", shared_data))[:PAIRS]
    typed = _typed(shipped)
    report = []
    rewritten = raw_input.prepare_input(saved, typed, log=report.append)
    as_given = raw_input.prepare_input(saved, typed, rewrite=False, log=report.append)
    same = sum(
        (r.a.split(), r.b.split()) == (capitalised(s.a.split()), capitalised(s.b.split()))
        for r, s in zip(rewritten, shipped)
    )
    accuracy = {
        name: saved.evaluate_examples(examples)["accuracy"]
        for name, examples in (("shipped", shipped), ("rewritten", rewritten), ("typed", as_given))
    }
    print(json.dumps({"same_tokens": same / PAIRS, "accuracy": accuracy, "report": report}))
    assert same / PAIRS > 0.99
    assert abs(accuracy["rewritten"] - accuracy["shipped"]) < 0.011  # one standard error
    assert report[0] == "raw text: rewritten as ptb-pretokenized, the run's training text " + (
        "(--noraw_text: as given)"
    )
    assert not any(line.startswith("warning") for line in report[:2])
    assert report[2] == "raw text: read as given (--noraw_text)"
    assert report[-1].startswith("warning: the input's unknown-token rate")


@pytest.mark.slow
def test_predict_py_says_what_it_did_with_raw_text(run_dir, saved, tmp_path):
    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("How do I learn Python quickly?\tWhat's the fastest way to learn Python?\n")
    out = subprocess.run(
        [sys.executable, "experiments/predict.py", f"--run_dir={run_dir}", f"--input={pairs}"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=subprocess_env(),
    )
    assert out.returncode == 0, out.stderr
    assert "raw text: rewritten as ptb-pretokenized" in out.stderr
    assert "unknown tokens: " in out.stderr and "on the run's dev split" in out.stderr
    typed = ("How do I learn Python quickly?", "What's the fastest way to learn Python?")
    shipped = ("How do I learn Python quickly ?", "What 's the fastest way to learn Python ?")
    probabilities = [float(x) for x in out.stdout.splitlines()[1].split("\t")[2:]]
    assert probabilities == pytest.approx(saved.predict_pairs([shipped])[0].tolist(), abs=1e-5)
    assert saved.predict_pairs([typed]).tolist() == saved.predict_pairs([shipped]).tolist()
