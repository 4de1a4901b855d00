"""Each claim against our measurements: its reading by the kind of claim (`accuracy.py`,
`timing.py`, `parameters.py`; a cited row is measured by nothing), the Holm adjustment over the
report's tested family, then the verdict of the rule of `verdicts.py`.

Given a data folder, a "not run" claim also says which files its rows would read at the scale
of its command are absent from it (`plans.missing_data`), and its command reads that folder.
"""

import dataclasses
import shlex

from gcnn_match.claims import verdicts
from gcnn_match.claims.accuracy import assess_contrast, assess_difference, assess_floor
from gcnn_match.claims.outcome import NotRecorded, Outcome
from gcnn_match.claims.parameters import assess_params
from gcnn_match.claims.plans import missing_data
from gcnn_match.claims.records import RecordedPredictions
from gcnn_match.claims.timing import assess_bench, assess_latency
from gcnn_match.experiments import param_counts


def assess(claims, results_dir, scales=("full", "low-resource"), data_dir=None):
    """The `Outcome` of every claim.

    Args:
        claims: the `Claim`s.
        results_dir: the folder of the committed records.
        scales: scales in order of preference.
        data_dir: when given, each "not run" outcome names the splits its rows lack there,
            and its command reads that folder.
    """
    store = RecordedPredictions(results_dir)
    outcomes = []
    for claim in claims:
        try:
            outcome = _assess_one(claim, store, scales)
        except NotRecorded as missing:
            outcome = Outcome(claim, verdicts.NOT_RUN, note=str(missing))
        if data_dir is not None and outcome.reading == verdicts.NOT_RUN:
            outcome = dataclasses.replace(outcome, missing_data=missing_data(claim, data_dir))
        if data_dir is not None and outcome.command.startswith("python experiments/"):
            outcome = dataclasses.replace(
                outcome, command=f"{outcome.command} {shlex.quote(f'--data_dir={data_dir}')}"
            )
        outcomes.append(outcome)
    return [dataclasses.replace(o, verdict=verdicts.decide(o)) for o in with_holm(outcomes)]


def _assess_one(claim, store, scales):
    """The `Outcome` of one claim, by its kind."""
    if claim.cited:
        return assess_cited(claim)
    if claim.metric == "params":
        return assess_params(claim)
    if claim.metric == "seconds_per_batch":
        return assess_latency(claim, store.results_dir)
    if claim.metric == "seconds_per_epoch":
        return assess_bench(claim, store.results_dir)
    if claim.c is not None:
        return assess_contrast(claim, store, scales)
    if claim.floor is not None:
        return assess_floor(claim, store, scales)
    return assess_difference(claim, store, scales)


def assess_cited(claim):
    """A claim against a row the paper cites (from other work, or from a footnote): nothing of
    ours to set against it, so no measurement; the note gives the paper's value of that row
    (the report's preamble says what such rows are)."""
    ((name, value),) = claim.cited
    shown = param_counts.printed(value) if claim.metric == "params" else f"{100 * value:.2f}"
    return Outcome(claim, "", note=f"{name}: {shown} in the paper")


def with_holm(outcomes):
    """`outcomes` with the Holm-adjusted p (`verdicts.holm`) of the side each leans to, for
    those that have a p: the family is the report's tested claims."""
    tested = [i for i, o in enumerate(outcomes) if o.p is not None]
    adjusted = dict(zip(tested, verdicts.holm([outcomes[i].leaning_p for i in tested])))
    return [
        dataclasses.replace(o, holm_p=adjusted[i]) if i in adjusted else o
        for i, o in enumerate(outcomes)
    ]


def counts(outcomes):
    """{verdict: number of outcomes}, every verdict present."""
    found = dict.fromkeys(verdicts.VERDICTS, 0)
    for outcome in outcomes:
        found[outcome.verdict] += 1
    return found
