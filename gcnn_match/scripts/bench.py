"""Benchmarks registered models side by side on this machine; writes BENCHMARKS.md and JSON.

    python experiments/bench.py --data_dir=../shared/data                  # every model
    python experiments/bench.py --data_dir=../shared/data --models=esim --steps=3 --compare=

Each row is measured in a fresh process with the TensorFlow backend and the machine's oneDNN
default (cost, FLOPs, memory, XLA on/off, fused/unfused gates), then, per --compare, by
throughput-only processes one after another: the same default, oneDNN toggled, the JAX
backend, and (on request) tcmalloc preloaded, or not where this process runs on it.
"""

import importlib.util
import json
import pathlib
import shlex
import sys
import tempfile

from absl import flags

from gcnn_match import cli
from gcnn_match.benchmarks.experiment_cost import cache_start_seconds
from gcnn_match.benchmarks.machine import find_tcmalloc
from gcnn_match.benchmarks.worker import WorkerError, run_worker
from gcnn_match.experiments import measured_defaults, registry
from gcnn_match.files import write_atomic
from gcnn_match.models.registry import input_features
from gcnn_match.reporting.bench_report import render, render_time_ratios, suggested_defaults
from gcnn_match.reporting.marked_sections import update_section

FLAGS = flags.FLAGS
# One table per paper: every model and variant at its paper configuration.
DEFAULT_TABLES = ["gcnn-quora", "attconv-snli", "c-lstms-snli", "coin-quora"]
COMPARISONS = ["xla", "fused", "onednn", "jax", "tcmalloc", "cache"]
# tcmalloc is measured on request only: it gave no consistent gain across the rows
# (BENCHMARKS.md#heap-allocator-on-a-cpu).
DEFAULT_COMPARISONS = [c for c in COMPARISONS if c != "tcmalloc"]
# The comparisons measured by throughput-only processes beside the row's own.
CROSS_PROCESS = ("onednn", "jax", "tcmalloc")
flags.DEFINE_string("data_dir", "data", "Dataset folder (real length distributions).")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_list("tables", DEFAULT_TABLES, "Benchmark the rows of these tables.")
flags.DEFINE_string("dataset", None, "Restrict to rows on this dataset.")
flags.DEFINE_string("paper", None, "Restrict to one paper's rows (e.g. GCNN).")
flags.DEFINE_list("rows", [], "Restrict to these rows.")
flags.DEFINE_list("models", [], "Restrict to rows of these model registry names (e.g. esim).")
flags.DEFINE_integer("steps", 10, "Timed steps per measurement (after warm-up).")
flags.DEFINE_float("max_seconds", 60, "Stop a timing early (after >= 2 steps) past this.")
flags.DEFINE_integer("warmup", 3, "Warm-up steps before timing (plus one per new shape).")
flags.DEFINE_list("compare", DEFAULT_COMPARISONS, f"Comparisons to run, of {COMPARISONS}.")
flags.DEFINE_string(
    "tcmalloc", None, "tcmalloc library to preload for --compare=tcmalloc (default: found)."
)
flags.DEFINE_string("section", "models", "Marked section of --output that receives the tables.")
flags.DEFINE_string("output", "BENCHMARKS.md", "Markdown report.")
flags.DEFINE_string("json", "results/bench.json", "JSON record.")


def selected_configs():
    unknown = sorted(set(FLAGS.tables) - set(registry.tables()))
    if unknown:
        raise SystemExit(f"unknown --tables {unknown}; registered: {registry.tables()}")
    configs = []
    for table in FLAGS.tables:
        configs += registry.select(
            table=table, dataset=FLAGS.dataset, paper=FLAGS.paper, rows=FLAGS.rows
        )
    return [c for c in configs if not c.runs_of and (not FLAGS.models or c.model in FLAGS.models)]


def _cache_key(config):
    return (
        config.dataset,
        config.tokenizer,
        config.lowercase,
        config.use_given_tokens,
        config.embeddings,
    )


def measure_cache(configs):
    """Cold vs warm start-up once per distinct (dataset, text policy, vectors); rows with POS
    features are left out (a cold run would first train the tagger)."""
    out = {}
    for config in configs:
        key = _cache_key(config)
        if key in out or input_features(config.model, **config.model_kwargs).pos:
            continue
        with tempfile.TemporaryDirectory(prefix="bench-cache-") as folder:
            cold = cache_start_seconds(config, FLAGS.data_dir, folder)
            warm = cache_start_seconds(config, FLAGS.data_dir, folder)
        out[key] = {
            "data": f"{config.dataset}, {config.tokenizer} tokens, "
            f"{config.embeddings.split('|')[-1]} vectors",
            "cold_seconds": cold,
            "warm_seconds": warm,
        }
        print(f"cache {out[key]['data']}: cold {cold:.1f} s, warm {warm:.1f} s", flush=True)
    return list(out.values())


def _worker(config, env, full):
    arguments = dict(
        data_dir=FLAGS.data_dir,
        cache_dir=FLAGS.cache_dir,
        steps=FLAGS.steps,
        warmup=FLAGS.warmup,
        max_seconds=FLAGS.max_seconds,
        full=full,
        compare=[c for c in FLAGS.compare if c in ("xla", "fused")],
    )
    try:
        return run_worker(config, env, **arguments)
    except WorkerError as error:
        print(f"  failed: {error}", flush=True)
        return {"error": str(error)}


def measure_row(config):
    print(f"benchmarking {config.name}", flush=True)
    record = _worker(config, {}, full=True)
    if "error" in record:  # listed under the tables; the other rows are still measured
        return {"name": config.name, **record}
    if any(c in FLAGS.compare for c in CROSS_PROCESS):
        # The baseline of the cross-process ratios: a process of the same kind (one model,
        # throughput only), run right before the others.
        record["throughput"] = _worker(config, {}, False)
    if "onednn" in FLAGS.compare:
        toggled = "0" if record["onednn"] else "1"
        record["onednn_toggled"] = _worker(config, {"TF_ENABLE_ONEDNN_OPTS": toggled}, False)
    if "jax" in FLAGS.compare:
        if importlib.util.find_spec("jax") is None:
            record["jax"] = {"error": "jax is not installed (pip install -e '.[jax]')"}
        else:
            record["jax"] = _worker(config, {"KERAS_BACKEND": "jax"}, False)
    if "tcmalloc" in FLAGS.compare:
        record["allocator_toggled"] = _allocator_toggled(config, record)
    return record


def _allocator_toggled(config, record):
    """The row's throughput process with tcmalloc preloaded, or without it where the row's own
    process runs on it."""
    if record["environment"].get("allocator") == "tcmalloc":
        return _worker(config, {"LD_PRELOAD": ""}, False)
    library = FLAGS.tcmalloc or find_tcmalloc()
    if library is None:
        return {
            "error": "no tcmalloc library found (apt install libtcmalloc-minimal4, or pass "
            "--tcmalloc=PATH)"
        }
    return _worker(config, {"LD_PRELOAD": library}, False)


def main(argv):
    del argv
    configs = selected_configs()
    if not configs:
        raise SystemExit("no registered row matches the selection flags")
    cache = measure_cache(configs) if "cache" in FLAGS.compare else []
    measured = [measure_row(config) for config in configs]
    results = [r for r in measured if "error" not in r]
    failed = [r for r in measured if "error" in r]
    if not results:
        raise SystemExit(
            "every row failed: " + "; ".join(f"{r['name']}: {r['error']}" for r in failed)
        )
    environment = dict(results[0]["environment"])
    jax_record = next((r["jax"] for r in results if "environment" in r.get("jax", {})), None)
    if jax_record:
        environment["jax"] = jax_record["environment"].get("jax")
    command = "python experiments/bench.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    markdown = render(results, environment, command, cache, measured_defaults.jit_compile)
    for table in dict.fromkeys(registry.table_id(c) for c in configs):
        markdown += render_time_ratios(
            results, registry.select(table=table), registry.time_ratios(table)
        )
    if failed:
        markdown += "\nRows not measured, because their TensorFlow run failed:\n\n" + "".join(
            f"- {r['name']}: {r['error']}\n" for r in failed
        )
    print(markdown)
    update_section(
        pathlib.Path(FLAGS.output), f"bench:{FLAGS.section}", markdown, heading="# Benchmarks"
    )
    record = {
        "environment": environment,
        "command": command,
        "results": results,
        "failed_rows": failed,
        "cache": cache,
        "suggested_defaults": suggested_defaults(results),
    }
    write_atomic(FLAGS.json, json.dumps(record, indent=2).encode("utf-8"))


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
