r"""Compares two rows of a table on the committed records, read both ways: the measured
evidence for a choice between two readings of a paper (rows that are no claim of it).

    python experiments/compare.py --table=c-lstms-snli --a=lc_lstms_shared_lstm_pair --b=lc_lstms
    python experiments/compare.py --table=c-lstms-snli \\
        --pairs=tc_lstms_weights_per_direction:tc_lstms,lc_lstms_shared_lstm_pair:lc_lstms

One line per comparison: each row's mean metric over seeds with its seeds and epochs (run /
registered), Δ = A − B in points with its 95% interval, and "A higher" or "B higher" (the
interval excludes 0) or "no difference resolved" (it contains 0). The measurement is the one
`make claims` makes for a claim (`gcnn_match/claims/assess.py`, docs/design.md#claims): a config
both rows ran (else each row's own) with the most seeds, on the units both rows were scored on, from
results/predictions/<table>-<scale>.csv.gz.

Rows are registered slugs or printed names, as reproduce.py's --rows takes them (slugs in
--pairs, which splits at commas). --a and --b give one comparison; --pairs=A:B,C:D several of
one table, the records read once. --metric defaults to the one the table's claims use (for a
table without claims, the one metric of its rows that is a mean over test units); --scale to
the first of full, low-resource whose record holds both rows, as `make claims` does.
"""

from absl import app, flags

from gcnn_match import cli
from gcnn_match.claims import plans, readings, records
from gcnn_match.config.experiment import SCALES
from gcnn_match.evidence import predictions
from gcnn_match.experiments import registry

FLAGS = flags.FLAGS
flags.DEFINE_string("table", None, "Table id, e.g. c-lstms-snli (see reproduce.py --list).")
flags.DEFINE_string("a", None, "Row A (slug or printed name).")
flags.DEFINE_string("b", None, "Row B (slug or printed name).")
flags.DEFINE_list("pairs", [], "Instead of --a and --b: A:B pairs of rows, comma-separated.")
flags.DEFINE_string("metric", None, "Metric, e.g. test_accuracy (default: the table's claims').")
flags.DEFINE_enum("scale", None, SCALES, "Scale of the records (default: full, else low-resource).")
flags.DEFINE_string("results_dir", "results", "Folder of the committed records.")


def _table():
    known = registry.tables()
    if FLAGS.table not in known:
        given = "is missing" if FLAGS.table is None else f"{FLAGS.table!r} is none of the tables"
        raise app.UsageError(f"--table: {given}; name one of {', '.join(known)}")
    return FLAGS.table


def _pairs():
    """[(flag of A, A, flag of B, B)] as the command gives them."""
    if FLAGS.pairs and (FLAGS.a or FLAGS.b):
        raise app.UsageError("--pairs: give either --pairs or --a and --b, not both")
    if not FLAGS.pairs:
        if not (FLAGS.a and FLAGS.b):
            raise app.UsageError("--a and --b: name both rows (or give --pairs=A:B,...)")
        return [("--a", FLAGS.a, "--b", FLAGS.b)]
    pairs = []
    for pair in FLAGS.pairs:
        rows = pair.split(":")
        if len(rows) != 2 or not all(rows):
            raise app.UsageError(
                f"--pairs: {pair!r} is not of the form A:B, two rows joined by one colon"
            )
        pairs.append(("--pairs", rows[0], "--pairs", rows[1]))
    return pairs


def _row(table, flag, value):
    """The registered name of row `value` of `table`."""
    found = registry.select(table=table, rows=[value])
    if len(found) != 1:
        slugs = ", ".join(c.name.rsplit("/", 1)[-1] for c in registry.select(table=table))
        raise app.UsageError(f"{flag}: no row of {table} is named {value!r} (its rows: {slugs})")
    return found[0].name


def _resolved(table, flag_a, a, flag_b, b):
    """(flag of A, registered A, flag of B, registered B); refuses a row compared with itself."""
    name_a, name_b = _row(table, flag_a, a), _row(table, flag_b, b)
    if name_a == name_b:
        if flag_a == "--pairs":
            pair = f"{a}:{b}"
            problem = f"--pairs: {pair!r} compares {name_a} with itself"
        else:
            problem = f"--a and --b: both name {name_a}"
        raise app.UsageError(f"{problem}; name two different rows")
    return flag_a, name_a, flag_b, name_b


def _metric(table):
    if FLAGS.metric is None:
        try:
            return readings.primary_metric(table)
        except ValueError as error:
            raise app.UsageError(f"--metric: {error}; name one with --metric") from None
    known = readings.row_metrics(table)
    if FLAGS.metric not in known:
        raise app.UsageError(
            f"--metric: {FLAGS.metric!r} is not a metric of {table} that is a mean over test "
            f"units; use one of {', '.join(known)}"
        )
    return FLAGS.metric


def _not_measured(store, table, metric, scales, rows):
    """The one-line error for rows (flag, name) without a common scale in the records."""
    split, _ = predictions.split_and_column(metric)
    for flag, name in rows:
        if all(store.lines(table, scale, name, split).empty for scale in scales):
            paths = " or ".join(
                str(predictions.record_path(store.results_dir, table, s)) for s in scales
            )
            scale = FLAGS.scale or plans.scale_that_scores([registry.get(name)], split)
            command = plans.reproduce_command(table, [name], scale)
            return (
                f"{flag}: no per-example {split} predictions are recorded for {name} in {paths} "
                f"(runs made before predictions were kept have none); (re)train it: {command}"
            )
    return f"--scale: no record holds both rows at one of {', '.join(scales)}"


def main(argv):
    del argv
    table = _table()
    pairs = [_resolved(table, *given) for given in _pairs()]
    metric = _metric(table)
    scales = [FLAGS.scale] if FLAGS.scale else ["full", "low-resource"]
    store = records.RecordedPredictions(FLAGS.results_dir)
    lines = []
    for flag_a, a, flag_b, b in pairs:  # all measured before any is printed
        found = records.difference(store, table, a, b, metric, scales)
        if found is None:
            raise app.UsageError(
                _not_measured(store, table, metric, scales, [(flag_a, a), (flag_b, b)])
            )
        lines.append(readings.describe(found, table, metric, a, b))
    print("\n".join(lines))


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
