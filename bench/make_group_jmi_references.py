"""Make ``tests/data/group_jmi_references.npz``: the Group-JMI baseline's outputs.

``tests/test_group_jmi_speed.py`` checks that today's label quantization,
``jmi_forward`` and Group-JMI-Rand give the numbers of Group-JMI-Rand as of
commit 962426a (before the issue #30 speed-up) bit for bit. The tests need
no git history: they compare with that baseline's outputs on their own
inputs, stored once by this script, which loads the baseline from git
(:func:`bench_label_groups.baseline`) and takes the inputs from the test
module (the synthetic ``cal500_like`` data; emotions from the shared
datasets folder, 5-bin equal-width codes).

The stored file changes only with the baseline commit or the tests' inputs;
today's code is not run here (but for the label groups that define the
quantized targets of the ``jmi_forward`` test, which the test pins).

Usage::

    .venv/bin/python bench/make_group_jmi_references.py [--shared PATH]
        [--commit 962426a]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from _common import ROOT, add_shared_argument
from bench_label_groups import BASELINE, baseline

sys.path.insert(0, str(ROOT / "tests"))
import test_group_jmi_speed as cases  # noqa: E402


def references(old, shared: Path) -> dict[str, np.ndarray]:
    """The baseline ``old``'s outputs on the tests' inputs, by name."""
    out: dict[str, np.ndarray] = {}
    for seed in cases.K_MEDOIDS_SEEDS:
        _, Y = cases.cal500_like(seed=seed)
        distinct, counts, _, _ = old.distinct_rows(Y[:, :12 + 20 * seed])
        out[f"k_medoids/{seed}/rows"] = distinct
        out[f"k_medoids/{seed}/counts"] = counts
        D = old.target_distances(distinct, distinct)
        for k in cases.K_MEDOIDS_KS:
            key = f"k_medoids/{seed}/{k}"
            weighted = old.k_medoids(D, k, counts, random_state=seed)
            full = old.k_medoids(D, k, counts, random_state=seed, incremental=False)
            assert np.array_equal(weighted, full), key  # the baseline's own check
            out[f"{key}/weighted"] = weighted
            out[f"{key}/unit"] = old.k_medoids(D, k, random_state=seed)
            out[f"{key}/big"] = old.k_medoids(D, k, counts * 100_000,
                                              random_state=seed)
    for q, pot in cases.LABEL_GROUP_CASES:
        Y, params = cases.label_groups_input(q, pot)
        groups = old.LabelGroups(**params).fit(Y)
        key = f"label_groups/{q}"
        out.update({f"{key}/{name}": value for name, value in
                    cases.pack_medoids(groups.medoids_).items()})
        out[f"{key}/codes"] = groups.transform(Y)
        out[f"{key}/codes_every_third"] = groups.transform(Y[::3])
    X, Y = cases.cal500_like(seed=2)
    T = old.LabelGroups(**cases.JMI_GROUPS).fit_transform(Y)
    out["jmi_forward/groups"] = T
    for name, targets in (("groups", T), ("labels", Y)):
        for normalize in (False, True):
            selected, step_scores, relevance = old.jmi_forward(
                X, targets, 20, normalize=normalize)
            key = f"jmi_forward/{name}/{normalize}"
            out[f"{key}/selected"] = np.asarray(selected)
            out[f"{key}/step_scores"] = np.asarray(step_scores, dtype=float)
            out[f"{key}/relevance"] = relevance
    data = {"cal500_like": (cases.cal500_like(seed=1), 4),
            "emotions": (cases.emotions(shared), 0)}
    for dataset, ((X, Y), seed) in data.items():
        for criterion in cases.CRITERIA:
            sel = old.GroupJMIRand(criterion=criterion, random_state=seed).fit(X, Y)
            key = f"group_jmi_rand/{dataset}/{criterion}"
            out.update({f"{key}/{name}": value for name, value in
                        cases.fit_outputs(sel).items()})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_shared_argument(parser, "emotions")
    parser.add_argument("--commit", default=BASELINE)
    parser.add_argument("--out", type=Path, default=cases.REFERENCES)
    args = parser.parse_args(argv)
    out = references(baseline(args.commit), args.shared)
    np.savez_compressed(args.out, **out)
    print(f"{args.out.name}: {len(out)} arrays from the baseline at "
          f"{args.commit}, {args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
