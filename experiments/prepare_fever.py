"""`gcnn-prepare-fever` in a checkout; its code and usage: gcnn_match/scripts/prepare_fever.py."""

from gcnn_match.scripts.prepare_fever import run

if __name__ == "__main__":
    run()
