"""Label-space transformations, registered by name in
:mod:`mlfsbench.estimators.registry`.

Each is a small estimator fitted on the training part of a split:
``fit(Y)`` learns what it needs from the label matrix, ``transform(Y)``
returns the new target(s). Every module of this package is imported by the
registry, so a new transformation needs no import line here.
"""

from mlfsbench.estimators.transformations.lp import (
    LabelPowerset,
    PrunedProblemTransformation,
    labelset_codes,
)

__all__ = ["LabelPowerset", "PrunedProblemTransformation", "labelset_codes"]
