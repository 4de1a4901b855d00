"""`gcnn-epoch-times` in a checkout; its code and usage: gcnn_match/scripts/epoch_times.py."""

from gcnn_match.scripts.epoch_times import run

if __name__ == "__main__":
    run()
