"""`gcnn-curves` in a checkout; its code and usage: gcnn_match/scripts/curves.py."""

from gcnn_match.scripts.curves import run

if __name__ == "__main__":
    run()
