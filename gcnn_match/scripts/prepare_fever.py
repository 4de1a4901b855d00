r"""Builds the FEVER claim contexts that ATTCONV's Table 9 rows read (see gcnn_match/data/fever.py).

    python experiments/prepare_fever.py --data_dir=data --evidence=retrieved,gold \
        --splits=train,paper_dev,paper_test

Needs, under DATA_DIR/fever/: the claims ({split}.jsonl, `make data-fever`), wiki-pages/ (the
unzipped https://fever.ai/download/fever/wiki-pages.zip, or the zip) and retrieved/{split}.jsonl
(the top-5 retrieved sentences per claim). Writes fever/contexts/{setting}/{split}.jsonl and
prints how many sentences were found; for the retrieved setting also the official scorer's
evidence precision / recall / F1 of the retrieved sentences, which the paper reports as 10.44 /
44.22 / 16.89 on dev (§4.4).
"""

from absl import flags

from gcnn_match import cli
from gcnn_match.data import fever, registry
from gcnn_match.data.readers import read_fever_claims
from gcnn_match.data.reading import ReaderError
from gcnn_match.training.fever_score import fever_metrics

FLAGS = flags.FLAGS
flags.DEFINE_string("data_dir", "data", "Folder holding fever/...")
flags.DEFINE_list("evidence", list(fever.SETTINGS), f"Settings to build: {fever.SETTINGS}.")
flags.DEFINE_list("splits", None, "Claim splits (default: every claim file present).")


def _retrieval_quality(path):
    """The scorer's evidence scores of a contexts file, with every label right (an oracle)."""
    claims = [c for c in read_fever_claims(path) if c.label is not None]
    if not claims:
        return "unlabelled claims: no retrieval scores"
    scores = fever_metrics(claims, [c.label for c in claims])
    return (
        f"retrieved evidence vs gold (official scorer, first 5): precision "
        f"{100 * scores['evidence_precision']:.2f}, recall "
        f"{100 * scores['evidence_recall']:.2f}, F1 {100 * scores['evidence_f1']:.2f}; "
        f"FEVER score with every label right {100 * scores['fever_score']:.2f}"
    )


def main(argv):
    del argv
    splits = FLAGS.splits or [
        s for s in registry.available_splits("fever", FLAGS.data_dir) if "." not in s
    ]
    if not splits:
        raise SystemExit(registry.missing_message("fever", "paper_dev", FLAGS.data_dir))
    for setting in FLAGS.evidence:
        for split in splits:
            try:
                result = fever.prepare_contexts(FLAGS.data_dir, split, setting)
            except (registry.MissingDataError, ReaderError) as error:
                raise SystemExit(f"error: {error}") from None
            if setting == "retrieved":
                print(f"{split}/{setting}: {_retrieval_quality(result.path)}")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
