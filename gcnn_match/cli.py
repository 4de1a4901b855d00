"""The one way every tool of gcnn_match/scripts/ starts, as a console script (`gcnn-train`) or
as `python experiments/train.py`: absl flags, the tool's usage, and mistakes as one line."""

import functools
import re
import sys

from absl import app, flags

from gcnn_match.files import InputError


def console_script(tool):
    """The console script of the tool `gcnn_match.scripts.<tool>`: gcnn-train for train,
    gcnn-build-yahoo for build_yahoo."""
    return "gcnn-" + tool.replace("_", "-")


def usage(doc, console=False):
    """A tool's docstring as `--help` shows it.

    Args:
        doc: the docstring; its examples name the checkout's `python experiments/<tool>.py`.
        console: whether a console script runs: the examples then name the console scripts.
    """
    if not console:
        return doc
    return re.sub(r"python experiments/(\w+)\.py", lambda m: console_script(m.group(1)), doc)


def _adopt_usage(module):
    """Makes `--help` show `module`'s usage and key flags, whatever file started the process
    (absl reads both from `__main__` and `sys.argv[0]`)."""
    console = not sys.argv[0].endswith(".py")
    sys.modules["__main__"].__doc__ = usage(module.__doc__ or "", console)
    for flag in flags.FLAGS.get_key_flags_for_module(module.__name__):
        flags.FLAGS.register_key_flag_for_module(sys.argv[0], flag)


def run(main):
    """`app.run(main)`, except that an `app.UsageError` raised by `main` (a flag mistake found
    after parsing) or an `InputError` (a file missing, cut or malformed: a reader's, the
    vectors', a split's) prints `error: <message>` alone on stderr and exits with status 2,
    instead of absl's usage text or a traceback followed by the message.

    Args:
        main: the tool's `main(argv)`; `--help` shows the docstring and key flags of its module.
    """
    _adopt_usage(sys.modules[main.__module__])

    def main_with_one_line_errors(argv):
        try:
            return main(argv)
        except (app.UsageError, InputError) as error:
            message = error.one_line if isinstance(error, InputError) else error
            print(f"error: {message}", file=sys.stderr)
            sys.exit(2)

    app.run(main_with_one_line_errors)


def entry_point(main):
    """The function without arguments that runs `main` through `run`: a tool's `run`, which its
    console script and its `experiments/` file call.

    Args:
        main: the tool's `main(argv)`.
    """
    return functools.partial(run, main)


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
