"""`gcnn-stopping-check` in a checkout; its code and usage: gcnn_match/scripts/stopping_check.py."""

from gcnn_match.scripts.stopping_check import run

if __name__ == "__main__":
    run()
