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
