"""Two rows of one table compared on the records and read both ways: the measured evidence for
a choice between two readings of a paper (variant rows that are no claim of it, such as
C-LSTMs' weights per direction against weights shared by the directions), printed by
experiments/compare.py.

Δ = A − B and its 95% interval are `records.difference`, the measurement behind every claim
(docs/design.md#claims). No side is claimed, so the reading is two-sided: "A higher" or
"B higher" when the interval excludes 0, "no difference resolved" when it contains 0.
"""

from gcnn_match.claims import registry as claims
from gcnn_match.evidence import predictions, statistics
from gcnn_match.experiments import registry as experiments

READINGS = ("A higher", "B higher", "no difference resolved")
METHOD = "95% seed-and-test-set interval, docs/design.md#claims"


def row_metrics(table):
    """The metrics the rows of `table` report that are means over test units, sorted."""
    reported = {ours for c in experiments.select(table=table) for _, ours in c.compare}
    return sorted(m for m in reported if _unit_mean(m))


def _unit_mean(metric):
    """Whether the records measure `metric` as a mean over test units (not F1, a second
    column beside accuracy where a table reports it)."""
    found = predictions.split_and_column(metric)
    return found is not None and found[1] != predictions.F1


def primary_metric(table):
    """The mean-over-units metric the claims of `table` use; for a table without such claims,
    the one mean-over-units metric its rows report.

    Raises:
        ValueError: when that is not a single metric; the message lists the candidates.
    """
    candidates = sorted(
        {c.metric for c in claims.select() if c.table_id == table and _unit_mean(c.metric)}
    )
    source = "its claims use"
    if not candidates:
        candidates, source = row_metrics(table), "its rows report"
    if len(candidates) != 1:
        raise ValueError(f"{table} has no single primary metric ({source} {', '.join(candidates)})")
    return candidates[0]


def reading(low, high):
    """The two-sided reading of Δ's interval [low, high], one of READINGS: the claims' verdict
    rule (`statistics.verdict`) for "A above B", with no side claimed."""
    verdict = statistics.verdict(low, high, 0.0, "greater")
    return dict(zip(("confirmed", "contradicted", "inconclusive"), READINGS))[verdict]


def _row(name, mean, seeds, epochs):
    seeds = seeds if seeds == "vote" else f"{seeds} seeds"
    return f"{name.rsplit('/', 1)[-1]} {100 * mean:.2f} ({seeds}, epochs {epochs})"


def describe(found, table, metric, a, b):
    """One line: each row's mean metric, seeds and epochs (run / registered), Δ in points with
    its interval, the reading and the method.

    Args:
        found: the `records.Difference` of rows `a` and `b`.
        table, metric: what was compared.
        a, b: the registered row names.
    """
    result = found.comparison
    rows = [_row(*row) for row in zip((a, b), found.means, found.seeds, found.epochs)]
    line = (
        f"{table} {found.scale} {metric}: A {rows[0]} vs B {rows[1]}: "
        f"Δ = {100 * result.estimate:+.2f} points [{100 * result.low:+.2f}, "
        f"{100 * result.high:+.2f}] over {result.units} units: {reading(result.low, result.high)}"
    )
    return "; ".join([line, *found.notes]) + f" ({METHOD})"
