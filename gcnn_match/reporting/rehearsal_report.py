"""BENCHMARKS.md's "Full size on this machine" section, from a results/rehearsal-<machine>.json
record (`gcnn_match.scripts.rehearse`)."""

SECTION = "rehearsal"
TITLE = "## Full size on this machine"


def _seconds(value):
    return "-" if value is None else f"{value:.1f}"


def _mib(value):
    return "-" if value is None else f"{value / 2**20:,.0f}"


def render(record):
    """The section's Markdown: the data written, then one line per row."""
    size, data = record["size"], record["data"]
    total = sum(data["files"].values())
    lines = [
        TITLE,
        "",
        f"`{record['command']}` on {record['machine']} ({record['environment']['cpu']}, "
        f"{record['environment']['cpu_count']} cores): synthetic splits in each dataset's "
        f"official layout at the {size!r} size (Quora {data['quora']} pairs, SNLI "
        f"{data['snli']} lines, train/dev/test) and a {data['vectors']} vectors file, "
        f"{_mib(total)} MiB in all, read through `--data_dir`. Each row runs in a fresh "
        f"process from a cold cache, its one epoch stopped after {record['steps']} steps (or "
        "at its end); seconds count from the process' start.",
        "",
        "| row | vocabulary | data ready s | model built s | first step s | steps | s/step | "
        "run s | peak RSS to first step MiB | peak RSS MiB | checkpoints MiB | "
        "pipeline warm-up s | pipeline pairs/s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in record["rows"]:
        if "error" in r:
            lines.append(f"| {r['name']} | failed: {r['error']} |" + " |" * 11)
            continue
        lines.append(
            f"| {r['name']} | {r['vocab_size']:,} | {_seconds(r.get('data_ready_seconds'))} "
            f"| {_seconds(r.get('model_built_seconds'))} | {_seconds(r['first_step_seconds'])} "
            f"| {r['steps']} | {_seconds(r['seconds_per_step'])} | {_seconds(r['run_seconds'])} "
            f"| {_mib(r.get('first_step_peak_rss_bytes'))} | {_mib(r['peak_rss_bytes'])} "
            f"| {_mib(r['checkpoint_bytes'])} "
            f"| {_seconds(r.get('pipeline_warmup_seconds'))} "
            f"| {r['pipeline_pairs_per_second']:.0f} |"
        )
    counts = {
        (r["pipeline_warmup_batches"], r["pipeline_batches"])
        for r in record["rows"]
        if "pipeline_warmup_batches" in r
    }
    pipeline = "its pairs/s"
    if len(counts) == 1:
        ((warmup, batches),) = counts
        pipeline = (
            f"the seconds to its first {warmup} batches (the epoch's schedule, tracing), then "
            f"its pairs/s over the next {batches}"
        )
    lines += [
        "",
        "Run s and peak RSS include the stopped epoch's dev evaluation and checkpoint and the "
        "final dev/test evaluation; peak RSS to first step is the high-water mark at the end "
        "of the first training step; the pipeline columns are the host input pipeline alone "
        f"(no model): {pipeline}.",
        "",
    ]
    return "\n".join(lines)
