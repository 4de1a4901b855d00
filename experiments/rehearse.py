"""`gcnn-rehearse` in a checkout; its code and usage: gcnn_match/scripts/rehearse.py."""

from gcnn_match.scripts.rehearse import run

if __name__ == "__main__":
    run()
