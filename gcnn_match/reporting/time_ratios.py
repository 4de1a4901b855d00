"""Time-per-epoch ratios of a table's row pairs, ours beside the paper's, as Markdown.

Ours compares only runs that one command trained on one machine, seed by seed (their
`provenance` in the table's record, `evidence/runs.py`); otherwise the cell says why not.
"""

from gcnn_match.evidence import runs


def render_time_ratios(rows, pairs):
    """One Markdown list line of the time ratios of `pairs` ((slow row, fast row) names) of
    `rows`, the paper's and ours ("- Time ratios, paper / ours: A / B 1.32 / 2.77; ..."), or ""
    when there are no pairs."""
    if not pairs:
        return ""
    by_row = {row["row"]: runs.upgrade(row) for row in rows}
    items = []
    for slow, fast in pairs:
        paper = ours = "–"
        if slow in by_row and fast in by_row:
            ps, pf = (by_row[r]["targets"].get("seconds_per_epoch") for r in (slow, fast))
            if ps and pf:
                paper = f"{ps / pf:.2f}"
            ours = _time_ratio(by_row[slow], by_row[fast])
        items.append(f"{slow} / {fast} {paper} / {ours}")
    return f"- Time ratios, paper / ours: {'; '.join(items)}.\n"


def _time_ratio(slow, fast):
    times = [row.get("seconds_per_epoch") for row in (slow, fast)]
    if not all(t and t[0] for t in times):
        return "not run"
    origins = [
        [(p["seed"], p["machine"], p["command"]) for p in row["provenance"]] for row in (slow, fast)
    ]
    if any(None in origin for of_row in origins for origin in of_row):
        return "– (which command trained each run is not recorded)"
    if len({machine for of_row in origins for _, machine, _ in of_row}) > 1:
        return "– (runs from different machines)"
    by_seed = [{seed: command for seed, _, command in of_row} for of_row in origins]
    if by_seed[0].keys() != by_seed[1].keys():
        return "– (runs of different seeds)"
    if by_seed[0] != by_seed[1]:
        return "– (runs from different commands)"
    return f"{times[0][0] / times[1][0]:.2f}"
