"""Lists every number in the hand-written prose of REPRODUCTION.md that no committed record,
registered paper target or named test traces (gcnn_match/reporting/prose_numbers.py says what
traces a number), every sentence that states a verdict or an ordering without linking the
CLAIMS.md row it rests on or against that row's verdict, and every quoted command that no
record's provenance holds (gcnn_match/reporting/prose_claims.py); exits 1 when there is one.

    python tools/check_reproduction_numbers.py [--markdown=REPRODUCTION.md] [--results_dir=results]
        [--claims_markdown=CLAIMS.md]

`make test` runs both checks (tests/reporting/test_prose_numbers.py and
tests/reporting/test_prose_claims.py).
"""

import argparse
import pathlib
import sys

from gcnn_match.reporting import prose_claims, prose_numbers

REPO = pathlib.Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--markdown", default=REPO / "REPRODUCTION.md", type=pathlib.Path)
    parser.add_argument("--results_dir", default=REPO / "results", type=pathlib.Path)
    parser.add_argument("--claims_markdown", default=REPO / "CLAIMS.md", type=pathlib.Path)
    args = parser.parse_args()
    untraced = prose_numbers.check(args.markdown, args.results_dir, REPO)
    for quoted in untraced:
        print(
            f"{args.markdown.name}:{quoted.line}: {quoted.text} ({quoted.kind}): {quoted.context}"
        )
    print(f"{len(untraced)} number(s) of the prose traced to no record, target or test")
    findings = prose_claims.check(
        args.markdown, args.claims_markdown, args.results_dir, REPO / "Makefile"
    )
    for found in findings:
        print(f"{args.markdown.name}:{found.line}: {found.problem}: {found.text}")
    print(f"{len(findings)} sentence(s) or command(s) of the prose not backed by CLAIMS.md")
    return 1 if untraced or findings else 0


if __name__ == "__main__":
    sys.exit(main())
