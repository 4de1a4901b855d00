"""A missing, cut or malformed file that a run reads ends every entry point (train.py's
`run_experiment`, reproduce.py's `driver.train_pending` and the Makefile's reproduce targets,
which run reproduce.py) in one line naming the file, the line or byte, and the fix, with exit
status 2; the mistakes a cheap look finds stop the run before anything is cached.

Each mistake is planted in a small Quora set-up (BiMPM layout, full scale: train, dev and test
files) with text vectors of its own."""

import gzip
import re
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from gcnn_match import cli
from gcnn_match.config.overrides import apply_overrides
from gcnn_match.experiments import driver, planning, registry
from gcnn_match.training.loop import run_experiment

REPO = __import__("pathlib").Path(__file__).resolve().parents[2]
ROW = "gcnn/quora/cnn"
WORDS = [f"w{i}" for i in range(2000)]
# Enough vectors that a .gz holds more than gzip's first read (128 KiB): a cut is found while
# streaming, as with the 2 GB files, not by the first line's check.
VECTORS = "".join(
    word + "".join(f" {v:.6f}" for v in row) + "\n"
    for word, row in zip(WORDS, np.random.default_rng(0).normal(size=(len(WORDS), 50)))
).encode()


def _quora(data_dir):
    folder = data_dir / "quora" / "Quora_question_pair_partition"
    folder.mkdir(parents=True)
    for split in ("train", "dev", "test"):
        lines = [f"{i % 2}\tw{i} w{i + 1} ?\tw{i + 2} w{i + 3} ?\t{split}{i}\n" for i in range(40)]
        (folder / f"{split}.tsv").write_text("".join(lines))
    return folder


def cut_zip(data_dir):
    path = data_dir / "vectors.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("vectors.txt", VECTORS)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return path, (
        f"{path}: not a whole zip archive (File is not a zip file): a cut download lacks the "
        "directory at its end; download it again"
    )


def cut_gz(data_dir):
    path = data_dir / "vectors.txt.gz"
    data = gzip.compress(VECTORS)
    path.write_bytes(data[: len(data) - 1000])
    return path, (
        f"{path}: byte {len(data) - 1000:,}: the compressed stream breaks here, at the file's "
        "end (Compressed file ended before the end-of-stream marker was reached): the file is "
        "cut or damaged; download it again"
    )


def cut_txt(data_dir):
    path = data_dir / "vectors.txt"
    path.write_bytes(VECTORS[: len(VECTORS) - 200])
    last = VECTORS[: len(VECTORS) - 200].rpartition(b"\n")
    return path, (
        f"{path}: byte {len(last[0]) + 1:,}: its last line has {last[2].count(b' ')} values "
        "where the vectors have 50: the file is cut (an interrupted download or copy); "
        "download it again"
    )


def bad_data_line(data_dir):
    path = data_dir / "vectors.txt"
    path.write_bytes(VECTORS)
    train = data_dir / "quora" / "Quora_question_pair_partition" / "train.tsv"
    lines = train.read_text().splitlines(keepends=True)
    lines[16] = "1\tw1 w2 ?\ttrain16\n"
    train.write_text("".join(lines))
    return path, (
        f"{train}:17: expected 4 tab-separated columns, found 3 (a truncated line or a missing "
        "field: complete or remove the line)"
    )


def missing_train_file(data_dir):
    path = data_dir / "vectors.txt"
    path.write_bytes(VECTORS)
    folder = data_dir / "quora"
    (folder / "Quora_question_pair_partition" / "train.tsv").unlink()
    files = ", ".join(
        str(folder / name)
        for name in (
            "Quora_question_pair_partition/train.tsv",
            "re2_format/train.txt.gz",
            "re2_format/train.txt",
        )
    )
    return path, (
        f"quora split 'train': none of {files} exists; `python experiments/download.py "
        f"--dataset=quora --splits=train --data_dir={data_dir}` fetches it or says how to get it"
    )


MISTAKES = [cut_zip, cut_gz, cut_txt, bad_data_line, missing_train_file]
# Found before any data is prepared (the bad line: in the first file read): nothing may be
# cached. A cut .gz is found while the vectors stream, after the sound data files are read: no
# vectors may be cached (this row's whitespace tokens are not cached either, `worth_caching`).
FOUND_FIRST = {"cut_zip", "cut_txt", "bad_data_line", "missing_train_file"}


def _planted(tmp_path, mistake):
    data_dir = tmp_path / "data"
    _quora(data_dir)
    vectors, line = mistake(data_dir)
    config = apply_overrides(registry.get(ROW), [("embeddings", str(vectors))])
    return data_dir, config.replace(scale="full"), line


def _train(config, data_dir, tmp_path):
    run_experiment(config, tmp_path / "run", data_dir, tmp_path / "cache", log=lambda *_: None)


def _reproduce(config, data_dir, tmp_path):
    planned = planning.plan([config], [1], "full", tmp_path / "runs")
    driver.train_pending(planned, data_dir, tmp_path / "cache")


@pytest.mark.parametrize("entry", [_train, _reproduce], ids=["train", "reproduce"])
@pytest.mark.parametrize("mistake", MISTAKES, ids=lambda mistake: mistake.__name__)
def test_a_file_mistake_ends_in_one_line(tmp_path, monkeypatch, capsys, mistake, entry):
    data_dir, config, line = _planted(tmp_path, mistake)
    monkeypatch.setattr(sys, "argv", ["script"])
    with pytest.raises(SystemExit) as info:
        cli.run(lambda argv: entry(config, data_dir, tmp_path))
    assert info.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1:] == [f"error: {line}"]
    cached = sorted(p.relative_to(tmp_path) for p in (tmp_path / "cache").rglob("*.*"))
    if mistake.__name__ in FOUND_FIRST:
        assert cached == []
    else:
        assert all(p.parts[1] == "tokens" for p in cached), cached


@pytest.mark.slow
@pytest.mark.parametrize("script", ["train.py", "reproduce.py"])
def test_the_scripts_end_a_file_mistake_in_one_line(tmp_path, script):
    """The processes themselves: stderr holds the one line and nothing else."""
    data_dir, config, line = _planted(tmp_path, bad_data_line)
    flags = [f"--data_dir={data_dir}", f"--cache_dir={tmp_path / 'cache'}", "--scale=full"]
    flags += [f"--override=embeddings={config.embeddings}"]
    if script == "train.py":
        flags += [f"--experiment={ROW}", f"--model_dir={tmp_path / 'run'}"]
    else:
        flags += ["--dataset=quora", "--rows=CNN", f"--runs_dir={tmp_path / 'runs'}"]
    done = subprocess.run(
        [sys.executable, f"experiments/{script}", *flags],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 2, done.stderr[-3000:]
    assert [s for s in done.stderr.splitlines() if not re.match(r"^\s*$", s)] == [f"error: {line}"]
