"""The encoded arrays against a per-pair recomputation: vocabularies, every feature's padded
batches, unknown words' characters, and resumed training datasets."""

import collections

import numpy as np
import pytest

from gcnn_match.data import pos
from gcnn_match.data.example import Example
from gcnn_match.data.pipeline import (
    EncodedSplit,
    PairEncoder,
    TokenizedPair,
    batches_dataset,
    evaluation_dataset,
    even_batches,
    training_dataset,
    training_schedule,
)
from gcnn_match.data.ragged_ids import RaggedIds
from gcnn_match.data.tokenizers import TextPolicy
from gcnn_match.data.vocab import PAD, UNK

POLICY = TextPolicy(tokenizer="whitespace", lowercase=False, use_given_tokens=True)
WORDS = [f"w{i}" for i in range(25)] + ["abcdefghij", "é€ß", "<unk>", "a\tb"]
TAGS = ["NN", "VB", "DT", "-LRB-", "XX"]
CUTS = {"a": 12, "b": 6}
MAX_CHARS = 4


def _pairs(n, seed, words=WORDS):
    rng = np.random.RandomState(seed)
    pairs = []
    for i in range(n):
        a = [str(w) for w in rng.choice(words, rng.randint(0 if i % 9 == 0 else 1, 16))]
        b = [str(w) for w in rng.choice(words, rng.randint(1, 9))]
        pairs.append(
            TokenizedPair(
                a,
                b,
                [str(t) for t in rng.choice(TAGS, len(a))],
                [str(t) for t in rng.choice(TAGS, len(b))],
                [1 + k // 5 for k in range(len(a))],
            )
        )
    return pairs


def _examples(pairs):
    return [
        Example(a=" ".join(p.a), b=" ".join(p.b), label=i % 3, uid=f"u{i}", group=f"g{i // 4}")
        for i, p in enumerate(pairs)
    ]


def _encoder(pairs, min_count=2):
    return PairEncoder.fit(
        pairs,
        POLICY,
        CUTS["a"],
        CUTS["b"],
        min_count=min_count,
        chars=True,
        max_chars=MAX_CHARS,
        pos=True,
        segments=True,
    )


def _reference_rows(encoder, pairs):
    """Feature name -> one array per pair, recomputed token by token from the vocabularies."""
    rows = collections.defaultdict(list)
    for pair in pairs:
        for side in ("a", "b"):
            tokens = getattr(pair, side)[: CUTS[side]]
            rows[f"{side}_ids"].append(np.array([encoder.vocab.token_to_id(t) for t in tokens]))
            grid = np.zeros((len(tokens), MAX_CHARS), np.int32)
            for k, token in enumerate(tokens):
                ids = [encoder.char_vocab.token_to_id(c) for c in token[:MAX_CHARS]]
                grid[k, : len(ids)] = ids
            rows[f"{side}_chars"].append(grid)
            tags = getattr(pair, f"{side}_pos")[: len(tokens)]
            rows[f"{side}_pos"].append(np.array(pos.pos_ids(tags)))
        rows["a_segments"].append(np.array(pair.a_segments[: CUTS["a"]]))
    return rows


def _reference_batch(rows, index, bucket_width=8, fixed=False):
    """Feature name -> (B, T, ...) int32: the rows of `index` (-1 - i: a copy of pair i)
    zero-padded to the longest rounded up to `bucket_width`, at most the cut-off."""
    index = np.where(index >= 0, index, -1 - index)
    out = {}
    for name, arrays in rows.items():
        chosen = [arrays[i] for i in index]
        cap = CUTS[name[0]]
        longest = max(len(x) for x in chosen)
        target = max(cap if fixed else min(-(-longest // bucket_width) * bucket_width, cap), 1)
        dense = np.zeros((len(chosen), target, *arrays[0].shape[1:]), np.int32)
        for k, x in enumerate(chosen):
            dense[k, : len(x)] = x
        out[name] = dense
    return out


def _assert_same(features, expected):
    assert sorted(features) == sorted(expected)
    for name, value in features.items():
        value = value.numpy()
        assert value.dtype == np.int32, name
        np.testing.assert_array_equal(value, expected[name], err_msg=name)


def test_the_character_vocabulary_counts_every_token_occurrence():
    rare = TokenizedPair(["xyzzy", "w1"], ["qoph"], ["NN"] * 2, ["NN"], [1, 1])
    pairs = _pairs(60, 0) + [rare]
    encoder = _encoder(pairs, min_count=3)
    counts = collections.Counter(c for p in pairs for token in p.a + p.b for c in token)
    expected = sorted(counts, key=lambda c: (-counts[c], c))
    assert encoder.char_vocab.tokens == [PAD, UNK, *expected]
    assert encoder.char_vocab.counts == dict(counts)
    # Characters of words below min_count (dropped from the word vocabulary) still count.
    assert "xyzzy" not in encoder.vocab and {"x", "y", "q"} <= set(encoder.char_vocab.tokens)


@pytest.mark.slow
def test_every_feature_batches_like_the_per_pair_arrays():
    train = _pairs(80, 1)
    encoder = _encoder(train)
    unseen = _pairs(40, 2, WORDS + ["zzq", "qqz", "Unseen!"])
    names = encoder.feature_names()
    for pairs in (train, unseen):
        split = encoder.encode("s", _examples(pairs), pairs)
        rows = _reference_rows(encoder, pairs)
        np.testing.assert_array_equal(
            split.lengths(), [max(len(a), len(b)) for a, b in zip(rows["a_ids"], rows["b_ids"])]
        )
        for padding in ("bucket", "fixed"):
            ds, order = evaluation_dataset(split, 7, names, CUTS, padding=padding, multiple=2)
            start = 0
            for features, labels, _ in ds:
                index = order[start : start + len(labels)]
                start += len(labels)
                _assert_same(features, _reference_batch(rows, index, fixed=padding == "fixed"))
        ds, _ = training_dataset(split, 6, names, CUTS, seed=3, first_epoch=0, epochs=2, multiple=4)
        batches = [b for e in range(2) for b in training_schedule(split.lengths(), 6, 3, e)]
        expected = even_batches(batches, 4)
        assert len(list(ds)) == len(expected)
        for (features, labels, _), index in zip(ds, expected):
            _assert_same(features, _reference_batch(rows, index))
            np.testing.assert_array_equal(
                labels, split.labels[np.where(index >= 0, index, -1 - index)]
            )


def test_unknown_words_keep_their_own_characters():
    encoder = _encoder(_pairs(40, 0))
    pair = TokenizedPair(["ab", "ba", "w1"], ["w2"], ["NN"] * 3, ["NN"], [1, 1, 1])
    encoded = encoder.encode_pair(pair)
    assert encoded["a_ids"].tolist()[:2] == [1, 1]  # both unknown words
    a, b = encoder.char_vocab.token_to_id("a"), encoder.char_vocab.token_to_id("b")
    assert encoded["a_chars"].shape == (3, MAX_CHARS)
    assert encoded["a_chars"][:2].tolist() == [[a, b, 0, 0], [b, a, 0, 0]] and a != b > 1


def _batches(ds):
    return [[value.numpy() for value in (*b[0].values(), *b[1:])] for b in ds]


@pytest.mark.slow
@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("multiple", [1, 3])
def test_a_resumed_training_dataset_is_the_tail_of_the_whole_one(grouped, multiple):
    pairs = _pairs(70, 4)
    encoder = _encoder(pairs)
    split = encoder.encode("train", _examples(pairs), pairs)
    extra = {}
    if grouped:
        groups = np.arange(len(split)) // 4
        groups[::11] = -1  # left out of the ranking schedule
        extra = {"group_ids": groups, "targets": np.stack([split.labels, groups], axis=1)}
    names = encoder.feature_names()

    def dataset(first_epoch, first_step):
        ds, steps = training_dataset(
            split,
            5,
            names,
            CUTS,
            7,
            first_epoch,
            3,
            multiple=multiple,
            first_step=first_step,
            **extra,
        )
        return _batches(ds), steps

    whole, steps = dataset(0, 0)
    assert len(whole) == 3 * steps
    for first_epoch, first_step in ((1, 0), (1, 2), (2, steps - 1)):
        resumed, _ = dataset(first_epoch, first_step)
        tail = whole[first_epoch * steps + first_step :]
        assert len(resumed) == len(tail)
        for got, want in zip(resumed, tail):
            assert len(got) == len(want)
            for x, y in zip(got, want):
                np.testing.assert_array_equal(x, y)


def test_empty_rows_pad_to_one_slot_and_never_read_a_neighbour():
    """Rows of length 0 (a text without tokens) are all padding, also when every row of the
    split is empty, and a row never reads past its end into the next row's ids."""
    split = EncodedSplit(
        "s",
        {
            "a_ids": RaggedIds.from_rows([[5, 6, 7], [], [8]]),
            "b_ids": RaggedIds.from_rows([[], [], []]),
        },
        np.array([0, 1, 0], np.int32),
        ["u0", "u1", "u2"],
        [None] * 3,
    )
    ds = batches_dataset(split, [np.array([1, 2]), np.array([0, 1])], ["a_ids", "b_ids"], CUTS)
    (first, _), (second, _) = list(ds)
    np.testing.assert_array_equal(first["a_ids"], np.pad([[0], [8]], [(0, 0), (0, 7)]))
    np.testing.assert_array_equal(second["a_ids"], np.pad([[5, 6, 7], [0, 0, 0]], [(0, 0), (0, 5)]))
    for batch in (first, second):
        np.testing.assert_array_equal(batch["b_ids"], np.zeros((2, 1), np.int32))
