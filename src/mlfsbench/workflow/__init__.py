"""The workflow layer: files, configs and runs around the library.

- :mod:`~mlfsbench.workflow.plan` -- every job a config asks for (the
  Snakefile's input functions read it); :mod:`~mlfsbench.workflow.jobs` --
  fold batches and the job record; :mod:`~mlfsbench.workflow.inputs` -- the
  rules' input functions; :mod:`~mlfsbench.workflow.challenges` -- what the
  challenge rules read.
- :mod:`~mlfsbench.workflow.stages` -- each stage of the DAG as a function of
  files (called by ``scripts/*.py``); :mod:`~mlfsbench.workflow.folds` -- the
  per-fold science (called by the stages and the CLI);
  :mod:`~mlfsbench.workflow.pool` -- the worker processes of a batch job.
- :mod:`~mlfsbench.workflow.config` -- loading and validating a config;
  :mod:`~mlfsbench.workflow.ids` -- method identifiers and cache keys;
  :mod:`~mlfsbench.workflow.studies` -- studies and their challengers;
  :mod:`~mlfsbench.workflow.readings` -- readings and their variants;
  :mod:`~mlfsbench.workflow.grids` -- feature-count grids;
  :mod:`~mlfsbench.workflow.checks` -- checks of an experiment beyond the
  schema.
- :mod:`~mlfsbench.workflow.versions` -- the code version each rule carries.
- :mod:`~mlfsbench.workflow.logutil` -- job logs;
  :mod:`~mlfsbench.workflow.runner` -- ``mlfsbench run``;
  :mod:`~mlfsbench.workflow.runstats` -- seconds and memory of a run;
  :mod:`~mlfsbench.workflow.provenance` -- config and package versions.

The tables, figures and verdicts made from the stages' outputs are the report
layer's (:mod:`mlfsbench.report`), atomic output the ground floor's
(:mod:`mlfsbench.io`).
"""
