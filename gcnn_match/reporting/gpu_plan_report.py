"""Markdown of a `make gpu-plan` record: per table, the hours of its registered schedule on the
measured device and the largest peak memory of its rows, against common card sizes."""

import collections

GIB = 2**30
CARDS_GB = (16, 24, 40, 80)
# Room a card keeps besides the measured peak: the CUDA context and the allocator's slack.
CARD_MARGIN_GIB = 1.0


def _fits(peak_bytes, card_gb):
    return "yes" if peak_bytes / GIB + CARD_MARGIN_GIB <= card_gb else "no"


def _hours(value, unmeasured):
    cell = f"{value:.1f}" if value >= 0.1 else f"{value:.2f}"
    return f"≥ {cell}" if unmeasured else cell


def _table_line(table, rows):
    trained = [r for r in rows if "runs_of" not in r]
    done = [r for r in trained if "hours_per_seed" in r]
    unmeasured = len(trained) - len(done)
    if not done:
        return f"| {table} | 0 of {len(trained)} | – | – | – | – |" + " – |" * len(CARDS_GB)
    one = sum(r["hours_per_seed"] for r in done)
    paper = sum(r["hours_per_seed"] * r["paper_seeds"] for r in done)
    longest = max(done, key=lambda r: r["hours_per_seed"])
    peak = max(r["peak_memory_bytes"] or 0 for r in done)
    fits = " | ".join(_fits(peak, card) for card in CARDS_GB)
    return (
        f"| {table} | {len(done)} of {len(trained)} | {_hours(one, unmeasured)} | "
        f"{_hours(paper, unmeasured)} | {longest['row']} ({longest['hours_per_seed']:.2f}) | "
        f"{peak / GIB:.2f} | {fits} |"
    )


def render(record):
    """The "Each table on one GPU" section of BENCHMARKS.md, from `run_plan`'s record."""
    by_table = collections.defaultdict(list)
    for row in record["rows"]:
        by_table[row["table"]].append(row)
    env = record["environment"]
    settings = ", ".join(dict.fromkeys(r["setting"] for r in record["rows"] if "setting" in r))
    tiny = " (tiny mode: a check of the machinery, not a measurement)" if record["tiny"] else ""
    lines = [
        f"## Each table on one {record['device']}, Keras backend {record['keras_backend']}{tiny}",
        "",
        f"Produced by `{record['command']}` in {record['seconds']:.0f} s "
        f"({record['workers']} rows measured at a time); Keras {env.get('keras', '?')}, "
        f"TensorFlow {env.get('tensorflow', '?')}"
        + (f", JAX {env['jax']}" if env.get("jax") else "")
        + ".",
        "",
        "Each row trained in a fresh process on synthetic pairs drawn to its dataset's "
        "documented lengths and vocabulary size (`gcnn_match/benchmarks/dataset_shapes.py`, "
        "docs/gpu.md), at the paper's batch size and cut-offs, with the fastest setting "
        f"measured on this kind of device ({settings}). Hours = the median of the timed "
        "steady-state steps x the steps of one epoch of the paper's full training split x "
        "the registered epochs, plus one compile: training only (no held-out evaluation, no "
        "early stop), so an upper bound of a run's training time. Paper seeds: one run per row, "
        "five for COIN's ensembles. Peak memory: the device allocator's high-water mark in the "
        f"row's process; a card fits when the peak plus {CARD_MARGIN_GIB:.0f} GiB (CUDA context, "
        "allocator slack) is at most its size in GiB.",
        "",
        "| table | rows measured | hours, one seed | hours, paper's seeds | longest row (hours "
        "per seed) | largest peak GiB | " + " | ".join(f"fits {c} GB" for c in CARDS_GB) + " |",
        "|---|---|---|---|---|---|" + "---|" * len(CARDS_GB),
    ]
    lines += [_table_line(table, rows) for table, rows in sorted(by_table.items())]
    failed = [r for r in record["rows"] if "error" in r]
    if failed:
        lines += ["", "Rows not measured (their tables' hours are lower bounds):", ""]
        lines += [f"- {r['name']}: {r['error']}" for r in failed]
    reused = [r for r in record["rows"] if "runs_of" in r]
    if reused:
        lines += [
            "",
            f"{len(reused)} rows report another row's runs and add no hours of their own "
            "(e.g. " + ", ".join(r["name"] for r in reused[:2]) + ").",
        ]
    return "\n".join(lines) + "\n"
