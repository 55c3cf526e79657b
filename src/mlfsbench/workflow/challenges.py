"""What the challenge rules read of the plan, and the earlier challenges.

Entries flagged ``challenger: true`` are a study's challengers
(:mod:`~mlfsbench.workflow.studies`). :class:`ChallengeInputs`, mixed into
:class:`~mlfsbench.workflow.plan.Plan`, gives each experiment's challengers
(their ids, names, parameters and cache ids), the experiments that have some
and the datasets of the studies they extend; :func:`earlier_challenges` and
:func:`challenge_history` find the challenges of earlier runs that the page
across studies keeps.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mlfsbench.workflow.ids import cache_id, canonical, method_id, method_labels
from mlfsbench.workflow.report_params import challenger_labels
from mlfsbench.workflow.studies import challenger_ids, is_challenger


class ChallengeInputs:
    """The challengers of the plan's experiments (mixed into the plan; see
    the module's docstring)."""

    if TYPE_CHECKING:  # what the plan this is mixed into provides
        config: dict[str, Any]

        @property
        def experiments(self) -> dict[str, dict[str, Any]]: ...
        @property
        def main_experiments(self) -> dict[str, dict[str, Any]]: ...
        def stats_metrics(self, experiment: str) -> list[str]: ...

    # ----------------------------------------------------------- challenges
    # What rules/challenge.smk reads: its jobs run only for the (main)
    # experiments that have challengers.
    def challengers(self, experiment: str) -> list[str]:
        """The method ids (as in the tables' selector and classifier columns)
        of the experiment's entries flagged ``challenger: true``, selectors
        then classifiers; the statistics, paper tables and claims leave them
        out (:func:`~mlfsbench.workflow.studies.challenger_ids`)."""
        return challenger_ids(self.experiments[experiment])

    def challenger_labels(self) -> dict[str, list[str]]:
        """Main experiment -> the readable names of its challengers, for the
        experiments that have some (the summary page links their challenge
        pages)."""
        out = {e: challenger_labels(self.experiments[e]) for e in self.main_experiments}
        return {e: labels for e, labels in out.items() if labels}

    def challenger_map(self) -> dict[str, list[str]]:
        """Main experiment -> its challengers' method ids (maybe none)."""
        return {e: self.challengers(e) for e in self.main_experiments}

    @property
    def challenged(self) -> list[str]:
        """The main experiments that have challengers, in config order."""
        return [e for e, ids in self.challenger_map().items() if ids]

    def challenger_ids(self, wildcards) -> list[str]:
        return self.challengers(wildcards.experiment)

    def compared_metrics(self, wildcards) -> list[str]:
        return self.stats_metrics(wildcards.experiment)

    def challenger_entries(self, wildcards) -> dict[str, dict[str, Any]]:
        """:meth:`challenger_entries_of` a job's experiment."""
        return self.challenger_entries_of(wildcards.experiment)

    def challenger_entries_of(self, experiment: str) -> dict[str, dict[str, Any]]:
        """The experiment's challengers by method id: their registry
        ``name``, ``label`` (if any), ``params`` (as configured) and
        ``cache_ids`` (of their jobs' results, over the datasets), for the
        challenge pages to name them by name and parameters, not by hash."""
        x = self.experiments[experiment]
        out = {}
        for key, kind in (("selectors", "selector"), ("classifiers", "classifier")):
            for entry in x.get(key) or []:
                if not is_challenger(entry):
                    continue
                info: dict[str, Any] = {"name": entry["name"],
                                        "params": dict(entry.get("params") or {})}
                if entry.get("label"):
                    info["label"] = entry["label"]
                info["cache_ids"] = sorted({cache_id(entry, d, kind)
                                            for d in x["datasets"]})
                out[method_id(entry)] = info
        return canonical(out)

    def paper_datasets(self, wildcards) -> list[str]:
        """:meth:`paper_datasets_of` a job's experiment."""
        return self.paper_datasets_of(wildcards.experiment)

    def paper_datasets_of(self, experiment: str) -> list[str]:
        """The datasets of the study an experiment ``extends`` (all the
        paper's, those the challenge cut away or could not get included);
        an experiment extending none: its own and those it could not get."""
        from mlfsbench.workflow.studies import find_study

        x = self.experiments[experiment]
        own = list(x["datasets"]) + sorted(x.get("unavailable") or {})
        if not x.get("extends"):
            return own
        try:
            study, _ = find_study(x["extends"], self.config)
        except ValueError:
            return own
        return list(study.get("datasets") or own)

    def challenges_entries(self) -> dict[str, dict[str, Any]]:
        """:meth:`challenger_entries_of` every challenged experiment, merged."""
        out: dict[str, dict[str, Any]] = {}
        for e in self.challenged:
            out.update(self.challenger_entries_of(e))
        return out

    def unavailable_reasons(self) -> dict[str, str]:
        """Challenged experiment -> why it lacks datasets (those the run could
        not get), for the page across studies; experiments lacking none are
        left out."""
        out = {}
        for e in self.challenged:
            gone = self.experiments[e].get("unavailable") or {}
            if gone:
                out[e] = "could not run: " + "; ".join(
                    f"{d} ({r})" for d, r in sorted(gone.items()))
        return out

    def challenge_labels(self) -> dict[str, str]:
        """Readable names of the challenged experiments' methods, by id."""
        out: dict[str, str] = {}
        for e in self.challenged:
            x = self.experiments[e]
            out.update(method_labels(x["selectors"]))
            out.update(method_labels(x["classifiers"]))
        return out


def earlier_challenges(results: str, experiments: Mapping[str, Any]
                       ) -> dict[str, str]:
    """The ``challenge.tsv`` of earlier challenges under ``results``
    (``<results>/<experiment>/challenge/challenge.tsv`` of an experiment not
    in ``experiments``), by experiment, in name order: the page across
    studies keeps them beside the run's. No rule makes them in a run of
    other experiments (the experiment wildcard names the config's), so they
    are read as found."""
    found: dict[str, Any] = {}
    if not os.path.isdir(results):
        return found
    for experiment in sorted(os.listdir(results)):
        path = os.path.join(results, experiment, "challenge", "challenge.tsv")
        if experiment not in experiments and os.path.isfile(path):
            found[experiment] = path.replace(os.sep, "/")
    return found


def challenge_history(path: str, current: list[str]) -> list[str]:
    """The challenges' ids in the order of the page across studies as last
    written (``challenges.tsv``'s ``challenge`` column, most recent first),
    without ``current`` (this run's, which go first): the page's order
    comes from its own previous content, not from file times."""
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as fh:
        head = fh.readline().rstrip("\n").split("\t")
        if "challenge" not in head:
            return []
        col = head.index("challenge")
        ids = [line.rstrip("\n").split("\t")[col] for line in fh
               if line.strip() and len(line.split("\t")) > col]
    return [c for c in dict.fromkeys(ids) if c and c not in set(current)]
