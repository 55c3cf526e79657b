"""The workflow layer: files, configs and runs around the library.

- :mod:`~mlfsbench.workflow.plan` -- every job a config asks for (the
  Snakefile's input functions read it).
- :mod:`~mlfsbench.workflow.stages` -- each stage of the DAG as a function of
  files (called by ``scripts/*.py``); :mod:`~mlfsbench.workflow.folds` -- the
  per-fold science (called by the stages and the CLI);
  :mod:`~mlfsbench.workflow.pool` -- the worker processes of a batch job.
- :mod:`~mlfsbench.workflow.config` -- experiment configs: validation and
  method identifiers.
- :mod:`~mlfsbench.workflow.aggregate`, :mod:`~mlfsbench.workflow.compare` --
  tables, plots, statistics, runtimes and stability of an experiment.
- :mod:`~mlfsbench.workflow.io` -- atomic output; :mod:`~mlfsbench.workflow.logutil`
  -- job logs; :mod:`~mlfsbench.workflow.runner` -- ``mlfsbench run``;
  :mod:`~mlfsbench.workflow.runstats` -- seconds and memory of a run;
  :mod:`~mlfsbench.workflow.provenance` -- config and package versions.
"""
