"""Parameter-count claims: the ratio of the rows' counts on their built models, exact, so
with no interval (`param_counts.py` counts each by its table's convention).

Where a row's count misses the paper's under the text's reading and a registered variant row
of it ("<row>, <reading>") reproduces the paper's count, the claim shows the ratio under that
reading beside the text's: the verdict stays the text's, the other reading is what the paper's
own numbers were counted on.
"""

from gcnn_match.claims import verdicts
from gcnn_match.claims.outcome import Outcome
from gcnn_match.experiments import param_counts
from gcnn_match.experiments import registry as experiments


def assess_params(claim):
    """The ratio of the rows' parameter counts, each counted on its built model by its
    table's convention (`param_counts.row_count`): exact numbers, so no interval."""
    counts = [param_counts.row_count(config) for config in claim.configs]
    ratio = counts[0] / counts[1]
    differ = [
        f"{label}: {said}"
        for label, config, count in zip("AB", claim.configs, counts)
        if (said := param_counts.mismatch(config, count))
    ]
    return Outcome(
        claim,
        verdicts.count_reading(ratio, claim),
        ratio,
        size=verdicts.size_label(claim, ratio, ratio),
        sample=f"{counts[0]:,} vs {counts[1]:,} parameters",
        scale="the built models at the registered widths (param_counts.py)",
        note="; ".join(["exact counts", *differ, *_reproducing_reading(claim)]),
    )


def _reproducing_reading(claim):
    """[the ratio under the readings that reproduce the paper's counts, in words], or [] where
    every row's count matches the paper's or no variant row reproduces it."""
    readings = [_reproducing_variant(config) or config for config in claim.configs]
    if readings == list(claim.configs):
        return []
    counts = [param_counts.row_count(config) for config in readings]
    ratio = counts[0] / counts[1]
    rows = " and ".join(config.row for config in readings if config not in claim.configs)
    return [
        f"under the reading that reproduces the paper's counts ({rows}): {counts[0]:,} vs "
        f"{counts[1]:,}, {ratio:.2f}×, {verdicts.count_reading(ratio, claim)}"
    ]


def _reproducing_variant(config):
    """The registered variant row of `config` ("<row>, <reading>") whose count matches the
    paper's count of `config`, where the count of `config` itself does not; else None."""
    paper = config.targets.get(param_counts.PAPER_KEY)
    if paper is None or param_counts.matches(param_counts.row_count(config), paper):
        return None
    for variant in experiments.select(table=experiments.table_id(config)):
        if variant.row.startswith(f"{config.row}, ") and param_counts.matches(
            param_counts.row_count(variant), paper
        ):
            return variant
    return None
