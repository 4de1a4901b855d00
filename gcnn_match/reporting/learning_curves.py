"""A learning curve's figure and its section of LEARNING_CURVES.md, from its record
(results/curves-<name>.json, `claims/learning_curves.py`) alone; the floors it holds are drawn
as grey reference lines and listed as reference rows (docs/design.md#floors).

    write_figure(curve, record, "figures/curves-gcnn-quora.png")
    markdown = render_section([(curve, record or None), ...], "figures")
"""

import os

import numpy as np

from gcnn_match.claims.learning_curves import shown_entries, shown_overrides, shown_runs
from gcnn_match.evidence.runs import run_of_registered
from gcnn_match.experiments import registry
from gcnn_match.reporting.heatmaps import new_figure, save_png

SECTION = "learning-curves"
TITLE = "# Learning curves"  # of the document, when the section creates it


def figure_path(figures_dir, name):
    return os.path.join(figures_dir, f"curves-{name}.png")


def _label(row):
    return registry.get(row).row


def _size_name(size):
    return "whole part" if size is None else f"{size:,}"


def points(curve, record, row):
    """[(size, training pairs, [metric per seed], entries)] of `row`'s sizes with runs."""
    found = []
    for size in curve.sizes:
        entries = shown_runs(record["runs"], row, size)
        if entries:
            values = [entry[curve.metric] for entry in entries]
            found.append((size, entries[0]["train_pairs"], values, entries))
    return found


# How each floor is drawn: grey, so that the rows' colours stay theirs.
_FLOOR_STYLES = {"tfidf_lr": dict(linestyle="--", marker="s"), "majority": dict(linestyle=":")}


def floor_points(curve, record):
    """{floor name: (its row label, [(training pairs, metric) per size])} of the record's
    floors; empty without floors."""
    found = {}
    for at in record.get("floors", {}).get("sizes", []):
        for floor in at["floors"]:
            if curve.metric in floor["metrics"]:
                points = found.setdefault(floor["name"], (floor["row"], []))[1]
                points.append((at["examples"]["train"], floor["metrics"][curve.metric]))
    return found


def draw(curve, record):
    """Test metric (%) against training pairs (log x): per row the mean over seeds with the
    sample standard deviation as error bars, each seed as a dot; each floor a grey line."""
    figure = new_figure(6.4, 4.2)
    axes = figure.add_subplot(1, 1, 1)
    for row in curve.rows:
        found = points(curve, record, row)
        if not found:
            continue
        pairs = np.array([p for _, p, _, _ in found], dtype=float)
        means = np.array([100 * np.mean(v) for _, _, v, _ in found])
        spreads = np.array([100 * np.std(v, ddof=1) if len(v) > 1 else 0.0 for _, _, v, _ in found])
        line = axes.errorbar(pairs, means, yerr=spreads, marker="o", capsize=4, label=_label(row))
        for x, (_, _, values, _) in zip(pairs, found):
            axes.scatter(
                [x] * len(values),
                [100 * v for v in values],
                s=10,
                alpha=0.4,
                color=line[0].get_color(),
            )
    floors = floor_points(curve, record)
    for name, (label, found) in floors.items():
        pairs, values = zip(*found)
        style = _FLOOR_STYLES.get(name, dict(linestyle="-."))
        axes.plot(pairs, [100 * v for v in values], color="grey", label=label, **style)
    axes.set_xscale("log")
    all_pairs = {e["train_pairs"] for e in record["runs"]}
    all_pairs = sorted(all_pairs | {n for _, found in floors.values() for n, _ in found})
    if all_pairs:
        axes.set_xticks(all_pairs, [f"{p:,}" for p in all_pairs])
        axes.minorticks_off()
    axes.set_xlabel("training pairs (nested subsets; log scale)")
    metric = curve.metric.replace("_", " ")
    axes.set_ylabel(f"{metric} (%): mean ± sample std, dots: seeds", fontsize="small")
    axes.set_title(curve.title, fontsize="medium")
    axes.grid(alpha=0.3)
    # The rows first, then the floors (matplotlib lists plain lines before error bars).
    handles, labels = axes.get_legend_handles_labels()
    order = sorted(range(len(labels)), key=lambda i: labels[i].startswith("reference: "))
    axes.legend([handles[i] for i in order], [labels[i] for i in order], fontsize="small")
    return figure


def write_figure(curve, record, path):
    """Saves `draw`'s figure to `path` (PNG); returns `path`."""
    return save_png(draw(curve, record), path)


def _points_table(curve, record):
    lines = [
        f"| row | training pairs | {curve.metric.replace('_', ' ')} (%) | seeds "
        "| run / registered epochs |",
        "|---|---|---|---|---|",
    ]
    for row in curve.rows:
        found = {size: rest for size, *rest in points(curve, record, row)}
        for size in curve.sizes:
            if size not in found:
                lines.append(f"| {_label(row)} | {_size_name(size)} | not run | 0 | – |")
                continue
            pairs, values, entries = found[size]
            value = f"{100 * np.mean(values):.2f}"
            if len(values) > 1:
                value += f" ± {100 * np.std(values, ddof=1):.2f}"
            registered = entries[0]["registered_epochs"]
            cap = entries[0]["max_epochs"]
            epochs = run_of_registered(
                [e["epochs_run"] for e in entries], registered, None if cap == registered else cap
            )
            lines.append(f"| {_label(row)} | {pairs:,} | {value} | {len(values)} | {epochs} |")
    for label, found in floor_points(curve, record).values():
        lines += [f"| *{label}* | {pairs:,} | {100 * v:.2f} | – | – |" for pairs, v in found]
    return lines


def _floors_note(curve, record):
    """The note on the reference rows: how they were computed, or that the record has none."""
    floors = record.get("floors")
    if not floors:
        return (
            "- No floors in the record yet: the command above (or with `--report_only`) "
            "computes them where the data is under `--data_dir`."
        )
    by_size = [
        (at["examples"]["train"], {f["name"]: f for f in at["floors"]}) for at in floors["sizes"]
    ]
    details = []
    majority = [(n, found["majority"]["label"]) for n, found in by_size if "majority" in found]
    if len({label for _, label in majority}) == 1:
        details.append(f"majority class: always '{majority[0][1]}', at every size")
    elif majority:
        labels = ", ".join(f"'{label}' at {n:,}" for n, label in majority)
        details.append(f"majority class: the training subset's most frequent label ({labels})")
    chosen = [
        f"C = {found['tfidf_lr']['C']:g} at {n:,}" for n, found in by_size if "tfidf_lr" in found
    ]
    if chosen:
        details.append(f"TF-IDF + LR: C chosen by the {floors['selection']} ({', '.join(chosen)})")
    return (
        "- *Reference* rows (grey lines in the figure): computed by this project, not the "
        "paper's, without a neural network (docs/design.md#floors), at each size on exactly "
        "the examples that size's runs read: its nested training subset, the same held-out "
        f"part and test split; {'; '.join(details)}. Computed by `{floors['command']}` "
        f"({floors['library']})."
    )


def _interval_text(interval):
    return (
        f"{100 * interval['estimate']:+.2f} [{100 * interval['low']:+.2f}, "
        f"{100 * interval['high']:+.2f}]"
    )


def _gaps_table(curve, record):
    heads = " | ".join(_size_name(size) for size in curve.sizes)
    lines = [
        f"| gap A − B (points, 95% interval) | {heads} | change, smallest → largest | verdict |",
        "|---|" + "---|" * (len(curve.sizes) + 2),
    ]
    for gap in record["gaps"]:
        at = {entry["size"]: entry for entry in gap["sizes"]}
        cells = [
            f"{_interval_text(at[s])} ({at[s]['train_pairs']:,} pairs)" if s in at else "not run"
            for s in curve.sizes
        ]
        change = gap["change"]
        change_text = "–"
        if change:
            change_text = (
                f"{_interval_text(change)} ({_size_name(change['from'])} → "
                f"{_size_name(change['to'])})"
            )
        short = f" ({'; '.join(gap['short'])})" if gap.get("short") else ""
        lines.append(
            f"| {_label(gap['a'])} − {_label(gap['b'])} | {' | '.join(cells)} | {change_text} "
            f"| **{gap['verdict']}**{short} |"
        )
    return lines


def _commands(curve, shown):
    """The line naming the command of the runs `shown`, with the overrides (an epoch cap) they
    were trained with; one per set of overrides where the rows or sizes differ."""
    found = shown_overrides(shown) or [()]
    if len(found) == 1:
        return [f"Command: `{curve.command(changes=found[0])}`"]
    return ["Commands (the runs shown differ in their overrides):", ""] + [
        f"- `{curve.command(changes=changes)}`" for changes in found
    ]


def render_curve(curve, record, figure):
    """The section of one curve; `record` None (or without runs): "not run" with the command
    that runs it. `figure`: the figure's path relative to the report."""
    # The runs the tables show; the record keeps other configurations' runs beside them.
    shown = shown_entries(curve, (record or {}).get("runs", []))
    lines = [f"## {curve.title} (`{curve.name}`)", ""]
    rows = ", ".join(f"{_label(row)} (`{row}`)" for row in curve.rows)
    sizes = " and ".join(f"{size:,}" for size in curve.sizes if size is not None) + " pairs"
    if None in curve.sizes:
        sizes += " and the whole part"
    lines += [
        f"Rows {rows}; {curve.scale} scale, training on nested subsets ({sizes}) of its "
        f"training part, seeds {', '.join(map(str, curve.seeds))}; every size selects on the "
        "same held-out part and is tested on the same test split (docs/design.md#learning-curves).",
        "",
        *_commands(curve, shown),
        "",
    ]
    if curve.note:
        lines += [curve.note, ""]
    if not record or not record["runs"]:
        return "\n".join(lines + ["Not run.", ""])
    lines += [f"![{curve.title}]({figure})", ""]
    lines += _points_table(curve, record) + [""] + _gaps_table(curve, record) + [""]
    lines.append(
        "- ±: the sample standard deviation over seeds. Gap: Δ = A − B in points with the 95% "
        "seed-and-test-set interval; change: (Δ at the largest size) − (Δ at the "
        "smallest), its interval from the same bootstrap; *opens* / *closes* when that interval "
        "lies above / below 0, *inconclusive* when it holds 0; *undertrained at this budget*, "
        "whatever the interval, when most seeds of a row at the smallest or the largest size "
        "ran under an epoch cap that their early stopping would not have ended them by (a run "
        "that does not record its selected epoch taken as selecting its last)."
    )
    if any(gap.get("short") for gap in record["gaps"]):
        lines.append(
            f"- Undertrained: `{curve.command()}` trains the runs to their registered schedule "
            "(no epoch cap)."
        )
    lines.append(_floors_note(curve, record))
    cells = [c for gap in record["gaps"] for c in gap["sizes"] + [gap["change"]] if c]
    if any(min(c["seeds_a"], c["seeds_b"]) < 2 for c in cells):
        lines.append(
            "- Some cells have one seed: their intervals reflect test-set sampling only, not "
            "the seed variance."
        )
    commands = list(dict.fromkeys(e["command"] or "not recorded" for e in shown))
    machines = list(dict.fromkeys(e["machine"] or "not recorded" for e in shown))
    lines.append(f"- Machines: {'; '.join(machines)}.")
    lines += ["", "Runs trained by:", ""] + [f"- `{c}`" for c in commands]
    return "\n".join(lines) + "\n"


def render_section(curves, figures):
    """The marked section of LEARNING_CURVES.md, one part per curve: `curves` are (curve, record
    or None) pairs, `figures` maps a curve's name to its figure's path relative to the report."""
    parts = [render_curve(curve, record, figures.get(curve.name)) for curve, record in curves]
    return "\n".join(parts)
