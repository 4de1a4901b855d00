"""The ranking metrics reproduce a published score from the paper's own run file.

WikiQA ships the CNN baseline's test run (TREC run layout: `qid 0 docid rank score run`) and
the filtered qrels (`qid 0 docid relevance`, only questions with a correct answer). Scored by
`ranking_metrics`, they must give the CNN row of Yang et al. (2015, Table 3): MAP 0.6190,
MRR 0.6281.
"""

import gzip

import pytest

from gcnn_match.training.metrics import ranking_metrics


def _columns(path, count):
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        rows = [line.split() for line in handle if line.strip()]
    assert all(len(row) == count for row in rows), f"{path}: not {count} columns"
    return rows


def test_the_cnn_run_scores_the_published_map_and_mrr(shared_data):
    folder = shared_data / "wikiqa"
    run_file, qrels_file = folder / "test.rank.gz", folder / "test.ref.gz"
    if not (run_file.exists() and qrels_file.exists()):
        pytest.skip(f"{folder} lacks test.rank.gz / test.ref.gz (see its SOURCE.md)")
    scores = {(qid, doc): float(score) for qid, _, doc, _, score, _ in _columns(run_file, 6)}
    qrels = {(qid, doc): int(relevance) for qid, _, doc, relevance in _columns(qrels_file, 4)}
    # The qrels name the evaluated questions; trec_eval scores the run on those alone.
    pairs = sorted(qrels)
    metrics = ranking_metrics(
        [qid for qid, _ in pairs], [scores[p] for p in pairs], [qrels[p] for p in pairs]
    )
    assert metrics["num_groups"] == 237
    assert round(metrics["map"], 4) == 0.6190
    assert round(metrics["mrr"], 4) == 0.6281
