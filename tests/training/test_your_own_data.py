"""Sentence pairs of your own, no code: the same metrics through --train_file as through a
registered DatasetSpec, a run on a dataset registered in Python used by a fresh process, and
mistakes as one line (README's walkthrough: tests/test_readme_commands.py)."""

import json
import re
import subprocess
import sys

import pytest

from gcnn_match.config.overrides import apply_overrides
from gcnn_match.data import registry as data_registry
from gcnn_match.data.registry import DatasetSpec, FileSpec
from gcnn_match.experiments import registry
from gcnn_match.training.loop import run_experiment

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
# A tiny model and vectors, so that the runs take seconds; the same for every path compared.
TINY = {
    "variant": "cnn",
    "hidden": 8,
    "context_layers": 1,
    "aggregation_layers": 1,
    "mlp_hidden": 8,
}
TINY_FLAGS = [
    "--model_kwargs=" + ",".join(f"{k}={v}" for k, v in TINY.items()),
    "--embeddings=random",
    "--override=embedding_dim=8",
    "--epochs=2",
    "--batch_size=16",
]
TINY_CHANGES = [
    ("model_kwargs", TINY),
    ("embeddings", "random"),
    ("embedding_dim", 8),
    ("epochs", 2),
    ("batch_size", 16),
]


def _run(args, **kwargs):
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=600, **kwargs
    )


def _write_pairs(folder, split, count, offset=0):
    """`a<TAB>b<TAB>label` lines: "same" when both sides name the same colour."""
    colours = ["red", "green", "blue", "black", "white"]
    lines = []
    for i in range(offset, offset + count):
        a, b = colours[i % 5], colours[(i // 2) % 5]
        lines.append(f"the {a} car {i}\tis it {b} ?\t{'same' if a == b else 'different'}\n")
    (folder / f"{split}.tsv").write_text("".join(lines), "utf-8")


@pytest.fixture(scope="module")
def registered_run(tmp_path_factory):
    """A run on a dataset registered in Python (a DatasetSpec over the RE2 layout reader)."""
    root = tmp_path_factory.mktemp("registered")
    (root / "data" / "colours").mkdir(parents=True)
    for split, count, offset in (("train", 120, 0), ("dev", 30, 120), ("test", 30, 150)):
        _write_pairs(root / "data" / "colours", split, count, offset)
    spec = DatasetSpec(
        name="colours",
        description="Colour pairs written by this test.",
        task="classification",
        labels=("different", "same"),
        splits={
            split: (FileSpec(f"colours/{split}.tsv", "pair_label_tsv", how_to_get="test"),)
            for split in ("train", "dev", "test")
        },
    )
    real = data_registry.DATASETS
    data_registry.DATASETS = {**real, spec.name: spec}
    try:
        config = apply_overrides(registry.get("gcnn/quora/cnn"), TINY_CHANGES).replace(
            dataset="colours", train_split="train", dev_split="dev", test_split="test"
        )
        run_experiment(config, root / "run", root / "data", root / "cache", log=lambda *_: None)
    finally:
        data_registry.DATASETS = real
    return root


@pytest.mark.slow
def test_train_file_ends_with_the_metrics_of_the_registered_path(registered_run, tmp_path):
    folder = registered_run / "data" / "colours"
    trained = _run(
        [
            "experiments/train.py",
            "--experiment=gcnn/quora/cnn",
            f"--train_file={folder / 'train.tsv'}",
            f"--dev_file={folder / 'dev.tsv'}",
            f"--test_file={folder / 'test.tsv'}",
            f"--model_dir={tmp_path / 'run'}",
            f"--cache_dir={tmp_path / 'cache'}",
            *TINY_FLAGS,
        ]
    )
    assert trained.returncode == 0, trained.stderr
    assert (
        "train.tsv: line 1 is read as a pair: its label field 'same' is a label" in trained.stdout
    )
    runs = (tmp_path / "run", registered_run / "run")
    ours, theirs = (json.loads((run / "metrics.json").read_text()) for run in runs)
    for key in ("dev_accuracy", "test_accuracy", "best_epoch", "epochs_run", "examples"):
        assert ours[key] == theirs[key], key
    ours, theirs = (
        [json.loads(line)["train_loss"] for line in (run / "epochs.jsonl").read_text().splitlines()]
        for run in runs
    )
    assert ours == theirs
    ours, theirs = ((run / "predictions" / "test.tsv").read_text() for run in runs)
    assert ours == theirs


@pytest.mark.slow
def test_a_run_on_a_dataset_registered_in_python_is_usable_from_a_fresh_process(registered_run):
    run, data = registered_run / "run", registered_run / "data"
    (registered_run / "new.tsv").write_text("a\tb\tc\nthe red car 9\tis it red ?\tsame\n")
    predicted = _run(
        ["experiments/predict.py", f"--run_dir={run}", f"--input={registered_run / 'new.tsv'}"]
    )
    assert predicted.returncode == 0, predicted.stderr
    assert "new.tsv: line 1 is a header: its label field 'c' is not a label" in predicted.stderr
    assert [line.split("\t")[0] for line in predicted.stdout.splitlines()] == ["uid", "new.tsv:2"]
    evaluated = _run(
        ["experiments/evaluate.py", f"--run_dir={run}", "--split=test", f"--data_dir={data}"]
    )
    assert evaluated.returncode == 0, evaluated.stderr
    metrics = json.loads((run / "metrics.json").read_text())
    assert json.loads(evaluated.stdout)["accuracy"] == pytest.approx(metrics["test_accuracy"])


MISTAKES = [
    # command line (after the script) -> the one line on stderr
    (
        ["train.py", "--experiment=gcnn/quora/cnn", "--train_split=/path/train.txt"],
        "error: --train_split: quora has no split '/path/train.txt' (splits: train, dev, test); "
        "a file of your own is --train_file",
    ),
    (
        ["train.py", "--experiment=gcnn/quora/cnnn", "--train_file=examples/entailment/train.tsv"],
        "error: --experiment: unknown experiment 'gcnn/quora/cnnn' (did you mean "
        "'gcnn/quora/cnn'?); `experiments/reproduce.py --list` prints every registered row",
    ),
    (
        [
            "train.py",
            "--experiment=clstm/wikiqa/nbow",
            "--train_file=examples/entailment/train.tsv",
        ],
        "error: --experiment: clstm/wikiqa/nbow is a ranking row and entailment a "
        "classification dataset; pick a row of its task (reproduce.py --list)",
    ),
    (
        ["train.py", "--dataset_file={tmp}/mine.json", "--experiment=gcnn/quora/cnn"],
        "error: --dataset_file: {tmp}/mine.json:1:1: not JSON (Expecting value); fix it, or "
        "write it again with train.py --write_dataset_file",
    ),
    (
        ["train.py", "--model=esim", "--dev_file=examples/entailment/test.tsv"],
        "error: --dev_file: describes files of your own: give --train_file too",
    ),
    (
        ["reproduce.py", "--dataset_file={tmp}/mine.json", "--paper=GCNN"],
        "error: --dataset_file: {tmp}/mine.json:1:1: not JSON (Expecting value); fix it, or "
        "write it again with train.py --write_dataset_file",
    ),
    (["evaluate.py", "--split=test"], "error: give --run_dir or --export_dir"),
    (["predict.py", "--input=-"], "error: give --run_dir or --export_dir"),
    (
        ["reproduce.py", "--rows=GCNN,GCNNN", "--report_only"],
        "error: --rows: no registered row is named 'GCNNN'; see --list",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("args, message", MISTAKES)
def test_script_mistakes_are_one_line(tmp_path, args, message):
    (tmp_path / "mine.json").write_text("name: mine\n")
    script, *flags = (a.format(tmp=tmp_path) for a in args)
    result = _run([f"experiments/{script}", *flags])
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [message.format(tmp=tmp_path)]


@pytest.mark.slow
def test_a_file_too_small_for_the_held_out_split_is_one_line(tmp_path):
    tiny = tmp_path / "train.tsv"
    tiny.write_text("".join(f"a{i} b\tc{i} d\t{i % 2}\n" for i in range(5)))
    result = _run(
        [
            "experiments/train.py",
            f"--train_file={tiny}",
            "--dataset_name=tiny",
            "--model=esim",
            "--embeddings=random",
            f"--model_dir={tmp_path / 'run'}",
            f"--cache_dir={tmp_path / 'cache'}",
        ]
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [
        "error: --holdout_fraction: the dev split of tiny has no examples left after the "
        "held-out split (0.1) of its 5 training pairs; raise --holdout_fraction or give "
        "selection pairs of their own (--dev_file; --dev_split for a registered dataset)"
    ]


@pytest.mark.slow
def test_predict_never_takes_a_header_for_a_pair(registered_run, tmp_path):
    only_header = tmp_path / "pairs.tsv"
    only_header.write_text("question1\tquestion2\tis_duplicate\n")
    result = _run(
        ["experiments/predict.py", f"--run_dir={registered_run / 'run'}", f"--input={only_header}"]
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0].endswith(
        "line 1 is a header: its label field 'is_duplicate' is not a label "
        "(--header=yes or --header=no decides otherwise)"
    )
    assert re.match(
        r"error: --input: .*pairs.tsv:1: no examples \(1 lines read, 0 skipped, 1 h", lines[1]
    )
