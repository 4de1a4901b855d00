"""`gcnn-bench` in a checkout; its code and usage: gcnn_match/scripts/bench.py."""

from gcnn_match.scripts.bench import run

if __name__ == "__main__":
    run()
