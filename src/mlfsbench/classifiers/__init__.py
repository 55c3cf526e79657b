"""Multi-label classifiers, registered by name in :mod:`mlfsbench.registry`.

Importing this package registers every built-in classifier:

- ``mlknn`` -- :class:`~mlfsbench.classifiers.mlknn.MLkNN` (Zhang & Zhou, 2007).

>>> from mlfsbench import registry
>>> registry.get("classifier", "mlknn") is MLkNN
True
"""

from mlfsbench.classifiers.mlknn import MLkNN

__all__ = ["MLkNN"]
