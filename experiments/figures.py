"""`gcnn-figures` in a checkout; its code and usage: gcnn_match/scripts/figures.py."""

from gcnn_match.scripts.figures import run

if __name__ == "__main__":
    run()
