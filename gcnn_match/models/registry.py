"""Model registry: name -> builder(inputs: ModelInputs, **kwargs) -> keras.Model, and the
optional per-token inputs (`TokenFeatures`) each configuration of it consumes.

Adding a model is its builder module in this package, whose builder carries `@register(...)`.
"""

import dataclasses
import inspect
from typing import Callable, Dict, Optional

import numpy as np

from gcnn_match.data.features import TokenFeatures


@dataclasses.dataclass(frozen=True)
class _Registration:
    builder: Callable
    features: Optional[Callable]


_MODELS: Dict[str, _Registration] = {}


@dataclasses.dataclass
class ModelInputs:
    """What a builder needs to know about the data, independent of the paper.

    Args:
        vocab_size: word vocabulary size (id 0 = padding).
        num_classes: output classes.
        embedding_matrix: pretrained rows (vocab_size, dim) or None for random.
        embedding_dim: used when `embedding_matrix` is None.
        embeddings_trainable: fine-tune the word vectors.
        trainable_padding: with fixed vectors, how many of the last columns (the padding
            `embedding_width` adds to narrower vectors) train all the same; 0: none.
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
    trainable_padding: int = 0
    char_vocab_size: Optional[int] = None
    max_chars: int = 16
    pos_vocab_size: Optional[int] = None
    segments: bool = False

    @property
    def word_dim(self):
        if self.embedding_matrix is not None:
            return int(self.embedding_matrix.shape[1])
        return self.embedding_dim


def register(name, features=None):
    """Registers the decorated builder under `name`.

    Args:
        name: the model's registry name (`ExperimentConfig.model`).
        features: which optional per-token inputs a configuration consumes: called with the
            builder's arguments, its defaults filled in, it returns `TokenFeatures`. None: the
            model reads the word ids only.
    """

    def wrap(builder):
        if name in _MODELS:
            raise ValueError(f"model {name!r} registered twice")
        _MODELS[name] = _Registration(builder, features)
        return builder

    return wrap


def _registration(name):
    import_all()
    if name not in _MODELS:
        raise ValueError(f"unknown model {name!r}; known: {sorted(_MODELS)}")
    return _MODELS[name]


def build_model(name, inputs, **kwargs):
    """The `keras.Model` that the builder registered as `name` makes for `inputs`
    (`ModelInputs`), `kwargs` passed to the builder.

    Example:

    >>> inputs = ModelInputs(vocab_size=50, num_classes=3, embedding_dim=8)
    >>> model = build_model("compare_aggregate", inputs, hidden=8, mlp_hidden=8)
    >>> ids = np.array([[4, 5, 6, 0]], "int32")  # id 0: padding
    >>> tuple(model({"a_ids": ids, "b_ids": ids[:, :3]}).shape)
    (1, 3)
    """
    return _registration(name).builder(inputs, **kwargs)


def input_features(name, **kwargs):
    """The `TokenFeatures` that model `name` built with `kwargs` consumes."""
    registration = _registration(name)
    arguments = inspect.signature(registration.builder).bind(None, **kwargs)  # None: `inputs`
    if registration.features is None:
        return TokenFeatures()
    arguments.apply_defaults()
    return registration.features(**arguments.arguments)


def model_names():
    import_all()
    return sorted(_MODELS)


def import_all():
    """Imports every model module, which registers its builder and its custom layers (also
    needed before `keras.models.load_model` can rebuild a saved model)."""
    import importlib
    import pkgutil

    import gcnn_match.models as package

    for module in pkgutil.iter_modules(package.__path__):
        if module.name not in ("registry", "common"):
            importlib.import_module(f"gcnn_match.models.{module.name}")
