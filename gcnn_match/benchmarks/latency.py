"""COIN Table 5: CPU inference latency of COIN and a BERT-base classifier (Hu et al. 2021, App. B).

Protocol of the paper: batches of 8 sentence pairs, length 32 per sentence (64 for BERT after
concatenating the pair), mean ± std over 1,000 batches, on a MacBook Pro (Intel Core i7 CPU).
Both models here have random weights: latency does not depend on the values. BERT is built
from keras-hub's `BertBackbone` with an explicit BERT-base configuration (no preset, nothing
downloaded) plus a linear layer on the pooled [CLS] vector, as in Devlin et al.
"""

import keras
import numpy as np

from gcnn_match.benchmarks import timing
from gcnn_match.models.registry import ModelInputs, build_model
from gcnn_match.training.loop import count_params

BERT_BASE = dict(
    vocabulary_size=30522,
    num_layers=12,
    num_heads=12,
    hidden_dim=768,
    intermediate_dim=3072,
    max_sequence_length=512,
    num_segments=2,
)


def coin_classifier(vocab_size=30000, embedding_dim=300, num_classes=2, **coin_kwargs):
    """COIN with fixed (not counted) word vectors, as on Quora; `coin_kwargs` go to the builder."""
    inputs = ModelInputs(
        vocab_size=vocab_size,
        num_classes=num_classes,
        embedding_dim=embedding_dim,
        embeddings_trainable=False,
    )
    return build_model("coin", inputs, **coin_kwargs)


def bert_classifier(num_classes=2, **config):
    """A BERT classifier: keras-hub `BertBackbone(**BERT_BASE, **config)` -> pooled [CLS] ->
    Dense(num_classes). Random weights, built offline."""
    import keras_hub  # optional: `make latency` installs it

    backbone = keras_hub.models.BertBackbone(**{**BERT_BASE, **config})
    logits = keras.layers.Dense(num_classes, name="logits")(backbone.output["pooled_output"])
    return keras.Model(backbone.input, logits, name="bert_classifier")


def coin_batches(count, vocab_size, batch_size=8, length=32, seed=0):
    """`count` batches of `batch_size` pairs, both sentences `length` real tokens."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield {
            side: rng.integers(2, vocab_size, size=(batch_size, length)).astype("int32")
            for side in ("a_ids", "b_ids")
        }


def bert_batches(count, vocab_size, batch_size=8, length=64, seed=0):
    """`count` batches of `batch_size` packed pairs "[CLS] a [SEP] b [SEP]", `length` tokens."""
    rng = np.random.default_rng(seed)
    segments = np.zeros((batch_size, length), "int32")
    segments[:, length // 2 :] = 1
    # BERT's ids below ~1000 are [PAD], [unused*] and special tokens: draw ordinary word pieces.
    first_word = min(1000, vocab_size // 2)
    for _ in range(count):
        yield {
            "token_ids": rng.integers(first_word, vocab_size, size=(batch_size, length)).astype(
                "int32"
            ),
            "segment_ids": segments,
            "padding_mask": np.ones((batch_size, length), "int32"),
        }


def measure(name, model, batches, warmup=3):
    """One Table 5 row: trainable parameters and seconds per batch (mean, std, count, and each
    timed batch's seconds)."""
    times = timing.timed({name: model.predict_on_batch}, list(batches), warmup)[0][name]
    return {
        "model": name,
        "params": count_params(model),
        "mean": float(times.mean()),
        "std": float(times.std(ddof=1)) if len(times) > 1 else 0.0,
        "batches": int(len(times)),
        "batch_seconds": timing.recorded_seconds(times),
    }
