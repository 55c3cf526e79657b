"""Multi-label classifiers, registered by name in :mod:`mlfsbench.estimators.registry`.

Importing this package registers every built-in classifier:

- ``mlknn`` -- :class:`~mlfsbench.estimators.classifiers.mlknn.MLkNN` (Zhang & Zhou,
2007).

>>> from mlfsbench.estimators import registry
>>> registry.get("classifier", "mlknn") is MLkNN
True
"""

from mlfsbench.estimators.classifiers.mlknn import MLkNN

__all__ = ["MLkNN"]
