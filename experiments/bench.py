"""Benchmarks registered models side by side on this machine; writes BENCHMARKS.md and JSON.

    python experiments/bench.py --data_dir=../shared/data --dataset=quora
"""
import json
import pathlib
import sys

from absl import app, flags

from gcnn_match.files import write_atomic
from gcnn_match.experiments import registry
from gcnn_match.reporting.tables import update_section
from gcnn_match.training.bench import bench_experiment, render_markdown, render_time_ratios
from gcnn_match.training.run_dir import environment_record

FLAGS = flags.FLAGS
flags.DEFINE_string("data_dir", "data", "Dataset folder (real length distributions).")
flags.DEFINE_string("cache_dir", "data/cache", "Tokenization and embedding cache.")
flags.DEFINE_string("dataset", "quora", "Benchmark the rows registered on this dataset.")
flags.DEFINE_string("paper", None, "Restrict to one paper's rows (e.g. GCNN).")
flags.DEFINE_list("rows", [], "Restrict to these rows.")
flags.DEFINE_integer("steps", 10, "Timed steps per measurement (after warm-up).")
flags.DEFINE_string("output", "BENCHMARKS.md", "Markdown report.")
flags.DEFINE_string("json", "results/bench.json", "JSON record.")


def main(argv):
    del argv
    configs = registry.select(dataset=FLAGS.dataset, paper=FLAGS.paper, rows=FLAGS.rows)
    results = []
    for config in configs:
        print(f"benchmarking {config.name}", flush=True)
        results.append(bench_experiment(config, FLAGS.data_dir, FLAGS.cache_dir, FLAGS.steps))
    env = environment_record(FLAGS.data_dir)
    command = "python experiments/bench.py " + " ".join(sys.argv[1:])
    markdown = render_markdown(results, env, command)
    for table in dict.fromkeys(registry.table_id(c) for c in configs):
        markdown += render_time_ratios(results, registry.select(table=table),
                                       registry.time_ratios(table))
    print(markdown)
    update_section(pathlib.Path(FLAGS.output), f"bench:{FLAGS.dataset}", markdown,
                   heading="# Benchmarks")
    write_atomic(FLAGS.json, json.dumps({"environment": env, "results": results},
                                              indent=2).encode("utf-8"))


if __name__ == "__main__":
    app.run(main)
