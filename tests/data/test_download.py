"""Downloads against a local HTTP server (never an external host), checksums, and the CLI."""

import dataclasses
import gzip
import hashlib
import http.server
import io
import subprocess
import sys
import threading
import zipfile
from typing import ClassVar

import pytest

from gcnn_match.data import registry
from gcnn_match.data.download import (
    ChecksumError,
    DownloadError,
    ensure_dataset,
    fetch,
    verify,
)
from gcnn_match.data.registry import DatasetSpec, FileSpec, MissingDataError
from tests.conftest import REPO, subprocess_env

PAYLOAD = bytes(range(256)) * 4000  # ~1 MB, so resuming has something to skip
SPLIT = b"q1\tq2\t1\nq3\tq4\t0\n"


def _zip(members):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buffer.getvalue()


FILES = {"/file.bin": PAYLOAD, "/corpus.zip": _zip({"corpus/dev.txt": SPLIT})}


class _Handler(http.server.BaseHTTPRequestHandler):
    """Serves FILES and honours `Range: bytes=N-` with a 206, as real file servers do."""

    requests: ClassVar[list] = []

    def do_GET(self):
        _Handler.requests.append((self.path, self.headers.get("Range")))
        data = FILES.get(self.path)
        if data is None:
            self.send_error(404)
            return
        start = 0
        if self.headers.get("Range"):
            start = int(self.headers["Range"].split("=")[1].rstrip("-"))
            if start >= len(data):
                self.send_error(416)
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(data) - start))
        self.end_headers()
        self.wfile.write(data[start:])

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch):
    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY"):
        monkeypatch.delenv(var, raising=False)
    _Handler.requests.clear()


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def test_fetch_verifies_and_renames(server, tmp_path):
    dest = fetch(f"{server}/file.bin", tmp_path / "sub" / "file.bin", sha256=_sha(PAYLOAD))
    assert dest.read_bytes() == PAYLOAD
    assert not (tmp_path / "sub" / "file.bin.part").exists()


def test_fetch_resumes_a_partial_file(server, tmp_path):
    part = tmp_path / "file.bin.part"
    part.write_bytes(PAYLOAD[:300_000])
    fetch(f"{server}/file.bin", tmp_path / "file.bin", sha256=_sha(PAYLOAD))
    assert (tmp_path / "file.bin").read_bytes() == PAYLOAD
    assert _Handler.requests == [("/file.bin", "bytes=300000-")]


def test_fetch_complete_part_gets_416_and_is_kept(server, tmp_path):
    (tmp_path / "file.bin.part").write_bytes(PAYLOAD)
    fetch(f"{server}/file.bin", tmp_path / "file.bin", sha256=_sha(PAYLOAD))
    assert (tmp_path / "file.bin").read_bytes() == PAYLOAD


def test_fetch_checksum_mismatch_deletes_part(server, tmp_path):
    wrong = "0" * 64
    with pytest.raises(ChecksumError) as info:
        fetch(f"{server}/file.bin", tmp_path / "file.bin", sha256=wrong)
    assert wrong in str(info.value) and _sha(PAYLOAD) in str(info.value)
    assert not (tmp_path / "file.bin.part").exists() and not (tmp_path / "file.bin").exists()


def test_fetch_extracts_zip_member(server, tmp_path):
    dest = tmp_path / "ds" / "corpus" / "dev.txt"
    fetch(
        f"{server}/corpus.zip",
        dest,
        sha256=_sha(SPLIT),
        member="corpus/dev.txt",
        archive=tmp_path / "ds" / "corpus.zip",
    )
    assert dest.read_bytes() == SPLIT
    with pytest.raises(DownloadError, match="no member 'corpus/train.txt'"):
        fetch(
            f"{server}/corpus.zip",
            tmp_path / "ds" / "train.txt",
            member="corpus/train.txt",
            archive=tmp_path / "ds" / "corpus.zip",
        )
    assert [path for path, _ in _Handler.requests] == ["/corpus.zip"]  # the zip is reused


def test_fetch_http_and_network_errors(server, tmp_path):
    with pytest.raises(DownloadError, match="HTTP 404"):
        fetch(f"{server}/nope", tmp_path / "nope")
    closed = server.rsplit(":", 1)[0] + ":9"  # discard port: nothing listens there
    with pytest.raises(DownloadError, match="could not fetch"):
        fetch(f"{closed}/file.bin", tmp_path / "file.bin", timeout=5)


def _toy_spec(url):
    """A dataset whose dev split downloads from the local server and whose test split has
    no URL."""
    return DatasetSpec(
        name="toy",
        description="test",
        task="classification",
        labels=("no", "yes"),
        splits={
            "dev": (
                FileSpec(
                    "toy/corpus/dev.txt",
                    "pair_label_tsv",
                    url=url,
                    member="corpus/dev.txt",
                    sha256=_sha(SPLIT),
                    labels={"0": 0, "1": 1},
                ),
            ),
            "test": (
                FileSpec(
                    "toy/test.txt", "pair_label_tsv", how_to_get="ask the authors for test.txt"
                ),
            ),
        },
    )


def test_ensure_dataset_fetches_then_lists_what_is_missing(server, tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "DATASETS", {"toy": _toy_spec(f"{server}/corpus.zip")})
    log = []
    report = ensure_dataset("toy", tmp_path, ["dev"], log=log.append)
    assert report.fetched == [("dev", tmp_path / "toy/corpus/dev.txt")]
    assert [ex.label for ex in registry.read_split("toy", "dev", tmp_path)] == [1, 0]

    report = ensure_dataset("toy", tmp_path, ["dev"], log=log.append)
    assert report.found == [("dev", tmp_path / "toy/corpus/dev.txt")] and not report.fetched

    with pytest.raises(MissingDataError) as info:
        ensure_dataset("toy", tmp_path, log=log.append)
    assert str(tmp_path / "toy/test.txt") in str(info.value)
    assert "ask the authors for test.txt" in str(info.value)


def test_ensure_dataset_network_failure_names_url(tmp_path, monkeypatch):
    url = "http://127.0.0.1:9/corpus.zip"
    monkeypatch.setattr(registry, "DATASETS", {"toy": _toy_spec(url)})
    with pytest.raises(MissingDataError) as info:
        ensure_dataset("toy", tmp_path, ["dev"], log=lambda _: None, timeout=5)
    assert url in str(info.value) and "failed: could not fetch" in str(info.value)


def test_verify_real_checksums(shared_data):
    for name in (
        "snli",
        "quora",
        "scitail",
        "lcqmc",
        "fever",
        "sick",
        "wikiqa",
        "yelp_stars_standin",
    ):
        checks = verify(name, shared_data)
        assert checks and all(check.ok for check in checks), [c.describe() for c in checks]


def test_verify_detects_mismatch_and_unpinned(tmp_path):
    bad = tmp_path / "quora/re2_format/dev.txt.gz"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(gzip.compress(b"q1\tq2\t1\n"))
    (tmp_path / "quora/re2_format/train.txt").write_text("q1\tq2\t1\n")
    checks = {(c.path.name, c.kind): c for c in verify("quora", tmp_path)}
    assert checks[("dev.txt.gz", "sha256")].ok is False
    assert checks[("dev.txt.gz", "content_sha256")].ok is False
    assert checks[("train.txt", None)].ok is None
    assert "MISMATCH" in checks[("dev.txt.gz", "sha256")].describe()


def _cli(*args):
    return subprocess.run(
        [sys.executable, str(REPO / "experiments" / "download.py"), *args],
        check=False,
        capture_output=True,
        text=True,
        env=subprocess_env(),
        timeout=60,
    )


def test_cli_verify_only(shared_data, tmp_path):
    done = _cli("--dataset=sick", f"--data_dir={shared_data}", "--verify_only")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1/1 datasets complete" in done.stdout

    done = _cli("--dataset=lcqmc", f"--data_dir={tmp_path}", "--verify_only", "--splits=dev")
    assert done.returncode == 1
    assert str(tmp_path / "lcqmc/dev.txt") in done.stdout and "HIT" in done.stdout


def test_file_spec_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        FileSpec("a", "b").path = "c"
