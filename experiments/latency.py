"""`gcnn-latency` in a checkout; its code and usage: gcnn_match/scripts/latency.py."""

from gcnn_match.scripts.latency import run

if __name__ == "__main__":
    run()
