"""`gcnn-gpu-plan` in a checkout; its code and usage: gcnn_match/scripts/gpu_plan.py."""

from gcnn_match.scripts.gpu_plan import run

if __name__ == "__main__":
    run()
