"""Evaluation: what a result is worth and whether differences are significant.

- :mod:`~mlfsbench.evaluation.metrics` -- multi-label measures, RRMSE and the
  feature reduction.
- :mod:`~mlfsbench.evaluation.stats` -- Friedman, Iman-Davenport, Nemenyi and
  Bonferroni-Dunn tests, critical-difference diagrams.
- :mod:`~mlfsbench.evaluation.stability` -- stability of selected subsets.
- :mod:`~mlfsbench.evaluation.artificial` -- selectors on draws of the
  generated problems, one run per content key.
"""
