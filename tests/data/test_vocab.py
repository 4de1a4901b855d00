import pytest

from gcnn_match.data.vocab import PAD, UNK, Vocabulary

SENTENCES = [["b", "a", "c"], ["a", "b", "d"], ["a", "e"], ["c"]]


def test_build_orders_by_count_then_token():
    vocab = Vocabulary.build(SENTENCES)
    assert vocab.tokens == [PAD, UNK, "a", "b", "c", "d", "e"]
    assert vocab.counts == {"a": 3, "b": 2, "c": 2, "d": 1, "e": 1}
    assert vocab.token_to_id(PAD) == 0 and vocab.token_to_id(UNK) == 1


def test_min_count_and_max_size():
    assert Vocabulary.build(SENTENCES, min_count=2).tokens[2:] == ["a", "b", "c"]
    assert Vocabulary.build(SENTENCES, max_size=2).tokens[2:] == ["a", "b"]
    assert len(Vocabulary.build(SENTENCES, max_size=2)) == 4


def test_build_ignores_literal_special_tokens():
    assert Vocabulary.build([["<unk>", "x", "<pad>"]]).tokens == [PAD, UNK, "x"]


def test_encode_decode_contains():
    vocab = Vocabulary.build(SENTENCES)
    assert vocab.encode(["a", "zzz", "e"]) == [2, 1, 6]
    assert vocab.decode([2, 1, 0]) == ["a", UNK, PAD]
    assert "a" in vocab and "zzz" not in vocab
    assert vocab.token_to_id("zzz") == 1


def test_duplicates_rejected():
    with pytest.raises(ValueError):
        Vocabulary(["a", "a"])
    with pytest.raises(ValueError):
        Vocabulary(["a", PAD])


def test_save_load_round_trip_with_awkward_tokens(tmp_path):
    awkward = [
        "naïve",
        "北京",
        "New York",
        "tab\there",
        "line\nbreak",
        "back\\slash",
        "\\n",
        "\u2028",
        "",
        "r\r",
    ]
    vocab = Vocabulary.build([awkward, awkward[:3]])
    path = tmp_path / "sub" / "vocab.txt"
    vocab.save(str(path))
    loaded = Vocabulary.load(str(path))
    assert loaded == vocab
    assert loaded.tokens == vocab.tokens
    assert loaded.counts == vocab.counts
    assert len(path.read_bytes().split(b"\n")) == len(vocab) + 1
    assert [p.name for p in path.parent.iterdir()] == ["vocab.txt"]


def test_save_load_without_counts(tmp_path):
    vocab = Vocabulary(["x", "y"])
    vocab.save(str(tmp_path / "v.txt"))
    loaded = Vocabulary.load(str(tmp_path / "v.txt"))
    assert loaded == vocab and loaded.counts is None
    assert (tmp_path / "v.txt").read_text(encoding="utf-8") == "<pad>\n<unk>\nx\ny\n"


def test_load_rejects_other_files(tmp_path):
    (tmp_path / "v.txt").write_text("a\nb\n", encoding="utf-8")
    with pytest.raises(ValueError):
        Vocabulary.load(str(tmp_path / "v.txt"))


def test_equality_and_fingerprint():
    assert Vocabulary(["a", "b"]) == Vocabulary(["a", "b"], {"a": 5, "b": 1})
    assert Vocabulary(["a", "b"]) != Vocabulary(["b", "a"])
    assert Vocabulary(["a", "b"]).fingerprint() == Vocabulary(["a", "b"]).fingerprint()
    assert Vocabulary(["a", "b"]).fingerprint() != Vocabulary(["b", "a"]).fingerprint()
