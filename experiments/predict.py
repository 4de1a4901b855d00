"""`gcnn-predict` in a checkout; its code and usage: gcnn_match/scripts/predict.py."""

from gcnn_match.scripts.predict import run

if __name__ == "__main__":
    run()
