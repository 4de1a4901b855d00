"""Lists every number in the hand-written prose of REPRODUCTION.md that no committed record,
registered paper target or named test traces (gcnn_match/reporting/prose_numbers.py says what
traces a number); exits 1 when there is one.

    python tools/check_reproduction_numbers.py [--markdown=REPRODUCTION.md] [--results_dir=results]

`make test` runs the same check (tests/reporting/test_prose_numbers.py).
"""

import argparse
import pathlib
import sys

from gcnn_match.reporting import prose_numbers

REPO = pathlib.Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--markdown", default=REPO / "REPRODUCTION.md", type=pathlib.Path)
    parser.add_argument("--results_dir", default=REPO / "results", type=pathlib.Path)
    args = parser.parse_args()
    untraced = prose_numbers.check(args.markdown, args.results_dir, REPO)
    for quoted in untraced:
        print(
            f"{args.markdown.name}:{quoted.line}: {quoted.text} ({quoted.kind}): {quoted.context}"
        )
    print(f"{len(untraced)} number(s) of the prose traced to no record, target or test")
    return 1 if untraced else 0


if __name__ == "__main__":
    sys.exit(main())
