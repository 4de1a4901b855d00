"""Datasets: their files, readers, vocabularies and input pipelines.

Importing the package registers the catalogue's datasets (`gcnn_match.data.catalogue`), so that
the registry knows them whichever module of the package is imported first.
"""

from gcnn_match.data import catalogue  # noqa: F401
