"""tf.data pipeline: schedules, per-batch padding, masks, order restoration, encoder state."""
import numpy as np

from gcnn_match.data.example import Example
from gcnn_match.data.pipeline import (PairEncoder, evaluation_dataset, tokenize_examples,
                                      training_dataset, training_schedule, unsort)
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
    ds, steps = training_dataset(split, 8, encoder.feature_names(), {"a": 20, "b": 10}, seed=0,
                                 first_epoch=0, epochs=2, bucket_width=8)
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
    ds, _ = evaluation_dataset(split, 16, encoder.feature_names(), {"a": 20, "b": 10},
                               padding="fixed")
    for features, _ in ds:
        assert features["a_ids"].shape[1] == 20 and features["b_ids"].shape[1] == 10


def test_evaluation_order_is_restored():
    encoder, split = _encoded()
    ds, order = evaluation_dataset(split, 16, encoder.feature_names(), {"a": 20, "b": 10})
    firsts = np.concatenate([f["a_ids"].numpy()[:, 0] for f, _ in ds])
    restored = unsort(firsts, order)
    np.testing.assert_array_equal(restored, [ids[0] for ids in split.features["a_ids"]])
    labels = np.concatenate([y.numpy() for _, y in ds])
    np.testing.assert_array_equal(unsort(labels, order), split.labels)


def test_encoder_truncates_and_round_trips(tmp_path):
    encoder, split = _encoded(max_len_a=3, max_len_b=2)
    assert max(len(x) for x in split.features["a_ids"]) == 3
    encoder.save(tmp_path / "prep")
    loaded = PairEncoder.load(tmp_path / "prep")
    pair = tokenize_examples([Example("w1 w2 zzz w3", "w4", None, "u")], POLICY)[0]
    for key, value in encoder.encode_pair(pair).items():
        np.testing.assert_array_equal(value, loaded.encode_pair(pair)[key])
    assert loaded.encode_pair(pair)["a_ids"][2] == 1  # unknown word -> <unk>


def test_token_cache_is_reused(tmp_path):
    examples = _examples(5)
    cache = tmp_path / "tokens.pkl"
    first = tokenize_examples(examples, POLICY, cache)
    assert cache.exists()
    changed = [Example(a="different", b=e.b, label=e.label, uid=e.uid) for e in examples]
    cached = tokenize_examples(changed, POLICY, cache)  # same uids: served from the cache
    assert [p.a for p in cached] == [p.a for p in first]
    other_policy = TextPolicy(tokenizer="whitespace", lowercase=True, use_given_tokens=True)
    assert tokenize_examples(changed, other_policy, cache)[0].a == ["different"]
