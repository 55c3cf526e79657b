"""Snakemake's job events as JSON lines: what ``mlfsbench run`` follows.

Snakemake 9 hands every log record to its logger plugins with the event it
belongs to (``snakemake_interface_logger_plugins``). :class:`LogHandler` is
such a plugin, registered under the name ``mlfsbench`` by the launcher
(:func:`register`, called by :mod:`mlfsbench.workflow.snakemake_main`). Run
as ``--logger mlfsbench --logger-mlfsbench-path FILE``, it appends one JSON
object per job event to ``FILE``:

- ``{"event": "job_info", "jobid": 3, "rule": "prepare", "wildcards":
  {"dataset": "emotions"}, "log": ["logs/prepare/emotions.log"]}``: a job
  starts (or, in a dry run, would run);
- ``{"event": "job_finished", "jobid": 3}``: it finished;
- ``{"event": "job_error", "jobid": 3, "rule": "prepare", "log": [...]}``:
  it failed.

Nothing else is written; Snakemake's text log goes where it went before
(the plugin writes to no stream). :class:`EventTail` reads the file while
Snakemake appends to it. Job ids are Snakemake's, per command: the runner's
:class:`~mlfsbench.workflow.progress.Progress` forgets them between commands.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass, field
from typing import Any

from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import (
    LogEvent,
    logger_plugin_module_prefix,
)
from snakemake_interface_logger_plugins.settings import LogHandlerSettingsBase

#: The name Snakemake knows the plugin by (``--logger mlfsbench``).
NAME = "mlfsbench"

#: The events written, by Snakemake's name for them.
JOB_INFO, JOB_FINISHED, JOB_ERROR = "job_info", "job_finished", "job_error"
_EVENTS = {LogEvent.JOB_INFO: JOB_INFO, LogEvent.JOB_FINISHED: JOB_FINISHED,
           LogEvent.JOB_ERROR: JOB_ERROR}


def _path_only(entry: Any) -> str:
    """A log file as Snakemake formats it, without its remarks
    (``logs/x.log (check log file(s) for error details)`` -> ``logs/x.log``).

    >>> _path_only("logs/x.log (check log file(s) for error details)")
    'logs/x.log'
    """
    return str(entry).split(" (", 1)[0].strip()


def record_event(record: logging.LogRecord) -> dict[str, Any] | None:
    """The JSON object of a job event record, or None for any other record.

    >>> import logging
    >>> r = logging.LogRecord("snakemake", logging.INFO, "", 0, "", None, None)
    >>> r.event, r.job_id = LogEvent.JOB_FINISHED, 7
    >>> record_event(r)
    {'event': 'job_finished', 'jobid': 7}
    >>> r.event = LogEvent.PROGRESS
    >>> record_event(r) is None
    True
    """
    event = _EVENTS.get(getattr(record, "event", None))  # type: ignore[arg-type]
    if event is None:
        return None
    if event == JOB_FINISHED:
        return {"event": event, "jobid": int(record.__dict__["job_id"])}
    out: dict[str, Any] = {"event": event, "jobid": int(record.__dict__["jobid"]),
                           "rule": str(getattr(record, "rule_name", "") or "")}
    if event == JOB_INFO:
        wildcards = getattr(record, "wildcards", None) or {}
        out["wildcards"] = {str(k): str(v) for k, v in dict(wildcards).items()}
    out["log"] = [_path_only(f) for f in getattr(record, "log", None) or ()]
    return out


@dataclass
class LogHandlerSettings(LogHandlerSettingsBase):
    """The plugin's one setting: the file the events are appended to."""

    path: str | None = field(
        default=None,
        metadata={"help": "The file mlfsbench's job events (JSON lines) are "
                          "appended to.", "required": True,
                  "type": str})  # (the annotation is a string here)


class LogHandler(LogHandlerBase):
    """Appends each job event as a JSON line to the settings' ``path``."""

    def __post_init__(self) -> None:
        path = getattr(self.settings, "path", None)
        if not path:
            raise ValueError("the mlfsbench logger needs --logger-mlfsbench-path")
        self._fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            event = record_event(record)
            if event is None:
                return
            self._fh.write(json.dumps(event, separators=(",", ":")) + "\n")
            self._fh.flush()
        except Exception:  # noqa: BLE001 (logging never raises)
            self.handleError(record)

    def close(self) -> None:
        try:
            if not self._fh.closed:
                self._fh.close()
        finally:
            super().close()

    @property
    def writes_to_stream(self) -> bool:
        return False

    @property
    def writes_to_file(self) -> bool:
        # (True would make Snakemake name the file as "the complete log")
        return False

    @property
    def has_filter(self) -> bool:
        return True  # every record reaches emit, which keeps the job events

    @property
    def has_formatter(self) -> bool:
        return True  # nothing is formatted

    @property
    def needs_rulegraph(self) -> bool:
        return False


def register() -> None:
    """Make Snakemake's logger registry know this module as the plugin
    ``mlfsbench`` (it finds plugins by the name of an installed top-level
    package; this module is not one)."""
    from snakemake_interface_logger_plugins.registry import LoggerPluginRegistry

    LoggerPluginRegistry().register_plugin(logger_plugin_module_prefix + NAME,
                                           sys.modules[__name__])


def logger_args(path: str | os.PathLike) -> list[str]:
    """Snakemake's options that write the job events to ``path``."""
    return ["--logger", NAME, "--logger-mlfsbench-path", os.fspath(path)]


class EventTail:
    """Reads the events appended to a file since the last :meth:`read`.

    A line Snakemake is still writing (no newline yet) waits for the next
    read; a file not written yet reads as no events; a line that is not JSON
    is skipped (a file someone edited), as Snakemake's text log keeps the
    record.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)
        self._offset = 0
        self._partial = b""

    def skip(self) -> None:
        """Start after what the file holds now (an earlier command's events)."""
        try:
            self._offset = os.path.getsize(self.path)
        except OSError:
            self._offset = 0
        self._partial = b""

    def read(self) -> list[dict[str, Any]]:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self._offset)
                chunk = fh.read()
        except OSError:
            return []
        self._offset += len(chunk)
        data = self._partial + chunk
        *lines, self._partial = data.split(b"\n")
        events = []
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and "event" in event:
                events.append(event)
        return events
