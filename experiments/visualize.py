"""`gcnn-visualize` in a checkout; its code and usage: gcnn_match/scripts/visualize.py."""

from gcnn_match.scripts.visualize import run

if __name__ == "__main__":
    run()
