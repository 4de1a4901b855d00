"""The command-line tools, one module each: its absl flags, `main(argv)` and `run`, the console
script `gcnn-<tool>` (pyproject.toml) that `python experiments/<tool>.py` also calls.

A tool's output comes first: importing this package keeps TensorFlow's C++ start-up notices off
the tool's standard error (gcnn_match/quiet_tensorflow.py); a library user's process is left as
it is, since `import gcnn_match` alone changes nothing.
"""

import os

from gcnn_match import quiet_tensorflow

# Users can still lower it (TF_CPP_MIN_LOG_LEVEL=0 also keeps the start-up notices).
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
quiet_tensorflow.install()
