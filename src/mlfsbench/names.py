"""The marks in an experiment's name, which the workflow writes and the
report reads (results folders, challenge ids).

It sits on the ground floor beside :mod:`mlfsbench.io` so that both layers
import the one definition (the report may not import the workflow,
:data:`mlfsbench.layers.FORBIDDEN`); a module of its own, because every job
reaches ``io.py`` and an edit there reruns them all.
"""

#: Joins a study and its challenge's id in a challenge experiment's name:
#: ``lee2016+variance-rank`` (:func:`mlfsbench.workflow.studies.challenge_name`,
#: :func:`mlfsbench.report.names.challenge_id`).
CHALLENGE_MARK = "+"
#: Separates an experiment's name from a variant's reading and option:
#: ``li2017~mlknn-scale-scaled`` (:func:`mlfsbench.workflow.readings.variant_name`;
#: the report finds the variants' results folders by it).
VARIANT_MARK = "~"
