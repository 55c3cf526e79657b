"""Discretizers, fitted on a training part and applied to any data.

- :mod:`~mlfsbench.estimators.discretizers.unsupervised` -- equal width and
  equal frequency (:func:`make_discretizer` builds one by strategy name).
- :mod:`~mlfsbench.estimators.discretizers.mdl` -- Fayyad & Irani's MDL.
- :mod:`~mlfsbench.estimators.discretizers.chi2` -- Liu & Setiono's Chi2.
"""
