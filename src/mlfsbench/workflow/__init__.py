"""The workflow layer: files, configs and runs around the library.

- :mod:`~mlfsbench.workflow.stages` -- each stage of the DAG as a function of
  files (called by ``scripts/*.py`` and by the CLI alike).
- :mod:`~mlfsbench.workflow.config` -- experiment configs: validation and
  method identifiers.
- :mod:`~mlfsbench.workflow.versions` -- the code version each rule carries.
- :mod:`~mlfsbench.workflow.logutil` -- job logs;
  :mod:`~mlfsbench.workflow.runner` -- ``mlfsbench run``;
  :mod:`~mlfsbench.workflow.runstats` -- seconds and memory of a run;
  :mod:`~mlfsbench.workflow.provenance` -- config and package versions.

The tables, figures and verdicts made from the stages' outputs are the report
layer's (:mod:`mlfsbench.report`), atomic output the ground floor's
(:mod:`mlfsbench.io`).
"""
