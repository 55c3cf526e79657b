"""Multi-label feature selectors, registered by name in :mod:`mlfsbench.registry`.

Importing this package imports every selector module so that its
``@register("selector", ...)`` decorator runs.
"""

from mlfsbench.selectors._base import BaseMultiLabelSelector, rank_scores
from mlfsbench.selectors.mim import MIMBR

__all__ = ["MIMBR", "BaseMultiLabelSelector", "rank_scores"]
