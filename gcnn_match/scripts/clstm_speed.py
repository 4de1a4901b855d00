r"""Coupled LSTM layer: wavefront scan vs a per-cell loop, and cost against n·m, on this machine.

    python experiments/clstm_speed.py          # 8x8, 16x16, 32x32, 32x8, 8x32; both cells
    python experiments/clstm_speed.py --grids=8x8,16x16,32x32,48x48 --naive_max_cells=1024
    python experiments/clstm_speed.py --rematerialize --num_layers=4 --cells=loose \
        --batches=32 --grids=40x40 --naive_max_cells=0

Prints a markdown table, writes it into a marked section of --output (BENCHMARKS.md:
'clstm-speed', or 'clstm-memory' with --rematerialize) and, with the raw numbers, to --json
(both atomically). The third line times four stacked LC blocks with each block rematerialized
beside them and records both peak memories, one measurement per process
(docs/clstm.md#memory). Throughput of the registered C-LSTM rows on real SNLI lengths is
`experiments/bench.py --dataset=snli --paper=C-LSTMs`.
"""

import dataclasses
import json
import pathlib
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.benchmarks.clstm_speed import SpeedConfig, measure
from gcnn_match.files import write_text_atomic
from gcnn_match.reporting.clstm_speed_report import WORK, growth_exponents, render_markdown
from gcnn_match.reporting.marked_sections import update_section
from gcnn_match.training.run_dir import environment_record

FLAGS = flags.FLAGS
# Marked section of --output -> its heading.
TITLES = {
    "clstm-speed": "C-LSTMs: wavefront vs per-cell loop",
    "clstm-memory": "C-LSTMs: kept vs recomputed activations",
}
flags.DEFINE_list("cells", ["loose", "tight"], "Cell types.")
flags.DEFINE_list("grids", ["8x8", "16x16", "32x32", "32x8", "8x32"], "Grid shapes n x m.")
flags.DEFINE_list("batches", ["32", "1"], "Sentence pairs per batch.")
flags.DEFINE_integer("num_layers", 1, "Stacked blocks.")
flags.DEFINE_integer("repeats", 3, "Timed calls per measurement (the fastest is reported).")
flags.DEFINE_integer("naive_max_cells", 1024, "Skip the per-cell loop above this n·m.")
flags.DEFINE_bool(
    "rematerialize",
    False,
    "Also time each block rematerialized (recomputed in the backward pass) and record the "
    "peak memory of each implementation.",
)
flags.DEFINE_string("json", None, "JSON record (default: results/<section>.json).")
flags.DEFINE_string("output", "BENCHMARKS.md", "Markdown report.")


def main(argv):
    del argv
    grids = tuple(tuple(int(side) for side in grid.lower().split("x")) for grid in FLAGS.grids)
    config = SpeedConfig(
        cells=tuple(FLAGS.cells),
        grids=grids,
        batches=tuple(int(b) for b in FLAGS.batches),
        num_layers=FLAGS.num_layers,
        repeats=FLAGS.repeats,
        naive_max_cells=FLAGS.naive_max_cells,
        rematerialize=FLAGS.rematerialize,
    )
    try:
        rows = measure(config)
    except ValueError as error:  # a flag combination measure() refuses
        raise app.UsageError(f"--rematerialize: {error}") from None
    environment = environment_record()
    command = "python experiments/clstm_speed.py " + " ".join(sys.argv[1:])
    markdown = render_markdown(rows, config, environment, command.strip())
    print(markdown)
    record = {
        "environment": environment,
        "config": dataclasses.asdict(config),
        "rows": rows,
        "growth_exponents": {
            f"{name}{clock} vs {work}": growth_exponents(rows, f"{name}{clock}", work)
            for name, (work, _) in WORK.items()
            for clock in ("_ms", "_cpu_ms")
        },
        "markdown": markdown,
    }
    section = "clstm-memory" if FLAGS.rematerialize else "clstm-speed"
    path = FLAGS.json or f"results/{section.replace('-', '_')}.json"
    write_text_atomic(path, json.dumps(record, indent=2) + "\n")
    update_section(
        pathlib.Path(FLAGS.output),
        section,
        f"### {TITLES[section]}\n\n" + markdown,
        heading="# Benchmarks",
    )


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
