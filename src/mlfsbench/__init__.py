"""mlfsbench: reproducible multi-label feature selection benchmarks.

The science lives in this package; the Snakemake workflow only wires its
functions together. Sub-packages:

- :mod:`mlfsbench.data` -- download, ARFF/XML parsing, the prepared
  :class:`~mlfsbench.data.Dataset` container and its statistics.
- :mod:`mlfsbench.split`, :mod:`mlfsbench.discretize` -- resampling and
  discretization fitted on training parts only.
- :mod:`mlfsbench.infotheory` -- vectorized entropies and mutual information.
- :mod:`mlfsbench.selectors`, :mod:`mlfsbench.classifiers` -- estimators,
  registered by name in :mod:`mlfsbench.registry`.
- :mod:`mlfsbench.metrics`, :mod:`mlfsbench.aggregate` -- evaluation.
"""

__version__ = "0.1.0"
