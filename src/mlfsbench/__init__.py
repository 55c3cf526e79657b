"""mlfsbench: reproducible multi-label feature selection benchmarks.

The science lives in this package; the Snakemake workflow only wires its
functions together. Its folders are its layers, each importing only itself
and those listed before it (the order is :data:`mlfsbench.layers.LAYERS`;
``tests/test_layers.py`` checks every import of the package and of the
repository's scripts, rules and benchmarks, which sit above it):

- :mod:`mlfsbench.io` -- the ground floor: atomic writes, JSON/npz/TSV
  formats, the metric table's columns, the all-features baseline's name
  (beside it :mod:`mlfsbench.names`, the marks in experiment names, and
  :mod:`mlfsbench.yamlfile`, the strict YAML reader).
- :mod:`mlfsbench.data` -- download, ARFF/XML parsing, the prepared
  :class:`~mlfsbench.data.Dataset`, its statistics, the datasets table,
  splits, the generated problems. It knows no method.
- :mod:`mlfsbench.estimators` -- pure library: information estimates,
  discretizers, label transformations, selectors and classifiers, registered
  by name.
- :mod:`mlfsbench.evaluation` -- metrics, statistical tests, stability.
- :mod:`mlfsbench.workflow` -- the stages as functions of files, configs,
  code versions, runner and run statistics.
- :mod:`mlfsbench.report` -- what turns results into tables, figures,
  verdicts and HTML: aggregation, statistical comparison and CD diagrams,
  runtimes and stability, the paper's claims, the summary page.
- :mod:`mlfsbench.cli` -- the ``mlfsbench`` command.
"""

__version__ = "0.1.0"
