"""Rehearses the full protocol at its real size on this machine, on synthetic files in the
official layouts; writes results/rehearsal-<machine>.json and BENCHMARKS.md's section (the
real size; --size=tiny records beside it and prints its section).

    python experiments/rehearse.py                            # the real size (GBs of files)
    python experiments/rehearse.py --size=tiny --json=/tmp/rehearsal.json
    python experiments/rehearse.py --report_only                # re-render from the record

The splits (Quora's BiMPM partition, SNLI's jsonl with parses) and a GloVe text file are
written into a temporary data folder at --size (gcnn_match/benchmarks/rehearsal.py), and each
row of --rows runs there in a fresh process, from a cold cache, through the normal data_dir and
embeddings paths; its one epoch stops after --steps training steps. Recorded per row: the
seconds to the data, the model and the first step, seconds per step, the whole run's seconds,
the peak resident memory, the checkpoints' bytes and the host pipeline's pairs/s.
"""

import pathlib
import shlex
import sys
import tempfile
import time

from absl import app, flags

from gcnn_match import cli
from gcnn_match.benchmarks.machine import machine_name
from gcnn_match.benchmarks.rehearsal import SIZES, write_data
from gcnn_match.benchmarks.worker import WorkerError, run_worker
from gcnn_match.experiments import registry
from gcnn_match.files import read_json, write_json
from gcnn_match.reporting.marked_sections import update_section
from gcnn_match.reporting.rehearsal_report import SECTION, render

FLAGS = flags.FLAGS
flags.DEFINE_enum("size", "real", sorted(SIZES), "Size of the synthetic files.")
flags.DEFINE_list(
    "rows", ["gcnn/quora/gcnn", "gcnn/snli/gcnn_char_pos"], "Registered rows to rehearse."
)
flags.DEFINE_integer("steps", 10, "Training steps before the epoch is stopped.")
flags.DEFINE_integer("seed", 0, "Seed of the synthetic text and vectors.")
flags.DEFINE_string(
    "json",
    None,
    "JSON record (default: results/rehearsal-<machine>.json, -<size> added below the real size).",
)
flags.DEFINE_string(
    "output", None, "Markdown report (default: BENCHMARKS.md at the real size, else none)."
)
flags.DEFINE_bool("report_only", False, "Re-render --output from --json; write and run nothing.")

REHEARSE = "gcnn_match.benchmarks.rehearsal:rehearse_row"


def _configs():
    try:
        return [registry.get(name) for name in FLAGS.rows]
    except ValueError as error:
        raise app.UsageError(f"--rows: {error}") from None


def _rehearse(config, folder, vectors):
    print(f"rehearsing {config.name}", flush=True)
    name = config.name.replace("/", "-")
    try:
        return run_worker(
            config.replace(embeddings=vectors),
            function=REHEARSE,
            data_dir=str(folder),
            cache_dir=str(folder / "cache" / name),
            run_dir=str(folder / "runs" / name),
            steps=FLAGS.steps,
            launched=time.time(),
        )
    except WorkerError as error:
        print(f"  failed: {error}", flush=True)
        return {"name": config.name, "error": str(error)}


def measure():
    """Writes the synthetic files, rehearses every row of --rows on them; returns the record."""
    configs = _configs()
    size = SIZES[FLAGS.size]
    with tempfile.TemporaryDirectory(prefix="rehearsal-") as folder:
        folder = pathlib.Path(folder)
        start = time.perf_counter()
        files = write_data(folder, FLAGS.size, FLAGS.seed)
        print(f"wrote {sum(files.values()) / 2**20:.0f} MiB of synthetic files", flush=True)
        data = {
            "quora": "/".join(f"{n:,}" for n in size.quora),
            "snli": "/".join(f"{n:,}" for n in size.snli),
            "vectors": f"{size.vectors} ({size.vector_dim}-d)",
            "files": files,
            "write_seconds": time.perf_counter() - start,
        }
        rows = [_rehearse(config, folder, size.vectors) for config in configs]
    measured = [r for r in rows if "error" not in r]
    if not measured:
        raise SystemExit("every row failed: " + "; ".join(r["error"] for r in rows))
    return {
        "machine": machine_name(),
        "size": FLAGS.size,
        "steps": FLAGS.steps,
        "command": "python experiments/rehearse.py "
        + " ".join(shlex.quote(a) for a in sys.argv[1:]),
        "environment": measured[0].pop("environment"),
        "data": data,
        "rows": [{k: v for k, v in r.items() if k != "environment"} for r in rows],
    }


def main(argv):
    del argv
    suffix = "" if FLAGS.size == "real" else f"-{FLAGS.size}"
    path = pathlib.Path(FLAGS.json or f"results/rehearsal-{machine_name()}{suffix}.json")
    if FLAGS.report_only:
        record = read_json(path)
        if record is None:
            raise app.UsageError(f"--json: no record at {path}; run without --report_only first")
    else:
        record = measure()
        write_json(path, record)
    markdown = render(record)
    print(markdown)
    output = FLAGS.output or ("BENCHMARKS.md" if record["size"] == "real" else None)
    if output:
        update_section(pathlib.Path(output), SECTION, markdown, heading="# Benchmarks")


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
