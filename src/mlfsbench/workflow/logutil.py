"""Logging of workflow jobs into their rule's log file."""

from __future__ import annotations

import contextlib
import logging
import os
import warnings
from collections.abc import Iterator


@contextlib.contextmanager
def log_to(path: str | os.PathLike | None) -> Iterator[logging.Logger]:
    """Send ``logging`` records and warnings to ``path`` while the block runs.

    An exception escaping the block is logged with its traceback (so the
    rule's log explains the failure) and re-raised.
    """
    root = logging.getLogger()
    handler: logging.Handler
    if path:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        handler = logging.FileHandler(path, mode="w", encoding="utf-8")
    else:
        handler = logging.StreamHandler()
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    )
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    logging.captureWarnings(True)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("default")
            yield logging.getLogger("mlfsbench")
    except BaseException:
        logging.getLogger("mlfsbench").exception("job failed")
        raise
    finally:
        logging.captureWarnings(False)
        root.removeHandler(handler)
        root.setLevel(old_level)
        handler.close()
