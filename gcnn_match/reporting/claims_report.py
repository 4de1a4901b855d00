"""CLAIMS.md and one forest plot per paper: each claim's Δ, ours with its interval beside the
paper's, and the verdict."""

import pathlib
import re

import numpy as np
from matplotlib.ticker import NullFormatter, ScalarFormatter

from gcnn_match.claims.assess import counts
from gcnn_match.claims.plans import judged_metric
from gcnn_match.claims.registry import COUNT_METRIC, PAPERS, TIME_METRICS
from gcnn_match.claims.verdicts import (
    AFTER_HOLM,
    ASO_VERDICTS,
    BELOW_FLOOR,
    BORDERLINE,
    CITED,
    JUDGED,
    NOT_IMPLEMENTED,
    NOT_RUN,
    READINGS,
    TABLE_AGAINST_TEXT,
    UNDERTRAINED,
    VERDICTS,
    aso_disagrees,
    aso_side,
    rule_lines,
)
from gcnn_match.reporting.heatmaps import new_figure, save_png

METHOD = """\
Δ is A − B in points (accuracy, P@1, MAP, MRR, F1 or FEVER score × 100) from the per-example
prediction records in `results/predictions/`, with a 95% interval over the test examples
(paired bootstrap) and the seeds of each row (Student's t on their spread, Welch–Satterthwaite
degrees of freedom); a majority vote's seed level is a delete-d jackknife; time claims are
ratios A / B of the whole-epoch, step or batch timings of `results/epoch-times-*.json`,
`results/bench*.json` and `results/latency.json` on the paper's kind of device; parameter claims
are ratios A / B of the counts of our built models. p is the one-sided p of the claimed side
("against": of the other side, where the draws lean there), with its Holm adjustment in
brackets; "ASO" is the ε_min of the almost-stochastic-order test over the per-seed scores
(Dror et al., 2019) as a second opinion. Each row's details line gives the paper's sentence,
the seeds and epochs, the scale, where both rows lie against their table's floors (majority
class, TF-IDF + LR; `results/floor-<table>-<scale>.json`) and whether the paper's value lies
in our interval. The method: [docs/design.md#claims](docs/design.md#claims).
"""
KINDS = ("accuracy-like", "time", "parameters")


def figure_path(figures_dir, paper):
    return pathlib.Path(figures_dir) / f"claims-{paper.lower()}.png"


def _rows(claim):
    """Row names as the paper prints them (the models' names for latency, the paper's name of
    a cited row)."""
    if claim.configs is None:
        return claim.rows
    return tuple(name if c is None else c.row for name, c in zip(claim.rows, claim.configs))


def _compared(claim):
    """ "A vs B", or "A − B vs C − D" for a contrast."""
    rows = _rows(claim)
    if len(rows) == 4:
        return f"{rows[0]} − {rows[1]} vs {rows[2]} − {rows[3]}"
    return f"{rows[0]} vs {rows[1]}"


def anchor(claim):
    """The claim's row anchor in CLAIMS.md ("gcnn-gcnn-beats-cnn-quora"), by which other
    documents link the one claim a sentence rests on."""
    text = f"{claim.paper} {claim.statement} {_where(claim)}"
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _where(claim):
    """The dataset of a claim's rows."""
    if claim.configs is None:
        return "CPU latency"
    return claim.registered.dataset


def _value(value, is_ratio):
    if value is None:
        return "–"
    return f"{value:.2f}×" if is_ratio else f"{100 * value:+.2f}"


def _paper_cell(claim):
    text = _value(claim.paper_value, claim.is_ratio)
    if claim.expected == "equivalent":
        text += f" (comparable: within ±{100 * claim.margin:.2f})"
    return text


def _ours_cell(outcome):
    if outcome.estimate is None:
        return "–"
    is_ratio = outcome.claim.is_ratio
    text = _value(outcome.estimate, is_ratio)
    if outcome.low is None:
        return f"{text} (no interval)"
    return f"{text} [{_value(outcome.low, is_ratio)}, {_value(outcome.high, is_ratio)}]"


def _floor_cell(outcome):
    return outcome.floor.describe() if outcome.floor else "–"


def _verdict_cell(outcome):
    hours = "" if outcome.hours is None else f" (about {outcome.hours:.1f} h)"
    if outcome.verdict == "not run":
        said = [outcome.note] if outcome.note else []
        said += [f"data missing: {outcome.missing_data}"] if outcome.missing_data else []
        details = f" ({'; '.join(said)})" if said else ""
        text = f"not run{details}" + (f": `{outcome.command}`{hours}" if outcome.command else "")
        return text + (f"<br>{outcome.also_measured}" if outcome.also_measured else "")
    text = f"**{outcome.verdict}**"
    text = f"{text} ({outcome.note})" if outcome.note else text
    if aso_disagrees(outcome):
        text += f"; ASO disagrees: it finds {aso_side(outcome)} dominant"
    if outcome.command:
        text += f": `{outcome.command}`{hours}"
    if outcome.also_measured:
        text += f"<br>{outcome.also_measured}"
    return text


def _metric(claim):
    """The metric a claim is judged on, its registered one where that is another (a column
    of the split that selected the checkpoint, read on test instead), and the paper's column
    where the rows set ours against another (MultiNLI's Kaggle test sets, FEVER's dev)."""
    judged = judged_metric(claim)
    text = judged if judged == claim.metric else f"{judged} in place of {claim.metric}"
    if claim.paper_metric in (claim.metric, judged):
        return text
    return f"{text} against the paper's {claim.paper_metric}"


def _p(value):
    return "< 0.0001" if value < 1e-4 else f"{value:.4f}"


def _p_cell(outcome):
    if outcome.p is None:
        return "–"
    if outcome.leaning_p < outcome.p:
        return f"{_p(outcome.p)}; against {_p(outcome.leaning_p)} ({_p(outcome.holm_p)})"
    return f"{_p(outcome.p)} ({_p(outcome.holm_p)})"


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def kind(claim):
    """The kind of a claim's measurement: "accuracy-like", "time" or "parameters"."""
    if claim.metric == COUNT_METRIC:
        return "parameters"
    return "time" if claim.metric in TIME_METRICS else "accuracy-like"


def render_counts(outcomes, data_checked=False, by_paper=True):
    """The counts table: claims per verdict (in the order of the rule), by kind and by paper.

    Args:
        outcomes: the `Outcome`s.
        data_checked: whether they were assessed against a data folder; adds the row of the
            "not run" claims whose data are missing there.
        by_paper: whether a column per paper stands between the kinds and "all".
    """
    groups = [(k, lambda o, k=k: kind(o.claim) == k) for k in KINDS]
    if by_paper:
        groups += [(paper, lambda o, p=paper: o.claim.paper == p) for paper in PAPERS]
    groups += [("all", lambda o: True)]
    chosen = {name: [o for o in outcomes if keep(o)] for name, keep in groups}
    found = {name: counts(group) for name, group in chosen.items()}
    rows = [(verdict, [found[name][verdict] for name in chosen]) for verdict in VERDICTS]
    if data_checked:
        missing = [sum(bool(o.missing_data) for o in group) for group in chosen.values()]
        rows.append(("of which not run, data missing", missing))
    method = [sum(o.claim.method_quote for o in group) for group in chosen.values()]
    rows.append(("of all, quoting a method sentence", method))
    rows.append(("claims", [len(group) for group in chosen.values()]))
    lines = ["| verdict | " + " | ".join(chosen) + " |", "|---" * (len(chosen) + 1) + "|"]
    return lines + [f"| {name} | " + " | ".join(map(str, cells)) + " |" for name, cells in rows]


def number(outcome, outcomes):
    """The claim's number in its paper's table of CLAIMS.md."""
    return [o for o in outcomes if o.claim.paper == outcome.claim.paper].index(outcome) + 1


def _listed(chosen, outcomes):
    return ", ".join(f"{o.claim.paper} {number(o, outcomes)} ({o.claim.statement})" for o in chosen)


def findings(outcomes, data_checked=False):
    """The five lines CLAIMS.md opens with: what was measured, what holds after Holm, which
    contradictions are measurements, the scale the rows ran at, and the rows against their
    floors."""
    found = counts(outcomes)
    measured = [o for o in outcomes if o.reading in READINGS]
    by_kind = ", ".join(f"{sum(kind(o.claim) == k for o in measured)} {k}" for k in KINDS)
    tested = sum(o.p is not None for o in outcomes)
    missing = sum(bool(o.missing_data) for o in outcomes)
    waiting = f" ({missing} of them for data not in the data folder)" if data_checked else ""
    contradicted = [o for o in outcomes if o.verdict == "contradicted"]
    counted = sum(kind(o.claim) == "parameters" for o in contradicted)
    method = sum(o.claim.method_quote for o in outcomes if o.verdict in JUDGED)
    return [
        f"- **{len(outcomes)} claims**, {len(measured)} of them measured ({by_kind}); "
        f"{found[CITED]} against rows the papers cite from other work, {found[NOT_IMPLEMENTED]} "
        f"against the authors' own rows not built here yet, {found[NOT_RUN]} not run{waiting}.",
        f"- **{found['confirmed']} confirmed, {found['contradicted']} contradicted** with the "
        f"family-wise error over the {tested} tested claims held (Holm); {found[AFTER_HOLM]} "
        f"more exclude no difference only before that adjustment; {found['inconclusive']} "
        f"inconclusive, {found[BORDERLINE]} borderline, {found[BELOW_FLOOR]} below floor, "
        f"{found[UNDERTRAINED]} undertrained at this budget, {found[TABLE_AGAINST_TEXT]} where "
        f"the paper's table disagrees with its text; {method} of the confirmed or contradicted "
        f"rest on a method sentence, not a result; almost stochastic order, the second "
        f"opinion, disagrees with {sum(map(aso_disagrees, outcomes))} of the "
        f"{sum(aso_side(o) is not None and o.verdict in ASO_VERDICTS for o in outcomes)} "
        "verdicts it can speak to.",
        f"- **Contradicted**: {_listed(contradicted, outcomes) or 'none'}"
        + (f"; {counted} of them exact parameter counts." if counted else "."),
        "- **Scale**: " + _scale_finding(measured),
        "- **Floors**: " + _floor_finding(measured),
    ]


def _scale_finding(measured):
    rows = [o for o in measured if kind(o.claim) == "accuracy-like"]
    scales = ", ".join(sorted({o.scale for o in rows})) or "no"
    configs = {c.name: c for o in rows for c in o.claim.configs or () if c}
    # A config names "paper's vectors|stand-in": the first source found is read.
    sources = [c.embeddings.split("|") for c in configs.values()]
    papers = sorted({s[0] for s in sources if len(s) > 1})
    stand_ins = sorted({s[-1] for s in sources if len(s) > 1})
    read = sorted({s[-1] for s in sources})
    return (
        f"the {len(rows)} measured accuracy-like claims read rows trained at the {scales} scale "
        "(the official dev split minus a held-out part trains, the part selects, test scores; "
        f"[docs/data.md](docs/data.md)), five seeds a row, on {' and '.join(read)} vectors "
        f"({' and '.join(stand_ins)} in place of the papers' {', '.join(papers)}, which the data "
        "folder lacks)."
    )


def _floor_finding(measured):
    """How many of the rows the measured claims read lie at or above each floor of their
    table, and how many below it (a row counted once per table)."""
    sides = {}
    for o in measured:
        if o.floor and o.floor.floors:
            for name, mean in zip(_rows(o.claim), o.floor.means):
                sides[(o.claim.table_id, name)] = [(f, mean >= v) for f, v in o.floor.floors]
    if not sides:
        return "no measured claim has a floor record."
    tally = {}
    for row in sides.values():
        for floor_name, above in row:
            tally.setdefault(floor_name, [0, 0])[0 if above else 1] += 1
    said = "; ".join(f"{a} at or above {name}, {b} below it" for name, (a, b) in tally.items())
    return f"of the {len(sides)} rows the measured claims read: {said}."


def _aso_text(outcome):
    if not outcome.aso:
        return ""
    claimed, other = outcome.aso
    return f"{claimed:.2f} for the claimed side, {other:.2f} for the other"


def _details(outcome):
    """The details line under a claim: table and quote, seeds, epochs, scale, floors, size."""
    claim = outcome.claim
    said = [f"{claim.paper_table}: “{claim.quote}”" + (f" ({claim.note})" if claim.note else "")]
    if claim.method_quote:
        said.append("a method sentence, counted apart")
    for label, value in [
        ("seeds", outcome.sample),
        ("epochs", outcome.epochs),
        ("scale", outcome.scale),
        ("floors", _floor_cell(outcome) if outcome.floor else ""),
        ("vs paper", outcome.size),
        ("ASO ε_min", _aso_text(outcome)),
    ]:
        if value:
            said.append(f"{label}: {value}")
    return " · ".join(said)


def render_paper(outcomes, paper, figure=None):
    """One paper's section: its forest plot (a path relative to CLAIMS.md) and claim table,
    each claim with its details line."""
    lines = [f"## {paper}", ""]
    if figure:
        lines += [f"![{paper}: our Δ beside the paper's]({figure})", ""]
    lines += [
        "| # | claim: A vs B (dataset, metric) | paper Δ | our Δ [95% CI] | p (Holm) | verdict |",
        "|---" * 6 + "|",
    ]
    for number, outcome in enumerate((o for o in outcomes if o.claim.paper == paper), 1):
        claim = outcome.claim
        cells = [
            number,
            f"{claim.statement}: {_compared(claim)} ({_where(claim)}, {_metric(claim)})"
            f'<a id="{anchor(claim)}"></a><br><sub>{_details(outcome)}</sub>',
            _paper_cell(claim),
            _ours_cell(outcome),
            _p_cell(outcome),
            _verdict_cell(outcome),
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return lines


def render_markdown(outcomes, command, figures=None, data_dir=None):
    """CLAIMS.md: its findings, the verdict rule, the counts, then each paper's forest plot and
    table.

    Args:
        outcomes: the `Outcome`s.
        command: the command that rendered it.
        figures: {paper: figure path relative to CLAIMS.md}, for the papers that have one.
        data_dir: the data folder the outcomes were checked against, as the command names it;
            None when they were not.
    """
    figures = figures or {}
    data_checked = data_dir is not None
    tested = sum(o.p is not None for o in outcomes)
    lines = ["# Claims", "", *findings(outcomes, data_checked), ""]
    lines += [
        "Every comparative statement the four papers make from their own rows "
        "(`gcnn_match/claims/`), checked against the committed records; rendered by "
        f"`{command}`.",
        "",
        "The verdicts, in the order the rule applies them (`gcnn_match/claims/verdicts.py`; "
        "the first that holds is the verdict):",
        "",
        *rule_lines(),
        "",
        f"The tested family is the {tested} claims with a bootstrap p: every claim whose rows "
        "were measured with an interval, whatever a later check says, since each is a test the "
        "report ran. Exact parameter counts and claims without an interval test nothing.",
        "",
        METHOD,
        *render_counts(outcomes, data_checked),
        "",
    ]
    if data_checked:
        lines += [
            "“Data missing”: claims not run whose rows read dataset splits with no "
            f"file in `{data_dir}`, the data folder checked (each cell names them): they wait "
            "for data; `reproduce.py` downloads a split that has a public URL and names where "
            "to place the others (vectors and other resources are not checked). The other "
            "claims not run have their splits there and wait for runs (the cell gives the "
            "command).",
            "",
        ]
    for paper in PAPERS:
        if any(o.claim.paper == paper for o in outcomes):
            lines += render_paper(outcomes, paper, figures.get(paper)) + [""]
    return "\n".join(lines)


def _label(outcome):
    claim = outcome.claim
    suffix = "" if outcome.estimate is not None else f" ({outcome.verdict})"
    return f"{claim.statement} · {_where(claim)}{suffix}"


def _forest(axes, outcomes, is_ratio):
    y = np.arange(len(outcomes))[::-1]
    scale = 1.0 if is_ratio else 100.0
    paper = [o.claim.paper_value * scale for o in outcomes]
    axes.scatter(paper, y, marker="D", color="tab:red", label="paper", zorder=3)
    for position, outcome in zip(y, outcomes):
        if outcome.estimate is None:
            continue
        estimate = outcome.estimate * scale
        if outcome.low is not None:
            axes.plot([outcome.low * scale, outcome.high * scale], [position] * 2, color="k")
        axes.scatter(estimate, position, marker="o", color="k", zorder=4)
    axes.scatter([], [], marker="o", color="k", label="ours (bar: 95% interval)")
    axes.axvline(1.0 if is_ratio else 0.0, color="gray", linewidth=0.8)
    axes.set_yticks(y, labels=[_label(o) for o in outcomes], fontsize="small")
    axes.grid(axis="x", alpha=0.3)
    if is_ratio:
        axes.set_xscale("log")
        axes.xaxis.set_major_formatter(ScalarFormatter())
        axes.xaxis.set_minor_formatter(NullFormatter())
        axes.set_xlabel("ratio A / B (time or parameters)")
    else:
        axes.set_xlabel("Δ = A − B (points)")
    axes.legend(loc="best", fontsize="small")


def plot_forest(outcomes, path, title=None):
    """Writes a forest plot of `outcomes`: one line per claim, the paper's Δ (diamond) and
    ours with its interval (dot and bar); time ratios on a second, logarithmic panel."""
    groups = [
        [o for o in outcomes if not o.claim.is_ratio],
        [o for o in outcomes if o.claim.is_ratio],
    ]
    groups = [(g, is_ratio) for g, is_ratio in zip(groups, (False, True)) if g]
    heights = [len(g) + 1.5 for g, _ in groups]
    figure = new_figure(9.5, 0.3 * sum(heights) + 1.0)
    panels = figure.subplots(len(groups), 1, squeeze=False, height_ratios=heights)[:, 0]
    for axes, (group, is_ratio) in zip(panels, groups):
        _forest(axes, group, is_ratio)
    if title:
        figure.suptitle(title)
    return save_png(figure, path)
