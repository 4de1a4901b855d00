r"""Labels and probabilities for new sentence pairs from a trained run or an export.

    python experiments/predict.py --run_dir=runs/gcnn/quora/gcnn/low-resource-seed1 \
        --input=pairs.tsv            # a<TAB>b per line; "-" reads standard input
    python experiments/predict.py --run_dir=... --export_dir=exported/   # write an export
    python experiments/predict.py --export_dir=exported/ --input=pairs.jsonl --format=jsonl \
        --a=sentence1 --b=sentence2

Without --format/--a/--b the input is read like the run's training file when that was a file
of your own (its format, columns and header names), else as a<TAB>b[<TAB>label]. A header line
is recognised (--header=auto) or declared, never predicted as a pair. The texts are taken as
typed and rewritten into the tokenization of the run's training text (--noraw_text: as given);
standard error names the tokenization and the unknown-token rate beside the run's dev split's.
"""

import functools
import sys

import numpy as np
from absl import app, flags

from gcnn_match import cli
from gcnn_match.data.reading import ReaderError
from gcnn_match.files import write_text_atomic
from gcnn_match.scripts import _pair_input_flags
from gcnn_match.training import raw_input

FLAGS = flags.FLAGS
_pair_input_flags.define_flags(
    input_help="Pairs file, or '-' for standard input (same formats).",
    export_help="Export folder: read from it, or (with --run_dir) write the export there.",
)
flags.adopt_module_key_flags(_pair_input_flags)
flags.DEFINE_string("output", "-", "Where to write the predictions ('-' = standard output).")


def main(argv):
    del argv
    saved = cli.trained_model(FLAGS.run_dir, FLAGS.export_dir)
    if FLAGS.run_dir and FLAGS.export_dir and not FLAGS.input:
        print(f"exported to {saved.export(FLAGS.export_dir)}")
        return
    if not FLAGS.input:
        raise app.UsageError("give --input (a file, or '-' for standard input)")
    given = _pair_input_flags.given_columns()
    log = functools.partial(print, file=sys.stderr)
    try:
        examples = saved.read_file(FLAGS.input, given, FLAGS.header, log=log)
    except ReaderError as error:
        raise SystemExit(f"error: --input: {error}") from None
    except ValueError as error:  # columns the format cannot have
        raise app.UsageError(f"--input: {error}") from None
    examples = raw_input.prepare_input(saved, examples, FLAGS.raw_text, log=log)
    if saved.config.task == "ranking":  # one score per (question, candidate) pair
        scores = saved.score_examples(examples)
        lines = ["uid\tscore"] + [f"{e.uid}\t{s:.9g}" for e, s in zip(examples, scores)]
    else:
        probabilities = saved.predict_examples(examples)
        lines = ["uid\tpredicted\t" + "\t".join(f"p_{name}" for name in saved.labels)]
        for example, probs in zip(examples, probabilities):
            lines.append(
                "\t".join(
                    [example.uid, saved.labels[int(np.argmax(probs))]] + [f"{p:.6f}" for p in probs]
                )
            )
    for note in saved.notes:  # texts over the cut-off, texts without tokens
        print(note, file=sys.stderr)
    text = "\n".join(lines) + "\n"
    if FLAGS.output == "-":
        sys.stdout.write(text)
    else:
        write_text_atomic(FLAGS.output, text)


run = cli.entry_point(main)

if __name__ == "__main__":
    run()
