"""tf.data pipeline: schedules, per-batch padding, masks, order restoration, encoder state."""

import json

import numpy as np
import pytest

from gcnn_match.data.example import Example
from gcnn_match.data.pipeline import (
    PairEncoder,
    TokenizedPair,
    evaluation_dataset,
    tokenize_examples,
    training_dataset,
    training_schedule,
    unknown_rate,
    unsort,
    worth_caching,
)
from gcnn_match.data.tokenizers import TextPolicy

POLICY = TextPolicy(tokenizer="whitespace", lowercase=False, use_given_tokens=True)


def _examples(n=50, seed=0):
    rng = np.random.RandomState(seed)
    words = [f"w{i}" for i in range(30)]
    out = []
    for i in range(n):
        a = " ".join(rng.choice(words, rng.randint(1, 25)))
        b = " ".join(rng.choice(words, rng.randint(1, 12)))
        out.append(Example(a=a, b=b, label=i % 2, uid=f"x:{i}"))
    return out


def _encoded(n=50, max_len_a=20, max_len_b=10):
    examples = _examples(n)
    pairs = tokenize_examples(examples, POLICY)
    encoder = PairEncoder.fit(pairs, POLICY, max_len_a, max_len_b, chars=True, max_chars=5)
    return encoder, encoder.encode("train", examples, pairs)


def test_schedule_covers_each_example_once_and_depends_on_seed_and_epoch():
    lengths = np.random.RandomState(0).randint(1, 40, size=333)
    batches = training_schedule(lengths, 32, seed=1, epoch=0)
    assert len(batches) == 11
    assert sorted(np.concatenate(batches).tolist()) == list(range(333))
    again = training_schedule(lengths, 32, seed=1, epoch=0)
    assert all((x == y).all() for x, y in zip(batches, again))
    other = training_schedule(lengths, 32, seed=1, epoch=1)
    assert any(len(x) != len(y) or (x != y).any() for x, y in zip(batches, other))
    # Bucketing: within a batch lengths are close, far closer than in a random batch.
    spread = np.mean([np.ptp(lengths[b]) for b in batches if len(b) > 1])
    assert spread < 0.5 * np.ptp(lengths)


def test_batches_are_padded_per_batch_with_cut_offs_and_width_multiples():
    encoder, split = _encoded()
    ds, steps = training_dataset(
        split,
        8,
        encoder.feature_names(),
        {"a": 20, "b": 10},
        seed=0,
        first_epoch=0,
        epochs=2,
        bucket_width=8,
    )
    batches = list(ds)
    assert steps == 7 and len(batches) == 14
    for features, labels in batches:
        a, b = features["a_ids"].numpy(), features["b_ids"].numpy()
        assert a.shape[1] in (8, 16, 20) and b.shape[1] in (8, 10)
        assert features["a_chars"].shape[1:] == (a.shape[1], 5)
        real = (a > 0).sum(axis=1)
        assert (a[np.arange(len(a)), np.maximum(real - 1, 0)] > 0).all()  # no holes
        assert ((a > 0).cumsum(axis=1)[:, -1] == real).all()
        assert labels.shape[0] == a.shape[0]


def test_fixed_padding_uses_the_cut_offs():
    encoder, split = _encoded()
    ds, _ = evaluation_dataset(
        split, 16, encoder.feature_names(), {"a": 20, "b": 10}, padding="fixed"
    )
    for features, _ in ds:
        assert features["a_ids"].shape[1] == 20 and features["b_ids"].shape[1] == 10


def test_evaluation_order_is_restored():
    encoder, split = _encoded()
    ds, order = evaluation_dataset(split, 16, encoder.feature_names(), {"a": 20, "b": 10})
    firsts = np.concatenate([f["a_ids"].numpy()[:, 0] for f, _ in ds])
    restored = unsort(firsts, order)
    a_ids = split.features["a_ids"]
    np.testing.assert_array_equal(restored, a_ids.values[a_ids.row_splits[:-1]])
    labels = np.concatenate([y.numpy() for _, y in ds])
    np.testing.assert_array_equal(unsort(labels, order), split.labels)


def test_encoder_truncates_and_round_trips(tmp_path):
    encoder, split = _encoded(max_len_a=3, max_len_b=2)
    assert split.features["a_ids"].lengths().max() == 3
    encoder.save(tmp_path / "prep")
    loaded = PairEncoder.load(tmp_path / "prep")
    pair = tokenize_examples([Example("w1 w2 zzz w3", "w4", None, "u")], POLICY)[0]
    for key, value in encoder.encode_pair(pair).items():
        np.testing.assert_array_equal(value, loaded.encode_pair(pair)[key])
    assert loaded.encode_pair(pair)["a_ids"][2] == 1  # unknown word -> <unk>


def test_token_cache_is_reused(tmp_path):
    examples = _examples(5)
    cache = tmp_path / "tokens.json"
    first = tokenize_examples(examples, POLICY, cache)
    assert cache.exists()
    changed = [Example(a="different", b=e.b, label=e.label, uid=e.uid) for e in examples]
    cached = tokenize_examples(changed, POLICY, cache)  # same uids: served from the cache
    assert [p.a for p in cached] == [p.a for p in first]
    other_policy = TextPolicy(tokenizer="whitespace", lowercase=True, use_given_tokens=True)
    assert tokenize_examples(changed, other_policy, cache)[0].a == ["different"]


def test_tokens_are_cached_only_where_tokenizing_is_expensive():
    text = _examples(2)
    parsed = [Example(a="A dog", b="runs", label=0, uid="p", a_tokens=["A"], b_tokens=["r"])]
    for tokenizer in ("whitespace", "chars"):
        assert not worth_caching(TextPolicy(tokenizer=tokenizer), text)
    for tokenizer in ("treebank", "tweet"):
        assert worth_caching(TextPolicy(tokenizer=tokenizer), text)
        given = TextPolicy(tokenizer=tokenizer, use_given_tokens=True)
        assert not worth_caching(given, parsed)  # the parse tokens are taken as they are
        assert worth_caching(given, text)  # no parse: the tokenizer runs
    assert worth_caching(POLICY, parsed, tagger=_FakeTagger())  # tagging is always kept


class _FakeTagger:
    provenance = {"source": "test"}

    def tag(self, tokens):
        return [(t, "NN" if t.startswith("w1") else "VB") for t in tokens]


def test_token_cache_round_trip_gives_identical_pairs(tmp_path):
    examples = _examples(20)
    fresh = tokenize_examples(examples, POLICY, tmp_path / "tokens.json", tagger=_FakeTagger())
    stored = json.loads((tmp_path / "tokens.json").read_text())
    assert stored["policy"] == POLICY.to_dict() and len(stored["pairs"]) == 20

    class NoTagging:
        def tag(self, tokens):
            raise AssertionError("a cached pair was tagged again")

    cached = tokenize_examples(examples, POLICY, tmp_path / "tokens.json", tagger=NoTagging())
    assert cached == fresh and cached[0].a_pos is not None
    # Read back, a token or tag is one string object however often it occurs.
    tokens = [t for pair in cached for side in (pair.a, pair.b, pair.a_pos) for t in side]
    by_text = {}
    assert all(by_text.setdefault(t, t) is t for t in tokens) and len(by_text) < len(tokens)


@pytest.mark.parametrize("content", ["pickle", "garbage", "foreign json"])
def test_a_token_cache_of_another_format_is_rebuilt_without_running_code(
    tmp_path, code_running_pickle, content
):
    blob, marker = code_running_pickle
    cache = tmp_path / "tokens.json"
    cache.write_bytes(
        {"pickle": blob, "garbage": b"\x80\x04 not a cache", "foreign json": b"[1, 2]"}[content]
    )
    examples = _examples(5)
    pairs = tokenize_examples(examples, POLICY, cache)
    assert not marker.exists()
    assert pairs == tokenize_examples(examples, POLICY)
    assert json.loads(cache.read_text())["policy"] == POLICY.to_dict()  # rebuilt


def test_pos_ids_come_from_the_fixed_inventory_and_the_tagger_fills_missing_tags(tmp_path):
    from gcnn_match.data import pos

    examples = _examples(6)
    pairs = tokenize_examples(examples, POLICY, tagger=_FakeTagger())
    encoder = PairEncoder.fit(pairs, POLICY, 20, 10, pos=True, tagger=_FakeTagger())
    split = encoder.encode("train", examples, pairs)
    assert encoder.feature_names() == ["a_ids", "b_ids", "a_pos", "b_pos"]
    first = split.features["a_pos"].row(0)
    expected = [pos.POS_IDS["NN" if t.startswith("w1") else "VB"] for t in pairs[0].a[:20]]
    assert first.tolist() == expected


def test_a_run_keeps_its_tagger(tmp_path):
    from gcnn_match.data import pos

    tagger = pos.train_tagger([[("the", "DT"), ("dog", "NN"), ("runs", "VBZ")]] * 5, nr_iter=2)
    tagger.provenance = {"source": "test"}
    pairs = tokenize_examples(_examples(3), POLICY, tagger=tagger)
    encoder = PairEncoder.fit(pairs, POLICY, 20, 10, pos=True, tagger=tagger)
    encoder.save(tmp_path / "prep")
    loaded = PairEncoder.load(tmp_path / "prep")
    assert loaded.pos and loaded.tagger.provenance == {"source": "test"}
    assert pos.tag_tokens(loaded.tagger, ["the", "dog"]) == pos.tag_tokens(tagger, ["the", "dog"])


def test_a_run_with_an_old_format_tagger_is_refused_without_running_code(
    tmp_path, code_running_pickle
):
    blob, marker = code_running_pickle
    encoder, _ = _encoded()
    encoder.save(tmp_path / "prep")
    (tmp_path / "prep" / "pos_tagger.pkl").write_bytes(blob)
    with pytest.raises(ValueError, match="Retrain the run, or save its tagger again"):
        PairEncoder.load(tmp_path / "prep")
    assert not marker.exists()


def test_shipped_tags_are_used_without_a_tagger():
    example = Example(
        "x",
        "y",
        0,
        "u",
        a_tokens=("A", "dog"),
        b_tokens=("runs",),
        a_pos=("DT", "NN"),
        b_pos=("VBZ",),
    )
    pair = tokenize_examples([example], POLICY, tagger=_FakeTagger())[0]
    assert pair.a_pos == ["DT", "NN"] and pair.b_pos == ["VBZ"]


def test_the_tokenization_and_unknown_rates_travel_with_the_preprocessing(tmp_path):
    pairs = [TokenizedPair(["a", "b"], ["c"]), TokenizedPair(["a", "z"], [])]
    encoder = PairEncoder.fit(pairs[:1], TextPolicy(), 40, 40, tokenization="ptb-pretokenized")
    assert unknown_rate(pairs, encoder.vocab) == pytest.approx(1 / 5)
    assert unknown_rate([TokenizedPair([], [])], encoder.vocab) is None
    encoder.unknown_rates = {"train": 0.0, "dev": 0.2}
    encoder.save(tmp_path)
    loaded = PairEncoder.load(tmp_path)
    assert loaded.tokenization == "ptb-pretokenized"
    assert loaded.unknown_rates == {"train": 0.0, "dev": 0.2}
    state = json.loads((tmp_path / "preprocessing.json").read_text())
    del state["tokenization"], state["unknown_rates"]  # a run that recorded neither
    (tmp_path / "preprocessing.json").write_text(json.dumps(state))
    old = PairEncoder.load(tmp_path)
    assert old.tokenization is None and old.unknown_rates is None
