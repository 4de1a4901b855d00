"""Evaluates a trained run (or export) on a split of its dataset or on a labelled pairs file.

    python experiments/evaluate.py --run_dir=runs/... --data_dir=../shared/data --split=test
    python experiments/evaluate.py --run_dir=runs/... --input=mine.tsv --a=0 --b=1 --label=2

A split with an official scorer is scored by it too (FEVER: label accuracy and FEVER score).
A ranking run (e.g. the C-LSTM WikiQA rows) reports P@1 / MAP / MRR; its --input needs the
question column (--group) that ties each question's candidates together. Without
--format/--a/--b/--label/--group, --input is read like the run's training file when that was a
file of your own (its format, columns and header names), else as a<TAB>b<TAB>label; a header
line is recognised (--header=auto) or declared, never scored as a pair. The texts of --input are
taken as typed and rewritten into the tokenization of the run's training text (--noraw_text: as
given); a --split is read as the run read its files.
"""

import functools
import json
import sys

from absl import app, flags

from gcnn_match import cli
from gcnn_match.data import registry
from gcnn_match.data.reading import ReaderError
from gcnn_match.scripts import _pair_input_flags
from gcnn_match.training import raw_input

FLAGS = flags.FLAGS
_pair_input_flags.define_flags(
    input_help="A labelled pairs file instead of --split.",
    export_help="An export folder (instead of --run_dir).",
)
flags.adopt_module_key_flags(_pair_input_flags)
flags.DEFINE_string("data_dir", "data", "Dataset folder for --split.")
flags.DEFINE_string("split", None, "A split of the run's dataset (e.g. test, dev).")
flags.DEFINE_string("label", None, "Column of the label (class name or index).")
flags.DEFINE_string("group", None, "Column of the question a candidate answers (ranking runs).")


def main(argv):
    del argv
    saved = cli.trained_model(FLAGS.run_dir, FLAGS.export_dir)
    dataset = saved.dataset
    if not (FLAGS.split or FLAGS.input):
        raise app.UsageError("give --split or --input")
    if FLAGS.split and FLAGS.split not in dataset.splits:
        raise app.UsageError(
            f"--split: {dataset.name} has no split {FLAGS.split!r} (splits: "
            f"{', '.join(dataset.splits)}); a file of your own is --input"
        )
    given = _pair_input_flags.given_columns(("a", "b", "label", "group"))
    try:
        if FLAGS.split:
            examples = list(registry.read_split(dataset.name, FLAGS.split, FLAGS.data_dir))
            source = registry.resolve_split(dataset.name, FLAGS.split, FLAGS.data_dir)
        else:
            source = None
            log = functools.partial(print, file=sys.stderr)
            examples = saved.read_file(FLAGS.input, given, FLAGS.header, labelled=True, log=log)
            examples = raw_input.prepare_input(saved, examples, FLAGS.raw_text, log=log)
    except ReaderError as error:
        raise SystemExit(f"error: {'--input: ' * bool(FLAGS.input)}{error}") from None
    except registry.MissingDataError as error:
        raise SystemExit(f"error: {error}") from None
    except ValueError as error:  # columns the format cannot have
        raise app.UsageError(f"--input: {error}") from None
    try:
        metrics = saved.evaluate_examples(examples, source)
    except ValueError as error:  # e.g. a ranking input without its question column
        raise SystemExit(f"error: {error}") from None
    for note in saved.notes:  # texts over the cut-off, texts without tokens
        print(note, file=sys.stderr)
    print(json.dumps({"examples": len(examples), **metrics}, indent=2))


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
