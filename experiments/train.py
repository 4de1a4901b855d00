"""`gcnn-train` in a checkout; its code and usage: gcnn_match/scripts/train.py."""

from gcnn_match.scripts.train import run

if __name__ == "__main__":
    run()
