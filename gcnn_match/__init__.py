"""gcnn_match: faithful Keras 3 reproductions of GCNN, ATTCONV, Coupled-LSTMs and COIN."""
