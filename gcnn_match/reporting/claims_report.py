"""CLAIMS.md and one forest plot per paper: each claim's Δ, ours with its interval beside the
paper's, and the verdict."""

import datetime
import pathlib
import re

import numpy as np
from matplotlib.ticker import NullFormatter, ScalarFormatter

from gcnn_match.claims.assess import VERDICTS, counts, judged_metric
from gcnn_match.claims.registry import PAPERS
from gcnn_match.reporting.heatmaps import new_figure, save_png

INTRO = """\
Every comparative statement the four papers make from their own rows
(`gcnn_match/claims/`), checked against our measurements. Differences of accuracy-like
metrics come from the per-example prediction records in `results/predictions/`; Δ is in
points (accuracy, P@1, MAP, MRR, F1 or FEVER score × 100), A − B, with its 95%
seed-and-test-set bootstrap interval; time claims are ratios A / B from the whole-epoch
records `results/epoch-times-*.json`, the step benchmarks `results/bench*.json` and
`results/latency.json`, judged on the paper's kind of device, with a 95% bootstrap interval
over the timed epochs, steps or batches where the record keeps them; parameter claims are
ratios A / B of the counts of our built models. A claim against a row the paper cites from other
work (BiMPM, BERT...) or gives only in a footnote (the C-LSTMs' stacked attention LSTM) is
"cited row, not reproduced".
A verdict compares A with B only: both rows can be below the floors of their table (majority
class, TF-IDF + LR; `results/floor-<table>-<scale>.json`), so the column "A, B vs floors" sets
each row's metric (mean over seeds) against them.

The verdicts (the rules: `gcnn_match/claims/verdicts.py`): **confirmed** or **contradicted**
when the interval excludes no difference on the claimed side or the other (for a claim that
two rows are comparable, when it lies inside ±margin, the claim's own margin shown beside the
paper's Δ, or wholly outside it), **inconclusive** when it does not; **borderline** when the
one-sided bootstrap p of either side lies within two Monte Carlo
standard errors of 0.025, so that another set of draws could turn the verdict; **below floor**
when both rows lie below their table's majority class (random order for ranking);
**undertrained at this budget** when a row ran under an epoch cap at which its registered
early stopping would not yet have ended most of its seeds (the command trains them to their
schedule, with its estimated hours); **not run** when a row lacks the runs, the test
predictions (no claim is judged on the split that selected the checkpoint) or a record on the
paper's kind of device (time claims: GPU epochs for GCNN, CPU latency for COIN; a record of
another kind of device, or another record of the paper's kind than the one judged, is shown
on a line of its own, never judged).
Beside the verdict: p, the one-sided bootstrap p (the fraction of draws on the wrong side of
no difference); where the draws lean against the claim, "against" and that side's p (the
fraction on the claimed side); in brackets, the Holm adjustment over the report's tested
claims of the side they lean to, so that a confirmed or a contradicted verdict survives the
family-wise error when it is below 0.025; and whether the
paper's value lies inside our interval ("consistent with the paper") or only the direction
holds ("direction holds, size differs").
The method and the verdict rule: [docs/design.md#claims](docs/design.md#claims).
"""


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


def _p_cell(outcome):
    if outcome.p is None:
        return "–"
    if outcome.leaning_p < outcome.p:
        return f"{outcome.p:.4f}; against {outcome.leaning_p:.4f} ({outcome.holm_p:.4f})"
    return f"{outcome.p:.4f} ({outcome.holm_p:.4f})"


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _count_cells(outcomes, data_checked):
    """The verdicts' counts, then (when the data were checked) how many lack data."""
    found = counts(outcomes)
    cells = [found[v] for v in VERDICTS]
    if data_checked:
        cells.append(sum(bool(o.missing_data) for o in outcomes))
    return " | ".join(map(str, cells))


def render_counts(outcomes, data_checked=False):
    """The counts table: claims per paper and verdict.

    Args:
        outcomes: the `Outcome`s.
        data_checked: whether they were assessed against a data folder; adds the column of
            the "not run" claims whose data are missing there.
    """
    columns = list(VERDICTS) + (["of which data missing"] if data_checked else [])
    lines = ["| paper | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for paper in PAPERS:
        found = [o for o in outcomes if o.claim.paper == paper]
        lines.append(f"| {paper} | {_count_cells(found, data_checked)} |")
    lines.append(f"| all | {_count_cells(outcomes, data_checked)} |")
    tested = sum(o.p is not None for o in outcomes)
    lines += [
        "",
        f"The report tests {tested} claims (those with a bootstrap p); the Holm-adjusted p "
        "beside each p (of the side its draws lean to) holds the family-wise error over them.",
    ]
    return lines


def render_paper(outcomes, paper, figure=None):
    """One paper's section: its forest plot (a path relative to CLAIMS.md) and claim table."""
    lines = [f"## {paper}", ""]
    if figure:
        lines += [f"![{paper}: our Δ beside the paper's]({figure})", ""]
    lines += [
        "| # | claim: A vs B | table | the paper says | paper Δ | our Δ [95% CI] | seeds "
        "| epochs (run / registered) | scale | A, B vs floors | p (Holm) | size vs paper "
        "| verdict |",
        "|---" * 13 + "|",
    ]
    for number, outcome in enumerate((o for o in outcomes if o.claim.paper == paper), 1):
        claim = outcome.claim
        cells = [
            number,
            f"{claim.statement}: {_compared(claim)} ({_where(claim)}, {_metric(claim)})"
            f'<a id="{anchor(claim)}"></a>',
            claim.paper_table,
            f"“{claim.quote}”" + (f" ({claim.note})" if claim.note else ""),
            _paper_cell(claim),
            _ours_cell(outcome),
            outcome.sample or "–",
            outcome.epochs or "–",
            outcome.scale or "–",
            _floor_cell(outcome),
            _p_cell(outcome),
            outcome.size or "–",
            _verdict_cell(outcome),
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return lines


def render_markdown(outcomes, command, figures=None, data_dir=None):
    """CLAIMS.md: counts per paper, then each paper's forest plot and table.

    Args:
        outcomes: the `Outcome`s.
        command: the command that rendered it.
        figures: {paper: figure path relative to CLAIMS.md}, for the papers that have one.
        data_dir: the data folder the outcomes were checked against, as the command names it;
            None when they were not.
    """
    figures = figures or {}
    lines = ["# Claims", "", INTRO]
    lines += [f"Rendered by `{command}` on {datetime.date.today().isoformat()}.", ""]
    lines += render_counts(outcomes, data_checked=data_dir is not None) + [""]
    if data_dir is not None:
        lines += [
            "“Of which data missing”: claims not run whose rows read dataset splits with no "
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
