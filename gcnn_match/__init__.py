"""gcnn_match: faithful Keras 3 reproductions of GCNN, ATTCONV, Coupled-LSTMs and COIN."""

import os

from gcnn_match import quiet_tensorflow

# TensorFlow's C++ start-up notices drown the driver's own output; users can still lower it.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
quiet_tensorflow.install()
