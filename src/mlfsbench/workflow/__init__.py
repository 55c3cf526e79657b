"""The workflow layer: files, configs and runs around the library.

- :mod:`~mlfsbench.workflow.stages` -- each stage of the DAG as a function of
  files (called by ``scripts/*.py`` and by the CLI alike).
- :mod:`~mlfsbench.workflow.config` -- experiment configs: validation and
  method identifiers.
- :mod:`~mlfsbench.workflow.aggregate`, :mod:`~mlfsbench.workflow.compare` --
  tables, plots, statistics, runtimes and stability of an experiment.
- :mod:`~mlfsbench.workflow.io` -- atomic output; :mod:`~mlfsbench.workflow.logutil`
  -- job logs; :mod:`~mlfsbench.workflow.runner` -- ``mlfsbench run``;
  :mod:`~mlfsbench.workflow.runstats` -- seconds and memory of a run;
  :mod:`~mlfsbench.workflow.provenance` -- config and package versions.
"""
