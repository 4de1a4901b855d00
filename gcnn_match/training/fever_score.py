"""FEVER claim verification scored by the official scorer (sheffieldnlp/fever-scorer).

ATTCONV's Table 9 reports two numbers with "the official evaluation toolkit" (§4.4):
- ALL: label accuracy, whatever the evidence (`label_accuracy`);
- SUB: the FEVER score, the accuracy over claims whose prediction is right *and*, for
  SUPPORTS / REFUTES, whose predicted evidence (the first 5 sentences) holds a complete gold
  evidence set (`fever_score`).

The predicted evidence of a claim is its context as the model read it: the top-5 retrieved
sentences in the retrieved setting, the gold sentences in the gold one (where the paper notes
ALL = SUB; here SUB falls short of ALL for the few claims whose first 5 gold sentences hold no
complete set). The scorer also gives the evidence precision / recall / F1, which measure the
retrieval, not the model.

The FEVER score is a mean over claims of the scorer's own per-claim test
(`fever.scorer.is_strictly_correct`), which a claim passes when its label is right and its
evidence complete (`evidence_complete`: a NOT ENOUGH INFO claim, or a complete gold set among
the first 5 context sentences: a property of the claim and its context, whatever the
predicted label).
`score_contexts_file` returns that evidence term per claim (EVIDENCE_COLUMN), which the run
writes beside its predictions (`tasks.write_official_units`), so that the records score the
FEVER score of any labels, a vote's included, as right label × evidence (UNIT_COLUMN,
`evidence/predictions.py`) and the claims report bootstraps it like an accuracy.

The scorer (`fever.scorer.fever_score`, fever-scorer 2.0.39) is installed by `make install`
through `tools/install_fever_scorer.py`: its PyPI sdist does not build.
"""

import dataclasses
import importlib

import numpy as np

from gcnn_match.data.readers import FEVER_LABELS, read_fever_claims

MAX_EVIDENCE = 5  # the scorer's default, and the shared task's rule
EVIDENCE_COLUMN = "fever_evidence"  # the per-claim evidence term, in the run's files
UNIT_COLUMN = "fever_correct"  # the per-claim term of the FEVER score, in the records


@dataclasses.dataclass(frozen=True)
class OfficialScores:
    """What a dataset's official scorer says of one split.

    Args:
        metrics: {name: value} for metrics.json ("fever_score": 0.41).
        units: {column: one value per example, in the split's order}: per-example terms of
            the scorer's metrics ("fever_evidence").
    """

    metrics: dict = dataclasses.field(default_factory=dict)
    units: dict = dataclasses.field(default_factory=dict)


def _official(name):
    """`fever.scorer.<name>`, or an ImportError saying how to install the scorer."""
    try:
        scorer = importlib.import_module("fever.scorer")
    except ImportError as error:
        raise ImportError(
            "the official FEVER scorer is not installed: run `make install`, or "
            "`python tools/install_fever_scorer.py` in this environment"
        ) from error
    return getattr(scorer, name)


def official_fever_score():
    """`fever.scorer.fever_score`, or an ImportError saying how to install it."""
    return _official("fever_score")


def scorer_instance(claim, predicted_label):
    """The scorer's record of one `FeverClaim` (from a contexts file) and its prediction."""
    return {
        "label": claim.label,
        "predicted_label": predicted_label,
        "evidence": [
            [[None, None, page, line] for page, line in evidence_set]
            for evidence_set in claim.evidence
        ],
        "predicted_evidence": [[page, line] for page, line, _ in claim.context],
    }


def fever_metrics(claims, predicted_labels, max_evidence=MAX_EVIDENCE):
    """The official scores of `claims` (`FeverClaim`s with their contexts) and their labels.

    Returns label_accuracy (ALL), fever_score (SUB), evidence_precision, evidence_recall and
    evidence_f1, as fractions.
    """
    claims = list(claims)
    if len(claims) != len(predicted_labels):
        raise ValueError(f"{len(claims)} claims but {len(predicted_labels)} predictions")
    instances = [scorer_instance(c, p) for c, p in zip(claims, predicted_labels)]
    strict, accuracy, precision, recall, f1 = official_fever_score()(
        instances, max_evidence=max_evidence
    )
    return {
        "label_accuracy": accuracy,
        "fever_score": strict,
        "evidence_precision": precision,
        "evidence_recall": recall,
        "evidence_f1": f1,
    }


def evidence_complete(claims, max_evidence=MAX_EVIDENCE):
    """1 or 0 per claim: whether the scorer's per-claim test of the FEVER score passes when the
    label is right (NOT ENOUGH INFO, or a complete gold set among the first `max_evidence`
    context sentences). A claim scores in the FEVER score when its label is right and this is 1,
    so the mean of (label right) × this is `fever_metrics`' "fever_score".

    Args:
        claims: labelled `FeverClaim`s with their contexts (a contexts file's).
        max_evidence: how many context sentences count as predicted evidence.
    """
    is_strictly_correct = _official("is_strictly_correct")
    return np.array(
        [
            int(is_strictly_correct(scorer_instance(c, c.label), max_evidence=max_evidence))
            for c in claims
        ]
    )


def score_contexts_file(path, uids, probabilities, labels=FEVER_LABELS):
    """`OfficialScores` of the claims `uids` of a contexts file, predicted as the argmax of
    `probabilities` (rows in `uids` order over `labels`): `fever_metrics` and, per claim in
    `uids` order, `evidence_complete` as EVIDENCE_COLUMN; empty when the claims are
    unlabelled."""
    by_id = {str(claim.id): claim for claim in read_fever_claims(path)}
    missing = [uid for uid in uids if uid not in by_id]
    if missing:
        raise ValueError(
            f"{path}: no claim with id {missing[0]} ({len(missing)} predictions "
            "have no claim): the predictions come from another file"
        )
    claims = [by_id[uid] for uid in uids]
    if any(claim.label is None for claim in claims):
        return OfficialScores()
    predicted = [labels[i] for i in np.argmax(np.asarray(probabilities), axis=-1)]
    return OfficialScores(
        fever_metrics(claims, predicted), {EVIDENCE_COLUMN: evidence_complete(claims)}
    )
