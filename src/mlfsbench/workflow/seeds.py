"""The seed of every stochastic component, derived from what it is run on.

One experiment seed would give every fold the same random draws (Group-JMI-
Rand would draw the same label groups in all 30 hold-outs). Instead each
selector, transformation and classifier gets a seed derived from the
experiment seed, the dataset, the split protocol, the fold and the method's
identifier: different folds draw independently, and the same config gives
bitwise the same results on every run and machine.

>>> derive_seed(0, "d", "s", 0, "m") == derive_seed(0, "d", "s", 0, "m")
True
>>> derive_seed(0, "d", "s", 0, "m") != derive_seed(0, "d", "s", 1, "m")
True
"""

from __future__ import annotations

import hashlib

import numpy as np


def _words(text: str) -> list[int]:
    """A string as 32-bit words of its SHA-256 (stable across runs and hosts,
    unlike Python's ``hash``)."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 32, 4)]


def derive_seed(seed: int, dataset: str, split: str, fold: int, method: str) -> int:
    """The seed (0 <= s < 2**31) of one method on one fold of one dataset.

    ``split`` is the split protocol's identifier (not an experiment's name for
    it), ``method`` the configured method's identifier, so that two
    experiments asking for the same thing compute the same thing.
    """
    key = "\x1f".join([dataset, split, str(int(fold)), method])
    sequence = np.random.SeedSequence([int(seed), *_words(key)])
    return int(sequence.generate_state(1, dtype=np.uint32)[0] >> 1)
