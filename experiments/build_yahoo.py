"""`gcnn-build-yahoo` in a checkout; its code and usage: gcnn_match/scripts/build_yahoo.py."""

from gcnn_match.scripts.build_yahoo import run

if __name__ == "__main__":
    run()
