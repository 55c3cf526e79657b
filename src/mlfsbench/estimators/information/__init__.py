"""Information-theoretic estimates.

- :mod:`~mlfsbench.estimators.information.entropy` -- plug-in entropies and
  mutual information of discrete codes, in bits.
- :mod:`~mlfsbench.estimators.information.knn` -- nearest-neighbour mutual
  information between continuous features and a class, in nats.
"""
