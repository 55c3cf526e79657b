"""Multi-label feature selectors, registered by name in
:mod:`mlfsbench.estimators.registry`.

Importing this package imports every selector module so that its
``@register("selector", ...)`` decorator runs.
"""

from mlfsbench.estimators.selectors._base import (
    BaseMultiLabelSelector,
    fit_selector,
    rank_scores,
)
from mlfsbench.estimators.selectors.mim import MIMBR

__all__ = ["MIMBR", "BaseMultiLabelSelector", "fit_selector", "rank_scores"]
