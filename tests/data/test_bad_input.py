"""Bad input, one case per row of the table of docs/bad-input.md.

Each case either stops with an error naming the file (or URL), the line and the fix, or is
handled in a documented way and counted. None may give a silently wrong result.
"""

import gzip
import hashlib
import http.server
import io
import json
import struct
import sys
import threading
import zipfile

import numpy as np
import pytest

from gcnn_match.data import readers
from gcnn_match.data import registry as data_registry
from gcnn_match.data.download import ChecksumError, DownloadError, fetch
from gcnn_match.data.embeddings import build_embedding_matrix, check_source
from gcnn_match.data.experiment_data import apply_scale, prepare_data
from gcnn_match.data.own_data_reader import read_pairs
from gcnn_match.data.pipeline import PairEncoder, TokenizedPair
from gcnn_match.data.reading import ReaderError, ReadStats
from gcnn_match.data.registry import DatasetSpec, FileSpec
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.data.vocab import Vocabulary
from gcnn_match.experiments import registry
from gcnn_match.files import write_json
from gcnn_match.models.registry import ModelInputs, build_model, input_features
from gcnn_match.training.loop import model_input_shapes
from gcnn_match.training.predict import TrainedModel
from gcnn_match.training.run_dir import RunDirectory

PAYLOAD = b"q1\tq2\t1\n" * 5000


class _Server(http.server.BaseHTTPRequestHandler):
    """/full sends the whole payload; /cut announces it but closes the connection halfway."""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(PAYLOAD)))
        self.end_headers()
        self.wfile.write(PAYLOAD if self.path == "/full" else PAYLOAD[: len(PAYLOAD) // 2])
        self.close_connection = True

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Server)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.delenv(var, raising=False)


def _file(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def _pairs(path, **options):
    return lambda: list(read_pairs(path, **options))


def _tsv(path):
    return lambda: list(readers.read_pair_label_tsv(path, labels={"0": 0, "1": 1}))


def _vectors(tmp_path, text):
    path = _file(tmp_path, "vectors.txt", text)
    vocab = Vocabulary(["cat", "dog"])
    return path, lambda: build_embedding_matrix(vocab, str(path))


# --- errors: (exception, where, what, fix) -----------------------------------------------------


def non_utf8_file(tmp_path, server):
    path = _file(tmp_path, "pairs.tsv", b"a\tb\t0\ncaf\xe9\tb\t1\n")
    return _tsv(path), ReaderError, f"{path}:2:", "not UTF-8", "convert the file to UTF-8"


def non_utf8_stdin(tmp_path, server):
    class Stdin:
        buffer = io.BytesIO(b"ok\tfine\n\xff\xfe\tb\n")

    def read():
        real = sys.stdin
        sys.stdin = Stdin
        try:
            return list(read_pairs("-", a=0, b=1))
        finally:
            sys.stdin = real

    return read, ReaderError, "<stdin>:2:", "not UTF-8", "convert the file to UTF-8"


def missing_column(tmp_path, server):
    path = _file(tmp_path, "pairs.tsv", "a\tb\t0\na\tb\n")
    return (
        _tsv(path),
        ReaderError,
        f"{path}:2:",
        "expected 3 tab-separated columns, found 2",
        "complete or remove the line",
    )


def extra_column(tmp_path, server):
    path = _file(tmp_path, "pairs.tsv", "a\tb\t0\na\tb\twith a tab\t1\n")
    return (
        _tsv(path),
        ReaderError,
        f"{path}:2:",
        "expected 3 tab-separated columns, found 4",
        "quote the texts and read the file as csv",
    )


def extra_column_generic_reader(tmp_path, server):
    path = _file(tmp_path, "mine.tsv", "q\tr\tlabel\nx\ty\t1\nx\ty\tz\t1\n")
    return (
        _pairs(path, a="q", b="r", header=True),
        ReaderError,
        f"{path}:3:",
        "4 tab-separated columns where line 1 has 3",
        "a tab inside a text?",
    )


def missing_json_key(tmp_path, server):
    path = _file(tmp_path, "pairs.jsonl", json.dumps({"s1": "x", "label": "yes"}) + "\n")
    return (
        _pairs(path, fmt="jsonl", a="s1", b="s2"),
        ReaderError,
        f"{path}:1:",
        "missing key 's2'",
        "the line has: s1, label",
    )


def unknown_label(tmp_path, server):
    path = _file(tmp_path, "pairs.tsv", "a\tb\t1\na\tb\tmaybe\n")
    return (
        _tsv(path),
        ReaderError,
        f"{path}:2:",
        "unknown label 'maybe' (known: '0', '1')",
        "correct or remove the line",
    )


def empty_split_file(tmp_path, server):
    path = _file(tmp_path, "dev.tsv", "")
    return (
        _tsv(path),
        ReaderError,
        f"{path}:0:",
        "no examples (0 lines read",
        "check the path or download it again",
    )


def blank_split_file(tmp_path, server):
    path = _file(tmp_path, "dev.tsv", "\n\n\n")
    return (
        _tsv(path),
        ReaderError,
        f"{path}:3:",
        "no examples (3 lines read, 3 skipped)",
        "check the path or download it again",
    )


def truncated_gzip(tmp_path, server):
    path = _file(tmp_path, "dev.tsv.gz", gzip.compress(PAYLOAD)[:-40])
    return (
        _tsv(path),
        ReaderError,
        f"{path}:",
        "corrupt gzip data",
        "the file is truncated or damaged: download it again",
    )


def truncated_download(tmp_path, server):
    dest = tmp_path / "dev.tsv"
    return (
        lambda: fetch(f"{server}/cut", dest),
        DownloadError,
        f"{server}/cut",
        f"truncated download, {len(PAYLOAD) // 2:,} of {len(PAYLOAD):,} bytes",
        "rerun to resume",
    )


def wrong_checksum(tmp_path, server):
    dest = tmp_path / "dev.tsv"
    return (
        lambda: fetch(f"{server}/full", dest, sha256="0" * 64),
        ChecksumError,
        f"{server}/full",
        f"expected {'0' * 64}, got {hashlib.sha256(PAYLOAD).hexdigest()}",
        "Rerun to fetch it again",
    )


def embedding_line_too_short(tmp_path, server):
    path, build = _vectors(tmp_path, "cat 0.1 0.2 0.3\ndog 0.4 0.5\n")
    return (
        build,
        ValueError,
        f"{path}:2:",
        "2 values where the vectors have 3",
        "download it again",
    )


def embedding_line_too_long(tmp_path, server):
    path, build = _vectors(tmp_path, "cat 0.1 0.2 0.3\ndog 0.4 0.5 0.6 0.7\n")
    return (
        build,
        ValueError,
        f"{path}:2:",
        "4 values where the vectors have 3",
        "download it again",
    )


def truncated_word2vec(tmp_path, server):
    data = b"2 3\n" + b"cat " + struct.pack("<3f", 1, 2, 3) + b"\ndog " + struct.pack("<f", 1)
    path = _file(tmp_path, "vectors.bin", data)
    vocab = Vocabulary(["cat", "dog"])
    return (
        lambda: build_embedding_matrix(vocab, str(path)),
        ValueError,
        f"{path}:",
        "ends before its header's word count (2)",
        "truncated: download it again",
    )


def word2vec_shorter_than_its_header(tmp_path, server):
    data = b"3 3\n" + b"cat " + struct.pack("<3f", 1, 2, 3) + b"\n"
    path = _file(tmp_path, "vectors.bin", data)
    return (
        lambda: check_source(str(path)),
        ReaderError,
        f"{path}: 21 bytes, fewer than the 46",
        "its header's 3 vectors of 3 values take at least",
        "the file is cut; download it again",
    )


def a_web_page_for_vectors(tmp_path, server):
    path = _file(tmp_path, "vectors.txt", "<!DOCTYPE html>\n<html><body>Moved</body></html>\n")
    return (
        lambda: check_source(str(path)),
        ReaderError,
        f"{path}:1:",
        "not a line of vectors 'word v1 ... vN' (b'<!DOCTYPE html>')",
        "is it the vectors file? download it again",
    )


def a_zip_without_the_vectors(tmp_path, server):
    (tmp_path / "embeddings").mkdir()
    path = tmp_path / "embeddings" / "glove.6B.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("glove.6B.100d.txt", "cat 0.1 0.2\n")
    return (
        lambda: check_source("glove.6B.50d", str(tmp_path)),
        ReaderError,
        f"{path}:",
        "holds no glove.6B.50d.txt (it holds glove.6B.100d.txt)",
        "download it again",
    )


def empty_split_after_holdout(tmp_path, server):
    toy = DatasetSpec(
        name="toy",
        task="classification",
        labels=("0", "1"),
        splits={
            split: (FileSpec(f"toy/{split}.tsv", "pair_label_tsv"),) for split in ("dev", "test")
        },
    )
    (tmp_path / "toy").mkdir()
    for split in ("dev", "test"):
        _file(tmp_path, f"toy/{split}.tsv", "".join(f"a{i}\tb{i}\t{i % 2}\n" for i in range(8)))
    config = registry.get("gcnn/quora/cnn").replace(
        dataset="toy", scale="low-resource", holdout_fraction=0.01
    )

    def prepare():
        real = data_registry.DATASETS
        data_registry.DATASETS = {"toy": toy}
        try:
            return prepare_data(apply_scale(config), tmp_path)
        finally:
            data_registry.DATASETS = real

    return (
        prepare,
        ValueError,
        "the dev split of toy",
        "has no examples left after the held-out split (0.01)",
        "raise --holdout_fraction",
    )


def _saved_run(tmp_path, tokens=("what", "is", "it", "?")):
    """A run directory as training leaves it (tiny CNN, weights never trained)."""
    run = RunDirectory(tmp_path / "run").create()
    config = registry.get("gcnn/quora/cnn").replace(
        model_kwargs={
            "variant": "cnn",
            "hidden": 4,
            "context_layers": 1,
            "aggregation_layers": 1,
            "mlp_hidden": 4,
        }
    )
    encoder = PairEncoder(TextPolicy(), Vocabulary(list(tokens)), 40, 40)
    inputs = ModelInputs(vocab_size=len(encoder.vocab), num_classes=2, embedding_dim=4)
    model = build_model(config.model, inputs, **config.model_kwargs)
    model.save_weights(run.best_weights)
    write_json(run / "config.json", config.to_dict())
    write_json(run / "model_inputs.json", model_input_shapes(inputs))
    encoder.save(run / "preprocessing")
    return run, encoder


def run_vocabulary_not_its_weights(tmp_path, server):
    run, _ = _saved_run(tmp_path)
    Vocabulary(["what", "is", "it", "?", "new"]).save(run / "preprocessing" / "vocab.txt")
    return (
        lambda: TrainedModel.from_run(run.path),
        ValueError,
        f"{run / 'preprocessing' / 'vocab.txt'}: 7 entries",
        f"the weights were trained with 6 ({run / 'model_inputs.json'})",
        "belongs to another run: restore the run's own",
    )


def run_weights_not_its_model(tmp_path, server):
    run, _ = _saved_run(tmp_path)
    other, _ = _saved_run(tmp_path / "other", tokens=("a", "b"))
    (run / "checkpoints" / "best.weights.h5").write_bytes(other.best_weights.read_bytes())
    return (
        lambda: TrainedModel.from_run(run.path),
        ValueError,
        f"{run.best_weights}",
        "does not fit the model that config.json and model_inputs.json describe "
        "(word_embedding: variable.shape=(6, 4), Received: value.shape=(4, 4))",
        "restore the run's own files, or retrain",
    )


def export_vocabulary_not_its_model(tmp_path, server):
    run, _ = _saved_run(tmp_path)
    export = TrainedModel.from_run(run.path).export(tmp_path / "export", saved_model=False)
    Vocabulary(["what", "is", "it", "!"]).save(export / "preprocessing" / "vocab.txt")
    return (
        lambda: TrainedModel.from_export(export),
        ValueError,
        f"{export / 'preprocessing' / 'vocab.txt'}",
        "is not the vocabulary model.keras was exported with",
        "export the run again",
    )


ERRORS = [
    non_utf8_file,
    non_utf8_stdin,
    missing_column,
    extra_column,
    extra_column_generic_reader,
    missing_json_key,
    unknown_label,
    empty_split_file,
    blank_split_file,
    empty_split_after_holdout,
    truncated_gzip,
    truncated_download,
    wrong_checksum,
    embedding_line_too_short,
    embedding_line_too_long,
    truncated_word2vec,
    word2vec_shorter_than_its_header,
    a_web_page_for_vectors,
    a_zip_without_the_vectors,
    run_vocabulary_not_its_weights,
    run_weights_not_its_model,
    export_vocabulary_not_its_model,
]


@pytest.mark.parametrize("case", ERRORS, ids=lambda case: case.__name__)
def test_bad_input_stops_with_where_what_and_fix(case, tmp_path, server):
    trigger, error, where, what, fix = case(tmp_path, server)
    with pytest.raises(error) as info:
        trigger()
    message = str(info.value)
    assert where in message, message
    assert what in message and fix in message, message


def test_a_failed_download_leaves_nothing_at_the_final_path(tmp_path, server):
    for case in (truncated_download, wrong_checksum):
        trigger, error, *_ = case(tmp_path, server)
        with pytest.raises(error):
            trigger()
        assert not (tmp_path / "dev.tsv").exists()
    with pytest.raises(DownloadError):  # a cut download keeps its part for resuming
        fetch(f"{server}/cut", tmp_path / "dev.tsv", resume=False)
    assert (tmp_path / "dev.tsv.part").stat().st_size == len(PAYLOAD) // 2


# --- documented, counted handling ------------------------------------------------------------


def test_blank_lines_and_unlabelled_nli_pairs_are_counted_skips(tmp_path):
    stats = ReadStats()
    path = _file(tmp_path, "pairs.tsv", "a\tb\t0\n\n \nc\td\t1\n")
    assert len(list(readers.read_pair_label_tsv(path, stats=stats))) == 2
    assert stats.summary() == "pairs.tsv: 2 examples, skipped 2 (blank line)"
    line = {"gold_label": "-", "sentence1": "a", "sentence2": "b"}
    nli = _file(
        tmp_path,
        "snli.jsonl",
        json.dumps(line) + "\n" + json.dumps(dict(line, gold_label="neutral")) + "\n",
    )
    stats = ReadStats()
    assert [ex.label for ex in readers.read_nli_jsonl(nli, stats=stats)] == [1]
    assert stats.skipped == {"gold_label '-'": 1}


def test_texts_over_the_cut_off_keep_their_first_tokens_and_are_counted():
    encoder = PairEncoder(TextPolicy(), Vocabulary([f"w{i}" for i in range(50)]), 5, 7)
    pairs = [
        TokenizedPair([f"w{i % 50}" for i in range(10_000)], ["w1"]),
        TokenizedPair(["w2", "w3"], [f"w{i}" for i in range(8)]),
    ]
    encoded = [encoder.encode_pair(pair) for pair in pairs]
    assert [len(e["a_ids"]) for e in encoded] == [5, 2]
    assert [len(e["b_ids"]) for e in encoded] == [1, 7]
    np.testing.assert_array_equal(encoded[0]["a_ids"], encoder.vocab.encode(pairs[0].a[:5]))
    assert encoder.length_notes("dev", pairs) == [
        "dev: 1 of 2 first texts longer than the cut-off (longest 10000 tokens) keep their first 5",
        "dev: 1 of 2 second texts longer than the cut-off (longest 8 tokens) keep their first 7",
    ]


@pytest.mark.slow
def test_empty_texts_are_kept_counted_and_predicted_finitely(tmp_path):
    run, _ = _saved_run(tmp_path)
    saved = TrainedModel.from_run(run.path)
    probabilities = saved.predict_pairs(
        [("", "what is it ?"), ("what is it ?", "   "), ("what is it ?", "what is it ?")]
    )
    assert probabilities.shape == (3, 2) and np.isfinite(probabilities).all()
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, atol=1e-6)
    assert saved.notes == [
        "input: 1 of 3 first texts have no tokens (kept: the model sees only padding on that side)",
        "input: 1 of 3 second texts have no tokens"
        " (kept: the model sees only padding on that side)",
    ]


def _one_row_per_model():
    rows = {}
    for config in registry.select():
        rows.setdefault(config.model, config)
    return list(rows.values())


@pytest.mark.parametrize("config", _one_row_per_model(), ids=lambda config: config.model)
def test_every_model_gives_finite_outputs_for_an_empty_side(config):
    features = input_features(config.model, **config.model_kwargs)
    inputs = ModelInputs(
        vocab_size=30,
        num_classes=len(data_registry.get_dataset(config.dataset).labels),
        embedding_dim=8,
        max_chars=4,
        char_vocab_size=12 if features.chars else None,
        pos_vocab_size=48 if features.pos else None,
    )
    model = build_model(config.model, inputs, **config.model_kwargs)
    rng = np.random.RandomState(0)
    a, b = rng.randint(1, 30, (2, 8)), rng.randint(1, 30, (2, 8))
    a[0], b[1] = 0, 0  # pair 0 has no a, pair 1 no b: that side is all padding
    batch = {"a_ids": a, "b_ids": b}
    if inputs.char_vocab_size:
        batch.update(
            a_chars=rng.randint(1, 12, (2, 8, 4)) * (a[..., None] > 0),
            b_chars=rng.randint(1, 12, (2, 8, 4)) * (b[..., None] > 0),
        )
    if inputs.pos_vocab_size:
        batch.update(
            a_pos=rng.randint(1, 48, (2, 8)) * (a > 0), b_pos=rng.randint(1, 48, (2, 8)) * (b > 0)
        )
    outputs = np.asarray(model({k: v.astype("int32") for k, v in batch.items()}))
    assert np.isfinite(outputs).all(), outputs
