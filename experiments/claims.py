"""`gcnn-claims` in a checkout; its code and usage: gcnn_match/scripts/claims.py."""

from gcnn_match.scripts.claims import run

if __name__ == "__main__":
    run()
