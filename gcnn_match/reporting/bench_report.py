"""Markdown of a benchmark run: what each model costs, what each optimisation buys, the
encoded-data cache, time ratios beside the paper's, and the per-model defaults they suggest.

A row record is the full TensorFlow worker's result (`benchmarks/experiment_cost.py`) plus
the results of the throughput-only processes of the same row: "throughput" (the same
environment), the baseline of "onednn_toggled", "jax" and "allocator_toggled" (each either
measurements or {"error": message}).
"""

import statistics

# A setting becomes a measured default only when it is this much faster (timing noise on a
# shared 2-core machine is a few percent).
SPEEDUP_THRESHOLD = 1.05
MIB = 2**20
# The before/after ratios of `speedups`, as the table heads them.
SPEEDUP_COLUMNS = {
    "bucketing": "bucketing vs fixed padding",
    "xla": "XLA on/off",
    "onednn": "oneDNN on/off",
    "fused": "fused/unfused gate convs",
    "jax_train": "JAX/TF training",
    "jax_inference": "JAX/TF inference",
    "tcmalloc": "tcmalloc/system malloc",
    "repeat": "same setting, two processes",
}


def _ratio(after, before):
    return after / before if after and before else None


def _fmt(value, spec, unit=""):
    return "–" if value is None else f"{value:{spec}}{unit}"


def speedups(record):
    """Before/after throughput ratios of one row (> 1: the optimisation is faster)."""
    tf_rate = record["train_pairs_per_second_bucket"]
    out = {"bucketing": _ratio(tf_rate, record["train_pairs_per_second_fixed"])}
    xla, fused = record.get("xla"), record.get("fused")
    out["xla"] = _ratio(xla.get("on"), xla.get("off")) if xla else None
    out["fused"] = _ratio(fused.get("on"), fused.get("off")) if fused else None
    # Other processes are compared with the throughput-only TensorFlow process of the row.
    base = record.get("throughput", {})
    base_train = base.get("train_pairs_per_second_bucket")
    other = record.get("onednn_toggled", {}).get("train_pairs_per_second_bucket")
    out["onednn"] = _ratio(base_train, other) if record.get("onednn") else _ratio(other, base_train)
    jax = record.get("jax", {})
    out["jax_train"] = _ratio(jax.get("train_pairs_per_second_bucket"), base_train)
    out["jax_inference"] = _ratio(
        jax.get("inference_pairs_per_second"), base.get("inference_pairs_per_second")
    )
    out["tcmalloc"] = _tcmalloc_ratio(record, base_train)
    # The throughput process against the row's own, in the same setting: how far two
    # processes differ with nothing changed, the yardstick of the cross-process ratios.
    out["repeat"] = _ratio(base_train, tf_rate)
    return out


def _tcmalloc_ratio(record, base_train):
    """Training throughput on tcmalloc over that on the system malloc, whichever of the row's
    process and its "allocator_toggled" process ran on which; None unless one ran on each
    (a preload that did not take, or another allocator)."""
    toggled = record.get("allocator_toggled", {})
    other = toggled.get("train_pairs_per_second_bucket")
    allocators = tuple(r.get("environment", {}).get("allocator") for r in (record, toggled))
    if allocators == ("system malloc", "tcmalloc"):
        return _ratio(other, base_train)
    if allocators == ("tcmalloc", "system malloc"):
        return _ratio(base_train, other)
    return None


def machine_peak(results):
    """This machine's dense-matmul peak: the best sample of the run (every sample can only be
    lowered by other load on the machine)."""
    return max(r["matmul_peak_gflops"] for r in results)


def _header(environment, results, command):
    versions = [
        f"TensorFlow {environment['tensorflow']}",
        f"Keras {environment['keras']}",
        f"NumPy {environment['numpy']}",
        f"Python {environment['python']}",
    ]
    if environment.get("jax"):
        versions.append(f"JAX {environment['jax']}")
    onednn = {r.get("onednn") for r in results}
    # Named only where the records carry it: an environment record may lack the field.
    allocators = sorted(
        {r["environment"]["allocator"] for r in results if "allocator" in r.get("environment", {})}
    )
    allocator = f"; heap allocator: {', '.join(allocators)}" if allocators else ""
    return [
        f"Produced by `{command}`.",
        "",
        f"Hardware: {environment['cpu']} ({environment['cpu_count']} cores), "
        f"{environment['platform']}; " + ", ".join(versions) + ". oneDNN in the TensorFlow "
        f"runs: {'on' if onednn == {True} else 'off' if onednn == {False} else 'mixed'} "
        f"(TF's default here unless TF_ENABLE_ONEDNN_OPTS is set){allocator}. Dense float32 "
        "matmul peak (2048x2048 `matmul`, best of 5, sampled twice in each row's process, best "
        f"sample of the run): {machine_peak(results):.0f} GFLOP/s.",
        "",
        "Each row runs in a fresh process (TensorFlow backend) on batches of its training part "
        "(the official dev split minus the held-out part), i.e. real lengths, at its paper "
        "batch size; every timing is a steady state (each batch shape is run once before "
        "timing, so no timed step traces or compiles; JAX runs are always jit-compiled, once "
        "per shape), over `--steps` batches or fewer (at least two) past `--max_seconds`. "
        "FLOPs are counted by TensorFlow's graph "
        "profiler on the traced step at the cut-off lengths (loop bodies times their trip "
        "counts; 2 per multiply-add; element-wise ops 1 per element; transcendentals not "
        "counted), for one training step (forward + backward, no optimizer update). Achieved "
        "GFLOP/s = those FLOPs x training pairs/s with fixed padding (the same lengths). Peak "
        "memory = growth of the process' resident-set high-water mark (reset before) while "
        "building the model and training at fixed padding: weights, optimizer slots, "
        "activations and TF's caches, not the data.",
        "",
    ]


def _cost_table(results):
    lines = [
        "| model | params (non-emb.) | cut-offs | mean len | GFLOP/pair train (infer.) "
        "| train pairs/s bucketed | train pairs/s fixed | inference pairs/s (b=64) "
        "| latency p50/p90 ms (b=8) | achieved GFLOP/s (of peak) | peak memory MiB |",
        "|" + "---|" * 11,
    ]
    peak = machine_peak(results)
    for r in results:
        memory = r.get("peak_memory_bytes")
        lines.append(
            f"| {r['name']} | {r['trainable_params_without_embeddings']:,} "
            f"| {r['max_len_a']}/{r['max_len_b']} | {r['mean_length']:.1f} "
            f"| {r['train_flops_per_pair'] / 1e9:.2f} ({r['inference_flops_per_pair'] / 1e9:.2f}) "
            f"| {r['train_pairs_per_second_bucket']:.0f} | {r['train_pairs_per_second_fixed']:.0f} "
            f"| {r['inference_pairs_per_second']:.0f} "
            f"| {r['latency_p50_ms']:.0f} / {r['latency_p90_ms']:.0f} "
            f"| {r['train_gflops_per_second_fixed']:.1f} "
            f"({r['train_gflops_per_second_fixed'] / peak:.0%}) "
            f"| {_fmt(memory and memory / MIB, '.0f')} |"
        )
    return lines


def _speedup_table(results):
    lines = [
        "",
        "Before/after throughput ratios, measured in the same run (> 1: the "
        "optimisation is faster; training on bucketed batches unless said otherwise):",
        "",
    ]
    ratios = [speedups(r) for r in results]
    # Only the comparisons measured (requested by bench.py --compare and not failed on every
    # row: the failures are listed below) get a column.
    columns = [k for k in SPEEDUP_COLUMNS if any(s[k] is not None for s in ratios)]
    if columns != ["bucketing"]:
        lines += [
            "Bucketing, XLA and fused gates are timed in one process, XLA and fusing "
            "interleaved on the same batches; oneDNN, JAX and tcmalloc need processes of their "
            "own, run one after another, so their ratios also carry any change of load between "
            "them."
            + (
                " The last column is the throughput-only process against the row's own "
                "measuring process in the same setting (which also profiled it and, where "
                "asked, timed XLA and unfused gates): a yardstick of how far two processes "
                "differ, not a pure repeat."
                if "repeat" in columns
                else ""
            ),
            "",
        ]
    lines += [
        "| model | " + " | ".join(SPEEDUP_COLUMNS[k] for k in columns) + " |",
        "|" + "---|" * (len(columns) + 1),
    ]
    for r, s in zip(results, ratios):
        cells = [_fmt(s[k], ".2f", "x") for k in columns]
        lines.append(f"| {r['name']} | " + " | ".join(cells) + " |")
    failures = [
        f"{r['name']} ({where}): {r[key]['error']}"
        for r in results
        for key, where in (
            ("throughput", "throughput baseline"),
            ("xla", "XLA toggled"),
            ("fused", "unfused gates"),
            ("jax", "JAX backend"),
            ("onednn_toggled", "oneDNN toggled"),
            ("allocator_toggled", "tcmalloc toggled"),
        )
        if "error" in r.get(key, {})
    ]
    if failures:
        lines += ["", "Not measured, because the run failed:"] + [f"- {f}" for f in failures]
    return lines


def _cache_table(cache):
    lines = [
        "",
        "Start-up (read, tokenize, encode, build the embedding matrix) with an empty "
        "cache and again with the cache it wrote:",
        "",
        "| data | cold s | warm s | speed-up |",
        "|---|---|---|---|",
    ]
    for entry in cache:
        lines.append(
            f"| {entry['data']} | {entry['cold_seconds']:.1f} "
            f"| {entry['warm_seconds']:.1f} "
            f"| {entry['cold_seconds'] / entry['warm_seconds']:.1f}x |"
        )
    return lines


def suggested_defaults(results):
    """Per model (registry name): the median ratio over its rows of each setting, and the
    setting that ratio supports ({"jit_compile", "onednn", "backend"})."""
    by_model = {}
    for r in results:
        by_model.setdefault(r["model"], []).append(speedups(r))
    out = {}
    for model, rows in by_model.items():
        medians = {}
        for key in ("xla", "onednn", "jax_train"):
            values = [s[key] for s in rows if s[key] is not None]
            medians[key] = statistics.median(values) if values else None
        out[model] = {
            "xla": medians["xla"],
            "onednn": medians["onednn"],
            "jax": medians["jax_train"],
            "jit_compile": None if medians["xla"] is None else medians["xla"] > SPEEDUP_THRESHOLD,
            "onednn_on": None
            if medians["onednn"] is None
            else medians["onednn"] > 1 / SPEEDUP_THRESHOLD,
            "backend": None
            if medians["jax_train"] is None
            else "jax"
            if medians["jax_train"] > SPEEDUP_THRESHOLD
            else "tensorflow",
        }
    return out


def _defaults_table(defaults, current_jit_compile):
    lines = [
        "",
        f"Settings these measurements support per model (median ratio over its rows; "
        f"a setting must be > {SPEEDUP_THRESHOLD:.2f}x faster to be chosen), beside the "
        "jit_compile default the rows use now (`gcnn_match/experiments/"
        "measured_defaults.py`):",
        "",
        "| model | XLA on/off | jit_compile: suggested (now) | oneDNN on/off | oneDNN "
        "| JAX/TF | backend |",
        "|" + "---|" * 7,
    ]
    for model, s in sorted(defaults.items()):
        onednn = "–" if s["onednn_on"] is None else "on" if s["onednn_on"] else "off"
        lines.append(
            f"| {model} | {_fmt(s['xla'], '.2f', 'x')} | {_fmt(s['jit_compile'], '')} "
            f"({current_jit_compile(model)}) | {_fmt(s['onednn'], '.2f', 'x')} | {onednn} "
            f"| {_fmt(s['jax'], '.2f', 'x')} | {_fmt(s['backend'], '')} |"
        )
    return lines


def render(results, environment, command, cache, current_jit_compile):
    """The whole benchmark section (without the paper time ratios, see `render_time_ratios`)."""
    lines = _header(environment, results, command) + _cost_table(results)
    lines += _speedup_table(results)
    if cache:
        lines += _cache_table(cache)
    defaults = suggested_defaults(results)
    if any(s[k] is not None for s in defaults.values() for k in ("xla", "onednn", "jax")):
        lines += _defaults_table(defaults, current_jit_compile)
    return "\n".join(lines) + "\n"


def paper_time_ratio(configs, slow, fast):
    """The paper's time-per-epoch ratio of two rows (GTX 1080), as a cell: "–" if either row
    has no time in the paper."""
    paper = {c.row: c.targets.get("seconds_per_epoch") for c in configs}
    return f"{paper[slow] / paper[fast]:.2f}" if paper.get(slow) and paper.get(fast) else "–"


def render_time_ratios(results, configs, pairs):
    """Training-time ratios of row pairs from throughput measured side by side, beside the
    paper's time-per-epoch ratios (GTX 1080)."""
    names = {c.name for c in configs}
    by_row = {r["row"]: r for r in results if r["name"] in names}
    lines = [
        "",
        "| time ratio | paper (GTX 1080) | ours, bucketed batches | ours, fixed padding |",
        "|---|---|---|---|",
    ]
    for slow, fast in pairs:
        if slow not in by_row or fast not in by_row:
            continue
        cells = [paper_time_ratio(configs, slow, fast)]
        for padding in ("bucket", "fixed"):
            key = f"train_pairs_per_second_{padding}"
            cells.append(f"{by_row[fast][key] / by_row[slow][key]:.2f}")
        lines.append(f"| {slow} / {fast} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n" if len(lines) > 3 else ""
