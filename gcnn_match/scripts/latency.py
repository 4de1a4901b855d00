"""COIN Table 5: CPU inference latency of COIN (Quora, paper-sized) and a BERT-base classifier.

    python experiments/latency.py                      # 1,000 batches per model, as the paper
    python experiments/latency.py --batches=50 --output=/tmp/latency.md

Needs keras-hub for the BERT model (`make latency` installs it); --models=COIN runs without it.
"""

import json
import pathlib
import shlex
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.benchmarks import latency
from gcnn_match.experiments import registry
from gcnn_match.files import write_atomic
from gcnn_match.reporting.latency_report import render_markdown
from gcnn_match.reporting.marked_sections import update_section
from gcnn_match.training.run_dir import environment_record

FLAGS = flags.FLAGS
flags.DEFINE_integer("batches", 1000, "Timed batches per model (the paper: 1,000).")
flags.DEFINE_integer("warmup", 5, "Untimed batches first (tracing, caches).")
flags.DEFINE_list("models", ["COIN", "BERT"], "Models to time.")
flags.DEFINE_string("experiment", "coin/quora/coin_ours", "Registered row giving COIN's widths.")
flags.DEFINE_integer("embedding_dim", 300, "COIN word vector size (Quora: 300-d GloVe).")
flags.DEFINE_integer("vocab_size", 30000, "COIN vocabulary size (ids are random).")
flags.DEFINE_integer("seed", 1, "Seed of the weights and the random batches.")
flags.DEFINE_string(
    "output", "BENCHMARKS.md", "Markdown file; the section 'latency:coin' is replaced."
)
flags.DEFINE_string("json", "results/latency.json", "JSON record.")
flags.DEFINE_string("note", "", "Free text added under the table (e.g. 'shared CPU').")


def main(argv):
    del argv
    import keras

    keras.utils.set_random_seed(FLAGS.seed)
    count = FLAGS.warmup + FLAGS.batches
    results = []
    for name in FLAGS.models:
        if name == "COIN":
            model = latency.coin_classifier(
                FLAGS.vocab_size, FLAGS.embedding_dim, **registry.get(FLAGS.experiment).model_kwargs
            )
            batches = latency.coin_batches(count, FLAGS.vocab_size, seed=FLAGS.seed)
        elif name == "BERT":
            model = latency.bert_classifier()
            batches = latency.bert_batches(
                count, latency.BERT_BASE["vocabulary_size"], seed=FLAGS.seed
            )
        else:
            raise app.UsageError(f"unknown model {name!r}: choose COIN and/or BERT")
        print(f"timing {name} over {FLAGS.batches} batches", flush=True)
        results.append(latency.measure(name, model, batches, FLAGS.warmup))
    env = environment_record()
    command = shlex.join(["python", "experiments/latency.py", *sys.argv[1:]])
    markdown = f"Produced by `{command}`.\n\n" + render_markdown(results, env, FLAGS.note)
    print(markdown)
    update_section(pathlib.Path(FLAGS.output), "latency:coin", markdown, heading="# Benchmarks")
    write_atomic(
        FLAGS.json, json.dumps({"environment": env, "results": results}, indent=2).encode("utf-8")
    )


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
