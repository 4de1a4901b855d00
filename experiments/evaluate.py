"""Evaluates a trained run (or export) on a registered split or on a labelled pairs file.

    python experiments/evaluate.py --run_dir=runs/... --data_dir=../shared/data --split=test
    python experiments/evaluate.py --run_dir=runs/... --input=mine.tsv --a=0 --b=1 --label=2

A split with an official scorer is scored by it too (FEVER: label accuracy and FEVER score).
A ranking run (e.g. the C-LSTM WikiQA rows) reports P@1 / MAP / MRR; its --input needs the
question column (--group) that ties each question's candidates together.
"""

import json
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.data import registry
from gcnn_match.data.readers import ReaderError, parse_column, read_pairs
from gcnn_match.training.predict import SavedModel

FLAGS = flags.FLAGS
flags.DEFINE_string("run_dir", None, "A trained run directory.")
flags.DEFINE_string("export_dir", None, "An export folder (instead of --run_dir).")
flags.DEFINE_string("data_dir", "data", "Dataset folder for --split.")
flags.DEFINE_string("split", None, "A split of the run's dataset (e.g. test, dev).")
flags.DEFINE_string("input", None, "A labelled pairs file instead of --split.")
flags.DEFINE_enum("format", "tsv", ["tsv", "csv", "jsonl"], "Input format.")
flags.DEFINE_string("a", "0", "Column of the first text.")
flags.DEFINE_string("b", "1", "Column of the second text.")
flags.DEFINE_string("label", "2", "Column of the label (class name or index).")
flags.DEFINE_bool("header", False, "The tsv/csv input starts with a header line.")
flags.DEFINE_string("group", None, "Column of the question a candidate answers (ranking runs).")


def main(argv):
    del argv
    try:  # a folder that is not a run, or files of different runs
        saved = (
            SavedModel.from_run(FLAGS.run_dir)
            if FLAGS.run_dir
            else SavedModel.from_export(FLAGS.export_dir)
        )
    except (FileNotFoundError, ValueError) as error:
        raise SystemExit(f"error: {error}") from None
    dataset = registry.get_dataset(saved.config.dataset)
    if not (FLAGS.split or FLAGS.input):
        raise app.UsageError("give --split or --input")
    try:
        if FLAGS.split:
            examples = list(registry.read_split(dataset.name, FLAGS.split, FLAGS.data_dir))
            source = registry.resolve_split(dataset.name, FLAGS.split, FLAGS.data_dir)
        else:
            source = None
            names = {name: i for i, name in enumerate(saved.labels)}
            names.update({str(i): i for i in range(len(saved.labels))})
            examples = list(
                read_pairs(
                    FLAGS.input,
                    FLAGS.format,
                    a=parse_column(FLAGS.a),
                    b=parse_column(FLAGS.b),
                    label=parse_column(FLAGS.label),
                    group=parse_column(FLAGS.group) if FLAGS.group else None,
                    labels=names,
                    header=FLAGS.header,
                )
            )
    except (ReaderError, registry.MissingDataError) as error:
        raise SystemExit(f"error: {error}") from None
    try:
        metrics = saved.evaluate_examples(examples, source)
    except ValueError as error:  # e.g. a ranking input without its question column
        raise SystemExit(f"error: {error}") from None
    for note in saved.notes:  # texts over the cut-off, texts without tokens
        print(note, file=sys.stderr)
    print(json.dumps({"examples": len(examples), **metrics}, indent=2))


if __name__ == "__main__":
    cli.run(main)
