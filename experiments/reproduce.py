"""`gcnn-reproduce` in a checkout; its code and usage: gcnn_match/scripts/reproduce.py."""

from gcnn_match.scripts.reproduce import run

if __name__ == "__main__":
    run()
