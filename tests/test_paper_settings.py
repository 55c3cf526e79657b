"""The experiment files say what the papers say (settings read from the text)."""

from __future__ import annotations

from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def experiments(name: str) -> dict:
    return yaml.safe_load((REPO / "config" / "papers" / f"{name}.yaml").read_text(
        encoding="utf-8"))["experiments"]


def selector(experiment: dict, sid: str) -> dict:
    return next(s for s in experiment["selectors"] if s["id"] == sid)


def granules(experiment: dict, sid: str, dataset: str) -> int:
    entry = selector(experiment, sid)
    params = {**entry.get("params", {}), **entry.get("dataset_params", {}).get(
        dataset, {})}
    return params["granules"]


def test_li2017_header_names_the_authors():
    head = (REPO / "config/papers/li2017.yaml").read_text(encoding="utf-8")
    assert head.startswith("# Li, Miao & Pedrycz (2017)")
    assert "Pattern Recognition" in head.splitlines()[1]


def test_li2017_granule_settings_and_feature_range_are_the_papers():
    # Section 5.3 (Figs. 3-6)
    study = experiments("li2017")["li2017"]
    paper = {"enron": [1, 9, 27, 53], "medical": [1, 5, 9, 45],
             "emotions": [1, 2, 3, 6], "genbase": [1, 3, 9, 27]}
    for dataset, settings in paper.items():
        ours = [granules(study, f"gmrmr-{i}", dataset) for i in range(1, 5)]
        assert ours == settings, dataset
    # the figures run to 150 (enron to 300): the greedy search must reach it
    assert 300 in study["n_features"] and "10..150:10" in study["n_features"]
    assert selector(study, "gmrmr-1")["params"]["n_features_to_select"] >= 300
    # Section 5.4: 9, 5 and 2 granules against MUMI, MDMR, FIMF; no genbase
    compare = experiments("li2017")["li2017-compare"]
    assert sorted(compare["datasets"]) == ["emotions", "enron", "medical"]
    assert [granules(compare, "gmrmr", d) for d in ("enron", "medical", "emotions")
            ] == [9, 5, 2]
    assert {s["name"] for s in compare["selectors"]} == {
        "granular-mrmr", "pmu", "mdmr", "fimf"}


def test_fimf_states_its_promising_labels_in_every_experiment():
    for name in ("lee2016", "li2017", "sechidis2019"):
        for exp in experiments(name).values():
            for entry in exp["selectors"]:
                if entry["name"] == "fimf":
                    assert entry["params"]["promising_labels"] == 10, name


def test_lee2016_ranks_the_printed_three_decimals():
    assert experiments("lee2016")["lee2016"]["stats"]["round"] == 3


def test_sechidis2019_runs_the_text_and_the_released_criterion():
    exp = experiments("sechidis2019")["sechidis2019"]
    rand = [s for s in exp["selectors"] if s["name"] == "group-jmi-rand"]
    assert sorted(s.get("params", {}).get("criterion", "paper") for s in rand) == [
        "paper", "released-code"]


def test_doquire2013_pruning_sweeps_p_5_to_15_beside_the_automatic_p():
    # Sec. 5.3, Figs. 4-5: yeast and emotions, every p in 5..15 against the
    # automatic p; the automatic entry is doquire2013's own (shared jobs)
    papers = experiments("doquire2013")
    sweep, study = papers["doquire2013-pruning"], papers["doquire2013"]
    assert sorted(sweep["datasets"]) == ["emotions", "yeast"]
    assert sweep["splits"] == study["splits"]
    assert sweep["classifiers"] == study["classifiers"]
    assert selector(sweep, "mi-forward") == selector(study, "mi-forward")
    fixed = [s for s in sweep["selectors"] if s["id"] != "mi-forward"]
    assert [s["params"]["p"] for s in fixed] == list(range(5, 16))
    auto = selector(study, "mi-forward")["params"]
    for entry in fixed:
        assert entry["name"] == "knnmi-forward" and entry["id"] == \
            f"p{entry['params']['p']}"
        assert {k: v for k, v in entry["params"].items() if k != "p"} == \
            {k: v for k, v in auto.items() if k != "p"}


def test_lee2016_label_sweep_and_lowest_entropy_strategy():
    # Sec. 4.2 (|Y| sweep at n = 10, 30, 50) and Sec. 4.4 (lowest entropy)
    papers = experiments("lee2016")
    sweep, study = papers["lee2016-labels"], papers["lee2016"]
    assert sweep["splits"] == study["splits"]
    assert sweep["classifiers"] == study["classifiers"]
    assert sweep["n_features"] == [10, 30, 50]
    assert set(sweep["datasets"]) <= set(study["datasets"])
    by_id = {s["id"]: s["params"] for s in sweep["selectors"]}
    assert {i: p["n_labels"] for i, p in by_id.items()
            if "label_order" not in p} == {"y0": 0, "y10": 0.1, "y20": 0.2,
                                            "y50": 0.5, "y100": 1.0}
    assert isinstance(by_id["y0"]["n_labels"], int)  # a count, not a fraction
    assert isinstance(by_id["y100"]["n_labels"], float)  # every label
    low = {i: p for i, p in by_id.items() if p.get("label_order") == "lowest"}
    assert {i: p["n_labels"] for i, p in low.items()} == {
        "low-y10": 0.1, "low-y20": 0.2, "low-y50": 0.5}
    # 20 % of bibtex's 159 labels is Table 2's 32
    from mlfsbench.estimators.transformations.entropy_labels import resolve_n_labels

    assert resolve_n_labels(by_id["y20"]["n_labels"], 159) == \
        selector(study, "lee2016")["dataset_params"]["bibtex"]["n_labels"] == 32
