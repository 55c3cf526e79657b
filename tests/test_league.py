"""The league (issue 40): every method under every study's protocol.

The config's expansion into one experiment per protocol (the study's own
entries kept, so their jobs are the study's; the other selectors fitted to
the protocol, or left out with the reason), the jobs it adds to the
studies', ``mlfsbench league``'s config and errors, the numbers of the page
(Kendall's tau by hand, ranks, orderings, each method against the best) and
the page in a browser. The end-to-end run is tests/test_league_workflow.py.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
import yaml

from mlfsbench import cli
from mlfsbench.estimators import registry
from mlfsbench.workflow.ids import cache_id, method_id
from mlfsbench.workflow.league import (
    fit_to_protocol,
    league_config,
    new_jobs,
    protocol_problem,
)
from mlfsbench.workflow.plan import read_config

from .conftest import REPO_ROOT, plan_of

TINY = REPO_ROOT / "config" / "league.tiny.yaml"


@pytest.fixture(autouse=True)
def _repo_root(monkeypatch):
    monkeypatch.chdir(REPO_ROOT)


def tiny() -> dict:
    return yaml.safe_load(TINY.read_text())


# ------------------------------------------------------------- the config
def test_the_tiny_league_has_one_experiment_per_protocol():
    plan = plan_of(tiny())
    assert list(plan.league_experiments) == ["league-tiny-cv", "league-tiny-ho"]
    assert list(plan.main_experiments) == ["tiny-cv", "tiny-ho"]  # not the league's
    cv = plan.experiments["league-tiny-cv"]
    # the study's own entry first, named by its registry name across protocols
    first = cv["selectors"][0]
    assert first["name"] == "mim-br" and first["label"] == "mim-br"
    assert first["id"] == "mim-br-68632db6"  # its id (and jobs) as in the study
    # then the others of `only`, mrmr skipped with the config's reason
    assert [e["id"] for e in cv["selectors"][1:]] == ["cmim", "fimf", "ig-br", "rfs"]
    assert cv["league"] == {
        "name": "league", "protocol": "tiny-cv", "study": ["mim-br-68632db6"],
        "skipped": {"mrmr": "left out of the test league (a reason the page states)"}}
    assert "claims" not in cv and cv["stats"]["metrics"] == ["hamming_loss",
                                                             "ranking_loss"]
    by_id = {e["id"]: e for e in cv["selectors"]}
    # a greedy search as deep as the grid (1, 5, 10, all); codes read as the
    # study's selectors read them; the raw features for a continuous method
    assert by_id["cmim"]["params"] == {"n_features_to_select": 10}
    assert by_id["cmim"]["discretize"] == {"strategy": "equal-width", "bins": 5}
    assert by_id["rfs"]["discretize"]["strategy"] == "none"
    ho = plan.experiments["league-tiny-ho"]
    by_id = {e["id"]: e for e in ho["selectors"]}
    # the protocol's label transformation for the selectors that take one
    assert by_id["cmim"]["params"] == {"transformation": "lp",
                                       "n_features_to_select": 10}
    assert "transformation" not in by_id["mim-br"].get("params", {})
    written = tiny()["experiments"]["tiny-ho"]["selectors"][0]
    assert ho["league"]["study"] == [method_id(written), "fimf"]


def test_the_league_shares_the_studies_jobs():
    """The study's methods under their protocol are the study's jobs: planned
    with the studies (the config without its league), only the selectors the
    league added are new jobs."""
    config = tiny()
    studies = {k: v for k, v in config.items() if k != "league"}
    counts = new_jobs(plan_of(config), plan_of(studies))
    # tiny-cv: 5 selectors x 2 datasets, mim-br's 2 shared; the classify
    # jobs add the all-features point of each dataset (shared: the study has
    # it too); tiny-ho: ig-br's and fimf's 4 shared, and its 2 all-features
    assert counts["league-tiny-cv"] == {
        "select": {"jobs": 10, "shared": 2, "new": 8, "added": 8},
        "classify": {"jobs": 12, "shared": 4, "new": 8, "added": 8}}
    assert counts["league-tiny-ho"] == {
        "select": {"jobs": 10, "shared": 4, "new": 6, "added": 6},
        "classify": {"jobs": 12, "shared": 6, "new": 6, "added": 6}}


def test_the_five_protocols_share_the_reproductions_jobs():
    """config/league.yaml planned with config/config.yaml: every job of a
    study's own method is the reproduction's; spolaor2013 compares each
    method's own subset, which only its four thresholded selectors have."""
    league = plan_of(yaml.safe_load(Path("config/league.yaml").read_text()))
    base = plan_of(yaml.safe_load(Path("config/config.yaml").read_text()))
    counts = new_jobs(league, base)
    assert counts["league-spolaor2013"]["select"] == {
        "jobs": 40, "shared": 40, "new": 0, "added": 0}
    spec = league.league()
    assert spec["order"] == ["doquire2013", "li2017", "spolaor2013",
                             "sechidis2019", "lee2016"]
    skipped = spec["protocols"]["spolaor2013"]["skipped"]
    assert len(skipped) == len(registry.names("selector")) - 4
    assert skipped["cmim"].startswith("the protocol compares the features each "
                                      "method selects itself")
    for protocol in spec["order"]:
        info = spec["protocols"][protocol]
        assert info["skipped"]["rrelieff"].startswith("multi-target regression")
        x = league.experiments[f"league-{protocol}"]
        own = {(d, cache_id(e, d, "selector")) for e in x["selectors"]
               for d in x["datasets"] if method_id(e) in info["study"]}
        # the study's selections (sechidis2019's two group-jmi-rand entries
        # are one under its favoured reading), all shared
        assert counts[f"league-{protocol}"]["select"]["shared"] == len(own), protocol
    # doquire2013 selects after PPT, its chi2-lp is the paper's
    doquire = spec["protocols"]["doquire2013"]["entries"]
    assert doquire["cmim"]["params"]["transformation"] == "ppt"
    assert doquire["cmim"]["discretize"] == "equal-width-5"
    assert doquire["chi2-lp"]["params"] == {"chi2": "statistic",
                                            "discretization": "chi2"}


def test_fit_to_protocol_keeps_what_an_entry_gives():
    doquire = {"datasets": ["a", "b"], "n_features": ["1..50", "all"],
               "dataset_n_features": {"b": ["1..102", "all"]},
               "classifiers": [{"name": "mlknn"}],
               "selectors": [{"name": "ig-br", "discretize": {"strategy": "none"}}]}
    fitted = fit_to_protocol({"id": "cmim", "name": "cmim",
                              "params": {"transformation": "br"}},
                             doquire, {"transformation": "ppt"})
    # its own transformation wins; the depth differs per dataset
    assert fitted["params"] == {"transformation": "br"}
    assert fitted["dataset_params"] == {"a": {"n_features_to_select": 50},
                                        "b": {"n_features_to_select": 102}}
    # the raw features' protocol: codes of 5 equal-width bins (or the league's)
    assert fitted["discretize"] == {"strategy": "equal-width", "bins": 5}
    other = fit_to_protocol({"id": "mim-br", "name": "mim-br"}, doquire,
                            discretize={"strategy": "equal-frequency", "bins": 3})
    assert other["discretize"] == {"strategy": "equal-frequency", "bins": 3}
    assert protocol_problem(other, doquire) is None
    raw = {"id": "mim-br", "name": "mim-br", "discretize": {"strategy": "none"}}
    assert protocol_problem(raw, doquire) == (
        "it reads discretized codes and the protocol gives it the raw features "
        "(discretize: none)")


@pytest.mark.parametrize(("league", "message"), [
    ({"protocols": ["tiny-cv", "nope"]},
     r"test: league protocol 'nope': no study 'nope' to extend"),
    ({"protocols": ["tiny-cv"], "skip": {"mim-bt": "x"}},
     r"test: league.skip: .*'mim-bt'.*did you mean 'mim-br'"),
    ({"protocols": ["tiny-cv"], "only": ["cmin"]},
     r"test: league.only: .*'cmin'"),
    ({"protocols": "tiny-cv"}, r"test: league.protocols: 'tiny-cv' is not of type"),
    ({"protocols": ["tiny-cv"], "datasets": ["yeast"], "colour": 1},
     r"test: league: Additional properties are not allowed \('colour'"),
])
def test_league_errors_name_the_config_and_the_problem(league, message):
    config = tiny()
    config["league"] = {"study_files": ["config/league.tiny.yaml"], **league}
    with pytest.raises(ValueError, match=message):
        read_config(config, "test")


def test_a_league_experiment_named_like_the_configs():
    config = tiny()
    config["experiments"]["league-tiny-cv"] = config["experiments"]["tiny-cv"]
    with pytest.raises(ValueError, match="experiment 'league-tiny-cv' is defined "
                                         "twice"):
        read_config(config, "test")


def test_league_config_cuts_and_joins():
    config = league_config("config/league.tiny.yaml", ["tiny-ho"], ["yeast"],
                           [{"name": "mfs"}])
    league = config["league"]
    assert league["protocols"] == ["tiny-ho"] and league["datasets"] == ["yeast"]
    assert league["name"] == "league+mfs"
    assert league["challengers"] == [{"name": "mfs"}]
    plan = plan_of(config)
    x = plan.experiments["league+mfs-tiny-ho"]
    assert x["datasets"] == ["yeast"]
    assert {k: v for k, v in x["selectors"][-1].items() if k != "discretize"} == {
        "name": "mfs", "id": "mfs", "challenger": True, "params": {}}
    assert x["selectors"][-1]["discretize"]["strategy"] == "none"
    assert plan.league()["protocols"]["tiny-ho"]["challengers"] == ["mfs"]
    assert plan.challenged == []  # no challenge pages: the league page shows it
    with pytest.raises(ValueError, match=r"--protocols: tiny-xx not among the "
                                         r"league's protocols \(tiny-cv, tiny-ho\)"):
        league_config("config/league.tiny.yaml", ["tiny-xx"])
    with pytest.raises(ValueError, match="dataset 'yaest' .*did you mean 'yeast'"):
        league_config("config/league.tiny.yaml", None, ["yaest"])
    with pytest.raises(ValueError, match="config/tiny.yaml: no league"):
        league_config("config/tiny.yaml")


def test_a_protocol_without_the_datasets_is_left_out(tmp_path):
    config = tiny()
    config["experiments"]["tiny-ho"]["datasets"] = ["yeast"]
    studies = tmp_path / "studies.yaml"
    studies.write_text(yaml.safe_dump(config))
    config["league"].update(datasets=["emotions"], study_files=[str(studies)])
    plan = plan_of(config)
    spec = plan.league()
    assert spec["order"] == ["tiny-cv"]
    assert spec["left_out"] == {"tiny-ho": "none of emotions among its datasets "
                                           "(yeast)"}


def test_cli_league_jobs_and_errors(capsys, tmp_path):
    code = cli.main(["league", "--configfile", "config/league.tiny.yaml", "--jobs",
                     "--base", "config/league.tiny.yaml"])
    out = capsys.readouterr().out
    assert code == 0
    # counted against itself every job is shared: none new
    assert [line.split()[-3:] for line in out.splitlines()[2:]] == [
        ["10", "10", "0"], ["12", "12", "0"], ["10", "10", "0"],
        ["12", "12", "0"], ["20", "20", "0"], ["24", "24", "0"]]
    assert cli.main(["league", "--param", "k=1", "-n"]) == 1
    assert "--param sets the challenger's parameters: give --selector" in \
        capsys.readouterr().err
    assert cli.main(["league", "--selector", "mim-bt", "-n"]) == 1
    assert "did you mean 'mim-br'" in capsys.readouterr().err
    mine = tmp_path / "mine.yaml"
    mine.write_text("# my notes\n")
    assert cli.main(["league", "--configfile", "config/league.tiny.yaml",
                     "--selector", "mfs", "--output", str(mine),
                     "--allow-outside", "-n"]) == 1
    assert ("an existing file that 'mlfsbench league' did not write"
            in capsys.readouterr().err)


# ------------------------------------------------------------ the numbers
def test_kendall_tau_by_hand():
    from mlfsbench.report.league_stats import kendall

    # 10 pairs, (a, b) and (d, e) discordant: tau = (8 - 2) / 10
    n, tau, _ = kendall({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5},
                        {"a": 2, "b": 1, "c": 3, "d": 5, "e": 4})
    assert (n, tau) == (5, pytest.approx(0.6))
    # tau-b with a tie in the first ranking: 5 concordant pairs, none
    # discordant, one tied: 5 / sqrt((6 - 1) * 6)
    n, tau, _ = kendall({"a": 1, "b": 2.5, "c": 2.5, "d": 4},
                        {"a": 1, "b": 2, "c": 3, "d": 4, "x": 0})
    assert (n, tau) == (4, pytest.approx(5 / math.sqrt(30)))
    n, tau, p = kendall({"a": 1}, {"a": 2, "b": 1})
    assert n == 1 and math.isnan(tau) and math.isnan(p)


def summary_of(values: dict[str, dict[str, float]], metric="hamming_loss"):
    """A results table (``summary.tsv``'s columns) at K = 5: dataset ->
    method -> mean."""
    rows = [{"dataset": d, "split": "cv", "selector": m, "classifier": "mlknn",
             "n_features": "5", "metric": metric, "mean": v, "std": 0.0,
             "n_folds": 2}
            for d, methods in values.items() for m, v in methods.items()]
    return pd.DataFrame(rows)


# Under P, a is first on d1 and d2, second on d3: ranks a 4/3, b 2, c 8/3.
# Under Q: c 4/3, a 5/3, b 3. So a before b under both, c moves.
P = {"d1": {"a-1": .1, "b": .2, "c": .3}, "d2": {"a-1": .1, "b": .3, "c": .2},
     "d3": {"a-1": .2, "b": .1, "c": .3}}
Q = {"d1": {"a": .2, "b": .3, "c-9": .1}, "d2": {"a": .2, "b": .3, "c-9": .1},
     "d3": {"a": .1, "b": .3, "c-9": .2}}


def spec_of() -> dict:
    def protocol(names, study, challengers=()):
        return {"experiment": "x", "datasets": ["d1", "d2", "d3"],
                "unavailable": {}, "options": {"n_features": 5, "alpha": 0.05},
                "metrics": ["hamming_loss"], "names": names, "study": study,
                "challengers": list(challengers),
                "entries": {i: {"name": n, "params": {}, "discretize": "none"}
                            for i, n in names.items()},
                "skipped": {"rrelieff": "multi-target regression"}}

    return {"name": "league", "order": ["P", "Q"],
            "left_out": {"R": "none of d1 among its datasets (d9)"},
            "protocols": {
                "P": protocol({"a-1": "a", "b": "b", "c": "c"}, ["a-1", "b"]),
                "Q": protocol({"a": "a", "b": "b", "c-9": "c"}, ["c-9"], ["b"])}}


def test_a_league_table_from_invented_ranks():
    from mlfsbench.report.league import league_tables

    out = league_tables(spec_of(), {"P": summary_of(P), "Q": summary_of(Q)})
    ranks = out["ranks"].set_index(["protocol", "method"])
    assert ranks.loc[("P", "a"), "average_rank"] == pytest.approx(4 / 3)
    assert ranks.loc[("P", "c"), "average_rank"] == pytest.approx(8 / 3)
    assert ranks.loc[("Q", "c"), "average_rank"] == pytest.approx(4 / 3)
    assert ranks.loc[("P", "a"), "relative_rank"] == pytest.approx(1 / 6)
    assert ranks.loc[("Q", "b"), ["place", "role"]].tolist() == [3, "challenger"]
    assert ranks.loc[("P", "a"), "method_id"] == "a-1"
    # P: a < b < c, Q: c < a < b: (a, b) concordant, (a, c) and (b, c) not
    kendall = out["kendall"]
    assert kendall[["protocol_a", "protocol_b", "n_methods"]].values.tolist() == [
        ["P", "Q", 3]]
    assert kendall["tau"].iloc[0] == pytest.approx(-1 / 3)
    # the papers' methods: a, b (P's), c (Q's); only a before b holds
    orders = out["orderings"]
    assert orders[["better", "worse", "better_in", "holds"]].values.tolist() == [
        # (b, c) is a draw, one protocol each: b first, in the papers' order
        ["a", "b", 2, True], ["a", "c", 1, False], ["b", "c", 1, False]]
    # each against the best: under Q, c (4/3), whose 3 losses are below
    # each of b's (delta 1); under P, a's .1 .1 .2 against c's .3 .2 .3: of
    # the 9 pairs 8 favour a, one ties (.2, .2): delta 8/9
    versus = out["versus"].set_index(["protocol", "method"])
    assert versus.loc[("Q", "b"), "best"] == "c"
    assert versus.loc[("Q", "b"), "cliffs_delta"] == pytest.approx(1.0)
    assert versus.loc[("P", "c"), "cliffs_delta"] == pytest.approx(8 / 9)
    assert out["common"] == ["hamming_loss"]


def write_pages(tmp_path):
    from mlfsbench.report.league import write_league

    spec = spec_of()
    paths = {}
    for name, values in (("P", P), ("Q", Q)):
        paths[name] = tmp_path / f"{name}.tsv"
        summary_of(values).to_csv(paths[name], sep="\t", index=False)
    out = tmp_path / "results" / "league" / "league.html"
    tables = write_league(spec, paths, out, out.parent / "figures")
    return out, tables


def test_the_page_and_its_tables(tmp_path):
    out, _ = write_pages(tmp_path)
    here = out.parent
    for name in ("ranks.tsv", "kendall.tsv", "versus_best.tsv", "orderings.tsv",
                 "methods.tsv"):
        assert (here / name).stat().st_size > 50, name
    methods = pd.read_csv(here / "methods.tsv", sep="\t", keep_default_na=False)
    skipped = methods[methods["status"] == "skipped"]
    assert skipped[["protocol", "method", "reason"]].values.tolist() == [
        ["P", "rrelieff", "multi-target regression"],
        ["Q", "rrelieff", "multi-target regression"]]
    assert sorted(p.name for p in (here / "figures").iterdir()) == [
        "cd-P-hamming_loss.png", "cd-Q-hamming_loss.png", "ranks-hamming_loss.png"]
    text = out.read_text()
    assert "not run: none of d1 among its datasets (d9)" in text
    assert "<b>1</b> keep their order" in text  # of 3 pairs, a before b


def test_the_league_page_in_a_browser(tmp_path, browser_page):
    out, _ = write_pages(tmp_path)
    page = browser_page
    page.goto(out.as_uri())
    for protocol in ("P", "Q"):
        image = page.locator(f"#protocol-{protocol} img.cd")
        assert image.count() == 1
        image.scroll_into_view_if_needed()
        assert image.evaluate("e => e.complete && e.naturalWidth") > 300
        assert "Critical-difference diagram" in image.get_attribute("alt")
    table = page.locator("table.kendall#kendall-hamming_loss")
    assert table.locator("tbody tr").count() == 2
    assert "-0.33" in table.locator("tbody tr").first.inner_text()
    ranks = page.locator("img.ranks")
    ranks.scroll_into_view_if_needed()
    assert ranks.evaluate("e => e.complete && e.naturalWidth") > 300
    held = page.locator("table.orderings#orderings-hamming_loss tbody tr")
    assert held.count() == 1 and held.first.inner_text().split()[:2] == ["a", "b"]
    page.locator("a[href='#protocol-Q']").first.click()
    assert page.url.endswith("#protocol-Q")
