"""`gcnn-floor` in a checkout; its code and usage: gcnn_match/scripts/floor.py."""

from gcnn_match.scripts.floor import run

if __name__ == "__main__":
    run()
