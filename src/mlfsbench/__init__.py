"""mlfsbench: reproducible multi-label feature selection benchmarks.

The science lives in this package; the Snakemake workflow only wires its
functions together. Its folders are its layers, each importing only those
listed before it:

- :mod:`mlfsbench.estimators` -- pure library: information estimates,
  discretizers, label transformations, selectors and classifiers, registered
  by name.
- :mod:`mlfsbench.evaluation` -- metrics, statistical tests, stability.
- :mod:`mlfsbench.data` -- download, ARFF/XML parsing, the prepared
  :class:`~mlfsbench.data.Dataset`, its statistics, the datasets table, splits.
- :mod:`mlfsbench.workflow` -- the stages as functions of files, configs,
  runner and run statistics.
- :mod:`mlfsbench.cli` -- the ``mlfsbench`` command, calling the stages.
"""

__version__ = "0.1.0"
