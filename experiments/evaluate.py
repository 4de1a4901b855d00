"""`gcnn-evaluate` in a checkout; its code and usage: gcnn_match/scripts/evaluate.py."""

from gcnn_match.scripts.evaluate import run

if __name__ == "__main__":
    run()
