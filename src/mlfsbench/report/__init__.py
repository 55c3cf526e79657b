"""The report layer: what turns results into tables, figures, verdicts and HTML.

The top of the package (:mod:`mlfsbench`'s layers): it reads the files the
workflow's stages write and imports every layer below it; nothing below
imports it.

- :mod:`~mlfsbench.report.aggregate` -- the metric and summary tables of an
  experiment, the datasets and transformations tables, the per-dataset plots.
- :mod:`~mlfsbench.report.compare` -- the statistical comparison
  (``stats/<metric>.json``, ``ranks.tsv``); :mod:`~mlfsbench.report.cd_diagram`
  -- its critical-difference diagram.
- :mod:`~mlfsbench.report.selections` -- runtimes and stability of the
  selections.
- :mod:`~mlfsbench.report.claims` -- the paper's claims and their verdicts
  (the ``artificial`` claims read the runs of
  :mod:`mlfsbench.evaluation.artificial`).
- :mod:`~mlfsbench.report.verdict_tables` -- the verdict tables of a results
  folder (its studies, their filters and counts), as ``mlfsbench claims`` and
  the end of ``mlfsbench run`` read them.
- :mod:`~mlfsbench.report.summary` -- the report's first page and the
  headline figures.
- :mod:`~mlfsbench.report.challenge` -- the challenge pages: a challenger
  against a study's methods (the numbers in
  :mod:`~mlfsbench.report.challenge_stats`, the tables in
  :mod:`~mlfsbench.report.challenge_tables`).
- :mod:`~mlfsbench.report.names` -- method keys and display names;
  :mod:`~mlfsbench.report.render` -- HTML tables and figures written
  atomically.
"""
