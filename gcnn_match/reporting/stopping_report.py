"""The "Early stopping on the whole schedule" section of a paper's docs/<paper>.md, from the
records results/stopping-check-<table>-<scale>.json (`gcnn_match.scripts.stopping_check`).

Per table: the rows whose recorded seeds stopped early enough to need the check
(`evidence.stopping.needs_check`), how many of them were trained to their whole schedule,
on how many dev's best came after the registered stop, and what that decides for the table's
patience; then one line per checked curve.
"""

from gcnn_match.evidence import stopping
from gcnn_match.experiments import registry
from gcnn_match.files import read_json

SECTION = "stopping-check"
SCALES = ("low-resource", "full")


def _value(metric, value):
    """Accuracy as a percentage, other metrics (MAP, P@1) as they are."""
    return f"{100 * value:.2f}" if metric.endswith("accuracy") else f"{value:.4f}"


def _epochs(values):
    return ",".join(str(v) for v in values)


def _recorded(row):
    if "recorded_epochs_run" not in row:
        return "not recorded"
    cap = row.get("recorded_epoch_cap")
    text = f"{_epochs(row['recorded_best_epoch'])} / {_epochs(row['recorded_epochs_run'])}"
    return text + ("" if cap is None else f" (cap {cap})")


def _row_line(title, row):
    metric = row["select_metric"]
    later = stopping.highest_after_stop(row)
    after = "–" if later is None else f"{_value(metric, later[1])} (epoch {later[0]})"
    return (
        f"| {title} | {row['row']} | {row['seed']} | {_recorded(row)} "
        f"| {row['best_epoch']} of {row['registered_epochs']} "
        f"({_value(metric, row['best_value'])}) "
        f"| {row['registered_patience']}: stops {row['patience_stop_epoch']}, selects "
        f"{row['patience_selected_epoch']} ({_value(metric, row['patience_selected_value'])}) "
        f"| {after} | {row['seconds_per_epoch']:.1f} |"
    )


def _first_curves(record):
    """The lowest seed's curve of each row that needs the check: what decides its table."""
    first = {}
    for row in sorted(record["rows"], key=lambda r: r["seed"]):
        if row["name"] in record["needs_check"]:
            first.setdefault(row["name"], row)
    return list(first.values())


def decision(record):
    """What the checked curves decide for the table's registered patience: "too short" once
    more than half of the rows that need the check peak after their stop, "stands" once more
    than half stop on or after their peak, otherwise "open"."""
    needed = len(record["needs_check"])
    checked = _first_curves(record)
    later = sum(stopping.best_after_stop(r) for r in checked)
    if 2 * later > needed:
        return "too short"
    if 2 * (len(checked) - later) > needed:
        return "stands"
    return "open"


DECISIONS = {
    "too short": "the registered patience is too short for this table",
    "stands": "the registered patience stands for this table",
    "open": "open until more of them are checked",
}


def _summary(title, record):
    needed = record["needs_check"]
    checked = _first_curves(record)
    beside = len(record["rows"]) - len(checked)
    if not needed:
        return (
            f"- **{title}**: no row needs the check (its records stopped late or ran under an "
            f"epoch cap); {beside} curve{'s' * (beside != 1)} checked beside."
        )
    later = [r["row"] for r in checked if stopping.best_after_stop(r)]
    line = (
        f"- **{title}**: {len(checked)} of the {len(needed)} rows that need the check are "
        f"checked; dev's best comes after the registered stop on {len(later)}"
        + (f" ({', '.join(later)})" if later else "")
        + f": {DECISIONS[decision(record)]}."
        + (f" {beside} other curve{'s' * (beside != 1)} checked beside." if beside else "")
    )
    pending = record.get("pending", [])
    if pending:
        hours = sum(p["hours"] for p in pending)
        names = ", ".join(f"{p['row']} ({p['hours']:.2f} h)" for p in pending)
        line += f" Not yet checked ({hours:.1f} h of one seed at the recorded speed): {names}."
    return line


def render(records):
    """The section's Markdown for `records`: (title, record) pairs of one paper's tables."""
    commands = dict.fromkeys(row["command"] for _, record in records for row in record["rows"])
    lines = ["Checked by " + "; ".join(f"`{c}`" for c in commands) + " (dev only).", ""]
    lines = (lines if commands else []) + ["Per table:", ""]
    lines += [_summary(title, record) for title, record in records]
    rows = [_row_line(title, row) for title, record in records for row in record["rows"]]
    if not rows:
        return "\n".join(lines) + "\n"
    lines += [
        "",
        "| table | row | seed | recorded selected / run epochs, per seed | best of the schedule "
        "| registered patience: stop, selected | highest dev after the stop | s/epoch |",
        "|---|---|---|---|---|---|---|---|",
    ]
    return "\n".join(lines + rows) + "\n"


def record_path(results_dir, table, scale):
    return f"{results_dir}/stopping-check-{table}-{scale}.json"


def doc_sections(results_dir):
    """docs/<paper>.md -> its section's Markdown, from every table's records at both scales
    under `results_dir` (the tables with a checked curve or a row that needs one)."""
    by_doc = {}
    for table in registry.tables():
        config = registry.select(table=table)[0]
        for scale in SCALES:
            record = read_json(record_path(results_dir, table, scale), None)
            if record is not None and (record["rows"] or record["needs_check"]):
                title = f"{config.table}, {config.dataset}, {scale}"
                doc = f"docs/{config.name.split('/')[0]}.md"
                by_doc.setdefault(doc, []).append((title, record))
    return {doc: render(found) for doc, found in sorted(by_doc.items())}
