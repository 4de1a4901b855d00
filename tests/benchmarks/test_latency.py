"""COIN Table 5 latency protocol on tiny models and 3 batches."""

import pytest

from gcnn_match.benchmarks import latency
from gcnn_match.reporting.latency_report import render_markdown

ENV = {"cpu": "test cpu", "cpu_count": 2, "tensorflow": "x", "keras": "y"}


@pytest.mark.slow
def test_latency_rows_and_table():
    coin = latency.coin_classifier(vocab_size=20, embedding_dim=4, d=4, n_h=2, blocks=1)
    batches = list(latency.coin_batches(4, vocab_size=20, batch_size=8, length=32))
    assert batches[0]["a_ids"].shape == (8, 32) and batches[0]["a_ids"].min() >= 2
    results = [latency.measure("COIN", coin, batches, warmup=1)]
    assert results[0]["batches"] == 3 and results[0]["mean"] > 0
    assert len(results[0]["batch_seconds"]) == 3  # each timed batch, for a ratio's interval
    assert results[0]["mean"] == pytest.approx(sum(results[0]["batch_seconds"]) / 3, abs=1e-5)
    assert results[0]["params"] == coin.count_params() - 20 * 4  # fixed vectors not counted

    pytest.importorskip("keras_hub")
    bert = latency.bert_classifier(
        vocabulary_size=50,
        num_layers=1,
        num_heads=2,
        hidden_dim=8,
        intermediate_dim=16,
        max_sequence_length=64,
    )
    bert_batches = list(latency.bert_batches(4, vocab_size=50, length=64))
    assert bert_batches[0]["token_ids"].shape == (8, 64)
    assert bert.predict_on_batch(bert_batches[0]).shape == (8, 2)
    results.append(latency.measure("BERT", bert, bert_batches, warmup=1))
    table = render_markdown(results, ENV, note="shared CPU")
    assert "| COIN |" in table and "0.12 ± 0.03" in table and "1.19 ± 0.06" in table
    assert "paper 9.9" in table and "test cpu (2 cores)" in table and "shared CPU" in table
