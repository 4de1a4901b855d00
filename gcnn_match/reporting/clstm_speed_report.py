"""Markdown of the coupled LSTM speed measurement (`benchmarks/clstm_speed.py`): wavefront vs
per-cell loop per grid, and how each implementation's time grows with its work."""

import numpy as np

# The work each implementation's time is fitted against (row key, formula): slot updates of
# the wavefront, cells of the per-cell loop.
WORK = {"wavefront": ("updates", "(min(n, m) + 1)·(n + m - 1)"), "naive": ("cells", "n·m")}


def growth_exponents(rows, key, work="cells"):
    """ "cell, batch B" -> slope of log(time `key`) against log(`work`), "cells" (n·m) or
    "updates" (the wavefront's slots); 1: time proportional to that work."""
    exponents = {}
    for cell, batch in dict.fromkeys((r["cell"], r["batch"]) for r in rows):
        points = [
            (np.log(r[work]), np.log(r[key]))
            for r in rows
            if (r["cell"], r["batch"]) == (cell, batch) and key in r
        ]
        if len(points) >= 2:
            exponents[f"{cell}, batch {batch}"] = float(np.polyfit(*zip(*points), 1)[0])
    return exponents


def _measured(row, name):
    """`name`'s cells of one row: ms (CPU ms), and its ratio to the wavefront's."""
    if f"{name}_ms" not in row:
        return ["skipped", "–"]
    return [
        f"{row[f'{name}_ms']:.1f} ({row[f'{name}_cpu_ms']:.1f})",
        f"{row[f'{name}_over_wavefront']:.1f}x ({row[f'{name}_over_wavefront_cpu']:.1f}x)",
    ]


def _peak(row, name):
    return f"{row[f'{name}_peak_mib']:,.0f}" if f"{name}_peak_mib" in row else "–"


def render_markdown(rows, config, environment, command):
    """The table of `rows` measured under `config` (a `SpeedConfig`), the fitted growth
    exponents and how the numbers were made."""
    directions = "four" if len(config.directions) == 4 else str(len(config.directions))
    variants = config.compared()
    memory = config.rematerialize
    lines = [
        f"Produced by `{command}` on {environment['cpu']} ({environment['cpu_count']} "
        f"cores), TensorFlow {environment['tensorflow']}, no XLA. {config.num_layers} "
        f"block(s) of {directions} directions, k = {config.units}, e = {config.dim}; "
        f"forward + backward, fastest of {config.repeats} calls: wall ms (process CPU "
        "ms, all threads, which waiting for a busy core does not inflate). The wavefront "
        "takes n + m - 1 sequential steps of min(n, m) + 1 slots (its updates)"
        + (", the per-cell loop n·m steps of one cell" if "naive" in variants else "")
        + (
            "; the rematerialized layer is the wavefront recomputing each block's scan in "
            "the backward pass. Peak MiB: the process' resident high-water mark over each "
            "layer's warm-up and timed calls, TensorFlow's own footprint included (one "
            "measurement per process, the rematerialized layer first)"
            if memory
            else ""
        )
        + ".",
        "",
    ]
    header = ["cell", "batch", "n × m", "n·m", "wavefront updates", "wavefront ms (CPU)"]
    header += ["wavefront peak MiB"] if memory else []
    for name in variants:
        header += [f"{name} ms (CPU)", f"{name} / wavefront (CPU)"]
        header += [f"{name} peak MiB"] if memory else []
    header.append("load avg")
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for r in rows:
        cells = [
            r["cell"],
            r["batch"],
            f"{r['n']} × {r['m']}",
            r["cells"],
            r["updates"],
            f"{r['wavefront_ms']:.1f} ({r['wavefront_cpu_ms']:.1f})",
        ]
        cells += [_peak(r, "wavefront")] if memory else []
        for name in variants:
            cells += _measured(r, name)
            cells += [_peak(r, name)] if memory else []
        cells.append(f"{r['load_average']:.1f}")
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    lines.append("")
    for name, (work, formula) in WORK.items():
        exponents = growth_exponents(rows, f"{name}_cpu_ms", work)
        if exponents:
            fitted = "; ".join(f"{group}: {slope:.2f}" for group, slope in exponents.items())
            lines.append(
                f"- {name}: CPU time ∝ ({formula})^a, fitted a = {fitted} "
                "(a = 1: linear in that work)."
            )
    return "\n".join(lines) + "\n"
