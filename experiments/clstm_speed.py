"""`gcnn-clstm-speed` in a checkout; its code and usage: gcnn_match/scripts/clstm_speed.py."""

from gcnn_match.scripts.clstm_speed import run

if __name__ == "__main__":
    run()
