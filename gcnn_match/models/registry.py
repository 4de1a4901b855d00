"""Model registry: name -> builder(inputs: ModelInputs, **kwargs) -> keras.Model."""

import dataclasses
from typing import Callable, Dict, Optional

import numpy as np

_BUILDERS: Dict[str, Callable] = {}


@dataclasses.dataclass
class ModelInputs:
    """What a builder needs to know about the data, independent of the paper.

    Args:
        vocab_size: word vocabulary size (id 0 = padding).
        num_classes: output classes.
        embedding_matrix: pretrained rows (vocab_size, dim) or None for random.
        embedding_dim: used when `embedding_matrix` is None.
        embeddings_trainable: fine-tune the word vectors.
        char_vocab_size, max_chars: set when character ids are fed ("a_chars"/"b_chars").
        pos_vocab_size: set when POS tag ids are fed ("a_pos"/"b_pos").
        segments: the sentence of each token of "a" is fed ("a_segments", 0 at padding), for
            models that read the sentences of a multi-sentence context separately.
    """

    vocab_size: int
    num_classes: int
    embedding_matrix: Optional[np.ndarray] = None
    embedding_dim: int = 300
    embeddings_trainable: bool = True
    char_vocab_size: Optional[int] = None
    max_chars: int = 16
    pos_vocab_size: Optional[int] = None
    segments: bool = False

    @property
    def word_dim(self):
        if self.embedding_matrix is not None:
            return int(self.embedding_matrix.shape[1])
        return self.embedding_dim


def register(name):
    def wrap(builder):
        if name in _BUILDERS:
            raise ValueError(f"model {name!r} registered twice")
        _BUILDERS[name] = builder
        return builder

    return wrap


def build_model(name, inputs, **kwargs):
    import_all()
    if name not in _BUILDERS:
        raise ValueError(f"unknown model {name!r}; known: {sorted(_BUILDERS)}")
    return _BUILDERS[name](inputs, **kwargs)


def model_names():
    import_all()
    return sorted(_BUILDERS)


def import_all():
    """Imports every model module, which registers its builder and its custom layers (also
    needed before `keras.models.load_model` can rebuild a saved model)."""
    import importlib
    import pkgutil

    import gcnn_match.models as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name not in ("registry", "common"):
            importlib.import_module(f"gcnn_match.models.{module.name}")
