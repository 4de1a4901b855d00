"""FEVER ALL / SUB through the official scorer: our contexts and predictions in, the scorer's
numbers out, checked against counts made here; and the scorer on the real paper_dev ids."""

import sys

import numpy as np
import pytest
from fever_fixture import write_fever_fixture

from gcnn_match.data import fever
from gcnn_match.data.readers import FEVER_LABELS, FeverClaim, read_fever_claims
from gcnn_match.training import fever_score

pytest.importorskip("fever.scorer", reason="the official scorer: run `make install`")


def _complete(claim, max_evidence=5):
    """Whether the first `max_evidence` context sentences hold a whole gold evidence set."""
    predicted = {(page, line) for page, line, _ in claim.context[:max_evidence]}
    return any(set(evidence_set) <= predicted for evidence_set in claim.evidence)


def _expected(claims, predicted):
    right = [c.label == p for c, p in zip(claims, predicted)]
    strict = [r and (c.label == fever.NEI or _complete(c)) for c, r in zip(claims, right)]
    return np.mean(right), np.mean(strict)


@pytest.fixture
def retrieved_claims(tmp_path):
    write_fever_fixture(tmp_path)
    path = fever.prepare_contexts(tmp_path, "paper_dev", "retrieved", log=lambda *_: None).path
    return path, list(read_fever_claims(path))


def test_fixture_predictions_give_the_scorers_all_and_sub(retrieved_claims):
    _, claims = retrieved_claims
    gold = [c.label for c in claims]
    scores = fever_score.fever_metrics(claims, gold)
    # Every label right: the quoted-page claim's evidence is not among its retrieved sentences.
    assert scores["label_accuracy"] == 1.0 and scores["fever_score"] == 0.75
    wrong_first = ["REFUTES"] + gold[1:]
    scores = fever_score.fever_metrics(claims, wrong_first)
    assert (scores["label_accuracy"], scores["fever_score"]) == _expected(claims, wrong_first)
    assert scores["fever_score"] == 0.5
    # The evidence term, claim by claim, and SUB as the mean of right label × evidence.
    evidence = fever_score.evidence_complete(claims)
    assert evidence.tolist() == [int(c.label == fever.NEI or _complete(c)) for c in claims]
    right = np.array([c.label == p for c, p in zip(claims, wrong_first)])
    assert (right * evidence).mean() == scores["fever_score"]
    # Evidence precision / recall over the three verifiable claims (the scorer's macro means):
    # hits 2 of 5, 1 of 2 and 0 of 1; a complete set for the first two.
    assert scores["evidence_precision"] == pytest.approx((2 / 5 + 1 / 2 + 0) / 3)
    assert scores["evidence_recall"] == pytest.approx(2 / 3)


def test_scoring_a_run_split_by_uid_and_probabilities(retrieved_claims):
    path, claims = retrieved_claims
    uids = ["194462", "137334"]  # a held-out subset, in any order
    probabilities = np.array([[0.1, 0.2, 0.7], [0.2, 0.7, 0.1]])  # NEI right, SUPPORTS wrong
    official = fever_score.score_contexts_file(path, uids, probabilities)
    scores = official.metrics
    assert (scores["label_accuracy"], scores["fever_score"]) == (0.5, 0.5)
    # The evidence term in `uids` order, whatever the labels predicted.
    by_id = {str(c.id): c for c in claims}
    assert official.units[fever_score.EVIDENCE_COLUMN].tolist() == [
        int(by_id[u].label == fever.NEI or _complete(by_id[u])) for u in uids
    ]
    with pytest.raises(ValueError, match="no claim with id 5"):
        fever_score.score_contexts_file(path, ["5"], probabilities[:1])


def test_unlabelled_claims_are_not_scored(tmp_path):
    path = tmp_path / "blind.jsonl"
    path.write_text('{"id": 1, "claim": "c", "evidence": [], "context": []}\n', "utf-8")
    assert fever_score.score_contexts_file(path, ["1"], np.ones((1, 3))) == (
        fever_score.OfficialScores()
    )


def test_missing_scorer_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "fever.scorer", None)
    with pytest.raises(ImportError, match="make install"):
        fever_score.official_fever_score()


def test_official_scorer_on_the_real_paper_dev_evidence_ids(shared_data):
    # No Wikipedia text offline: the predicted evidence copies the gold evidence ids (the gold
    # setting's context, union of the sets in file order), the label follows a fixed policy.
    claims = list(read_fever_claims(shared_data / "fever" / "paper_dev.jsonl.gz"))
    assert len(claims) == 9999
    no_retrieval = {c.id: () for c in claims}
    gold_context = [
        FeverClaim(
            c.id,
            c.claim,
            c.label,
            c.evidence,
            tuple(
                (page, line, None) for page, line in fever.claim_context(c, "gold", no_retrieval)
            ),
        )
        for c in claims
    ]
    for policy in ("gold", "SUPPORTS"):
        predicted = [c.label if policy == "gold" else policy for c in claims]
        scores = fever_score.fever_metrics(gold_context, predicted)
        assert (scores["label_accuracy"], scores["fever_score"]) == pytest.approx(
            _expected(gold_context, predicted)
        )
        right = np.array([c.label == p for c, p in zip(gold_context, predicted)])
        evidence = fever_score.evidence_complete(gold_context)
        assert (right * evidence).mean() == pytest.approx(scores["fever_score"])
    assert scores["label_accuracy"] == pytest.approx(1 / 3)  # 3,333 of each label
    # With the gold labels, SUB misses only the claims whose first 5 gold sentences hold no
    # complete set; the evidence recall over the verifiable claims says how many.
    scores = fever_score.fever_metrics(gold_context, [c.label for c in claims])
    incomplete = sum(not _complete(c) for c in gold_context if c.label != fever.NEI)
    assert scores["fever_score"] == pytest.approx(1 - incomplete / 9999)
    assert scores["evidence_recall"] == pytest.approx(1 - incomplete / 6666)
    assert 0 < incomplete < 30 and FEVER_LABELS[2] == fever.NEI
