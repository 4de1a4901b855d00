"""`gcnn-compare` in a checkout; its code and usage: gcnn_match/scripts/compare.py."""

from gcnn_match.scripts.compare import run

if __name__ == "__main__":
    run()
