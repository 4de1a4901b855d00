"""The one way every script under experiments/ starts: absl flags, and mistakes as one line."""

import sys

from absl import app


def run(main):
    """`app.run(main)`, except that an `app.UsageError` raised by `main` (a flag mistake found
    after parsing) prints `error: <message>` alone on stderr and exits with status 2, instead of
    absl's usage text followed by the message."""

    def main_with_one_line_errors(argv):
        try:
            return main(argv)
        except app.UsageError as error:
            print(f"error: {error}", file=sys.stderr)
            sys.exit(2)

    app.run(main_with_one_line_errors)


def trained_model(run_dir, export_dir):
    """The `TrainedModel` that evaluate.py and predict.py score with: `--run_dir`'s, or else
    `--export_dir`'s. Neither flag is an `app.UsageError`; a folder that is not a run or an
    export, or files of different runs, exits with its one-line reason."""
    # Imported here: the scripts that only report (claims.py, compare.py) need no model code.
    from gcnn_match.training.predict import TrainedModel

    if not (run_dir or export_dir):
        raise app.UsageError("give --run_dir or --export_dir")
    try:
        return TrainedModel.from_run(run_dir) if run_dir else TrainedModel.from_export(export_dir)
    except (FileNotFoundError, ValueError) as error:
        raise SystemExit(f"error: {error}") from None
