"""The estimators: pure library code (arrays in, fitted objects out; no files).

- :mod:`~mlfsbench.estimators.information` -- entropies, mutual information
  (plug-in on discrete codes; nearest-neighbour estimates on continuous data).
- :mod:`~mlfsbench.estimators.discretizers` -- unsupervised (equal width or
  frequency) and supervised (MDL, Chi2) discretization.
- :mod:`~mlfsbench.estimators.transformations` -- label transformations (BR,
  LP, PPT, ELA, label granulation, label groups, entropy-based label subsets).
- :mod:`~mlfsbench.estimators.selectors` -- multi-label feature selectors.
- :mod:`~mlfsbench.estimators.classifiers` -- multi-label classifiers and
  multi-target regressors.
- :mod:`~mlfsbench.estimators.registry` -- every transformation, selector and
  classifier by the name a config uses.
"""
