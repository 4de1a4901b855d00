"""`gcnn-download` in a checkout; its code and usage: gcnn_match/scripts/download.py."""

from gcnn_match.scripts.download import run

if __name__ == "__main__":
    run()
