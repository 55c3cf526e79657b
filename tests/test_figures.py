"""The report's figures: one test per defect of issue #27 (each fails on the
figures as they were drawn before)."""

from __future__ import annotations

import matplotlib.image as mpimg
import numpy as np
import pandas as pd

from mlfsbench.report.aggregate import plot_dataset
from mlfsbench.report.compare import cd_title, write_comparison
from mlfsbench.report.headline import headline_plot
from mlfsbench.report.names import metric_label
from mlfsbench.report.selections import stability_plot
from mlfsbench.workflow.ids import method_labels

SELECTORS = ("mim", "pmu", "gm2")


def summary_frame(datasets=("a", "b", "c", "d", "e"), classifiers=("mlknn",),
                  metrics=("hamming_loss",)) -> pd.DataFrame:
    rows = []
    for i, d in enumerate(datasets):
        for metric in metrics:
            for clf in classifiers:
                for j, sel in enumerate(SELECTORS):
                    for k in ("1", "2", "3"):
                        rows.append((d, "cv", sel, clf, k, metric,
                                     0.1 + 0.01 * (i + j + int(k)), 0.02, 3))
                    rows.append((d, "cv", sel, clf, "all", metric, 0.15 + 0.01 * i,
                                 0.01, 3))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean", "std",
                                       "folds"])


def dashed(ax):
    return [line for line in ax.get_lines() if line.get_linestyle() == "--"]


def test_headline_hides_its_empty_axes(tmp_path):
    # five datasets on a 2 x 4 grid: three panels have no data
    fig = headline_plot(summary_frame(), "hamming_loss", tmp_path / "h.png")
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(fig.axes) == 8 and len(shown) == 5
    assert all(ax.get_lines() for ax in shown)


def test_all_features_is_one_neutral_line_labelled_once(tmp_path):
    fig = headline_plot(summary_frame(), "hamming_loss", tmp_path / "h.png")
    for ax in fig.axes[:5]:
        (line,) = dashed(ax)  # one line, not one per selector
        assert line.get_color() == "black"
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts.count("all features") == 1 and len(texts) == len(SELECTORS) + 1
    fig = plot_dataset(summary_frame(metrics=("hamming_loss", "one_error")), "a",
                       tmp_path / "a.png", tmp_path / "a.pdf")
    for ax in fig.axes[:2]:
        (line,) = dashed(ax)
        assert line.get_color() == "black"


def test_one_baseline_per_classifier_in_greys(tmp_path):
    fig = headline_plot(summary_frame(classifiers=("c1", "c2")), "hamming_loss",
                        tmp_path / "h.png", labels={"c2": "BR-LR"})
    lines = dashed(fig.axes[0])
    assert [line.get_label() for line in lines] == ["all features / c1",
                                                    "all features / BR-LR"]
    assert {line.get_color() for line in lines} <= {"black", "dimgrey"}


def test_figure_names_equal_table_ids():
    entries = [{"id": "mi-forward", "name": "knnmi-forward"},
               {"id": "gmrmr-2", "name": "granular-mrmr"},
               {"id": "gmrmr-3", "name": "granular-mrmr"},
               {"name": "pmu", "label": "PMU"}, {"name": "mdmr"}]
    assert list(method_labels(entries).values()) == ["mi-forward", "gmrmr-2",
                                                     "gmrmr-3", "PMU", "mdmr"]


def test_per_dataset_parameters_are_shown(tmp_path):
    params = {"gm2": {"a": {"granules": 9}, "b": {"granules": 5}}}
    fig = headline_plot(summary_frame(), "hamming_loss", tmp_path / "h.png",
                        labels={"gm2": "gmrmr-2"}, dataset_params=params)
    # in the panel's title, under the dataset's name: never over the curves
    titles = [ax.get_title() for ax in fig.axes[:3]]
    assert titles == ["a\ngmrmr-2: granules=9", "b\ngmrmr-2: granules=5", "c"]
    assert not any(ax.texts for ax in fig.axes[:3])
    fig = plot_dataset(summary_frame(), "b", tmp_path / "b.png", tmp_path / "b.pdf",
                       {"gm2": "gmrmr-2"}, dataset_params=params)
    names = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "gmrmr-2 [granules=5] / mlknn (cv)" in names


def test_metric_labels_carry_their_direction(tmp_path):
    assert metric_label("hamming_loss") == "Hamming loss (lower is better)"
    assert metric_label("average_precision") == "average precision (higher is better)"
    fig = headline_plot(summary_frame(), "hamming_loss", tmp_path / "h.png")
    assert fig.axes[0].get_ylabel() == "Hamming loss (lower is better)"
    fig = plot_dataset(summary_frame(metrics=("average_precision",)), "a",
                       tmp_path / "a.png", tmp_path / "a.pdf")
    assert fig.axes[0].get_title() == "average precision (higher is better)"


def test_cd_title_names_n_and_k(tmp_path):
    title = cd_title("hamming_loss", {"n_datasets": 5, "n_features": "mean"}, None,
                     0.5)
    assert "N = 5 datasets" in title and "mean over the K" in title
    assert "Nemenyi" in title and "lower is better" in title
    path = tmp_path / "s.tsv"
    summary_frame().to_csv(path, sep="\t", index=False)
    write_comparison(path, "hamming_loss", tmp_path / "s.json", tmp_path / "cd.png",
                     n_features=2, control="mim")
    height, width = mpimg.imread(tmp_path / "cd.png").shape[:2]
    assert width >= 600 and height >= 150  # readable shown at its own size


def test_stability_figure_wraps_and_has_one_legend(tmp_path):
    rows = [(d, "cv", s, k, 0.5 + 0.01 * k, 0.4, 0.6, 5)
            for d in "abcdefgh" for s in SELECTORS for k in (1, 2, 3)]
    table = pd.DataFrame(rows, columns=["dataset", "split", "selector", "n_features",
                                        "stability", "ci_low", "ci_high", "folds"])
    fig = stability_plot(table, tmp_path / "st.png")
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in fig.axes)
    assert len(fig.legends[0].get_texts()) == len(SELECTORS)
    height, width = mpimg.imread(tmp_path / "st.png").shape[:2]
    assert width <= 4 * 4 * 100 and height > 400  # two rows of four, not a strip


def test_figures_are_compressed_and_reproducible(tmp_path):
    for name in ("one.png", "two.png"):
        headline_plot(summary_frame(), "hamming_loss", tmp_path / name)
    one, two = ((tmp_path / n).read_bytes() for n in ("one.png", "two.png"))
    assert one == two
    assert len(one) < 80_000
    assert np.asarray(mpimg.imread(tmp_path / "one.png")).ndim == 3


def test_no_method_curve_is_drawn_in_the_baselines_grey(tmp_path):
    """Ten selectors on one dataset: matplotlib's cycle would draw the 8th in
    C7, the grey of the all-features lines."""
    from matplotlib.colors import to_hex

    frame = summary_frame(datasets=("a",))
    frames = [frame.assign(selector=frame["selector"] + str(n)) for n in range(4)]
    fig = plot_dataset(pd.concat(frames), "a", tmp_path / "a.png", tmp_path / "a.pdf")
    curves = [line for line in fig.axes[0].get_lines()
              if line.get_marker() not in (None, "None", "")]  # curves: marked
    assert len(curves) == 12
    colours = [to_hex(line.get_color()) for line in curves]
    assert to_hex("C7") not in colours and to_hex("grey") not in colours
    assert len(set(colours)) == 12


def test_report_figure_shows_the_compared_metrics_and_the_pdf_every_one(tmp_path):
    """The PNG (the report's figure) draws the study's compared metrics in
    their order; the PDF every metric. Four of ten panels make a smaller PNG."""
    every = ("accuracy", "average_precision", "coverage", "example_f1",
             "hamming_loss", "macro_f1", "micro_f1", "one_error", "ranking_loss",
             "subset_accuracy")
    frame = summary_frame(datasets=("a",), metrics=every)
    fig = plot_dataset(frame, "a", tmp_path / "all.png", tmp_path / "all.pdf")
    assert len([ax for ax in fig.axes if ax.get_visible()]) == 10
    compared = ["ranking_loss", "hamming_loss"]
    fig = plot_dataset(frame, "a", tmp_path / "two.png", tmp_path / "two.pdf",
                       metrics=compared)
    shown = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    assert shown == [metric_label(m) for m in compared]
    assert "every metric in the PDF" in fig._suptitle.get_text()
    size = {n: (tmp_path / f"{n}.png").stat().st_size for n in ("two", "all")}
    assert size["two"] < 0.5 * size["all"]
    # the PDF still has every panel: as large as the all-metrics one
    assert (tmp_path / "two.pdf").read_bytes() == (tmp_path / "all.pdf").read_bytes()
    # metrics the summary lacks are skipped; none left means every metric
    fig = plot_dataset(frame, "a", tmp_path / "x.png", tmp_path / "x.pdf",
                       metrics=["rrmse"])
    assert len([ax for ax in fig.axes if ax.get_visible()]) == 10


def test_a_two_panel_figure_keeps_its_legend_inside(tmp_path):
    """Seven long method names under two panels: the legend fits the width
    (a 4-column legend was cut at both edges of the 640-pixel figure)."""
    frame = summary_frame(datasets=("a",), metrics=("hamming_loss", "ranking_loss"))
    frames = [frame.assign(selector=frame["selector"] + f"-a-long-method-name-{n}")
              for n in range(3)]
    fig = plot_dataset(pd.concat(frames), "a", tmp_path / "a.png", tmp_path / "a.pdf",
                       metrics=["hamming_loss", "ranking_loss"])
    fig.canvas.draw()
    box = fig.legends[0].get_window_extent()
    width = fig.get_figwidth() * fig.dpi
    assert box.x0 >= 0 and box.x1 <= width


# ------------------------------------------- issue 35: read without colour
def pruning_frame(n_sets=(5, 10, 20), datasets=("emotions", "yeast"), folds=3,
                  std=0.02) -> pd.DataFrame:
    """Doquire's pruning study in small: one selector per pruning size."""
    rows = []
    for d in datasets:
        for p in n_sets:
            for k in ("1", "2", "3"):
                rows.append((d, "cv", f"p{p}", "mlknn", k, "accuracy",
                             0.4 + 0.01 * p + 0.001 * int(k), std, folds))
            rows.append((d, "cv", f"p{p}", "mlknn", "all", "accuracy", 0.45, std,
                         folds))
    return pd.DataFrame(rows, columns=["dataset", "split", "selector", "classifier",
                                       "n_features", "metric", "mean", "std",
                                       "folds"])


def curve_look(ax):
    """Each marked curve's (colour, marker, line style) by its label."""
    from matplotlib.colors import to_hex

    return {line.get_label(): (to_hex(line.get_color()), line.get_marker(),
                               line.get_linestyle())
            for line in ax.get_lines() if line.get_marker() not in (None, "None", "")}


def test_every_method_has_its_own_colour_marker_and_line_style():
    from mlfsbench.report.render import BASELINE_STYLE, method_styles

    methods = [f"m{i}" for i in range(20)]
    style = method_styles(methods)
    triples = {m: (s["color"], s["marker"], s["linestyle"]) for m, s in style.items()}
    assert len(set(triples.values())) == 20
    # grey-scale: marker and line style alone still tell the 20 apart
    assert len({(marker, ls) for _, marker, ls in triples.values()}) == 20
    assert BASELINE_STYLE["linestyle"] not in {ls for _, _, ls in triples.values()}
    # the same method, the same look, whatever the order the methods come in
    again = method_styles(list(reversed(methods)) + methods)
    assert all(again[m] == style[m] for m in methods)
    assert style["m0"] == {"color": "C0", "marker": "o", "linestyle": "-"}
    assert style["m1"] == {"color": "C1", "marker": "s", "linestyle": "-."}


def test_a_method_looks_the_same_in_every_figure_of_a_study(tmp_path):
    frame = pruning_frame()
    head = headline_plot(frame, "accuracy", tmp_path / "h.png")
    one = plot_dataset(frame, "yeast", tmp_path / "y.png", tmp_path / "y.pdf")
    looks = curve_look(head.axes[0])
    assert looks == curve_look(head.axes[1])
    per_dataset = {name.split(" / ")[0]: look
                   for name, look in curve_look(one.axes[0]).items()}
    assert per_dataset == looks
    assert len(set(looks.values())) == 3


def test_legends_are_in_natural_order(tmp_path):
    from mlfsbench.report.render import natural_sorted

    assert natural_sorted(["p10", "p20", "p5"]) == ["p5", "p10", "p20"]
    assert natural_sorted(["mi-forward", "p10", "p5"]) == ["mi-forward", "p5", "p10"]
    frame = pruning_frame()
    fig = headline_plot(frame, "accuracy", tmp_path / "h.png")
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts == ["p5", "p10", "p20", "all features"]
    fig = plot_dataset(frame, "emotions", tmp_path / "e.png", tmp_path / "e.pdf")
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts == ["p5 / mlknn (cv)", "p10 / mlknn (cv)", "p20 / mlknn (cv)",
                     "all features"]
    rows = [("emotions", "cv", f"p{p}", k, 0.5, 0.4, 0.6, 5)
            for p in (5, 10, 20) for k in (1, 2)]
    table = pd.DataFrame(rows, columns=["dataset", "split", "selector", "n_features",
                                        "stability", "ci_low", "ci_high", "folds"])
    fig = stability_plot(table, tmp_path / "st.png")
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts == ["p5 (cv)", "p10 (cv)", "p20 (cv)"]


def test_no_band_and_no_band_words_with_one_fold(tmp_path):
    one = pruning_frame(folds=1, std=float("nan"))
    fig = headline_plot(one, "accuracy", tmp_path / "h.png")
    assert all(not ax.collections for ax in fig.axes)
    assert "s.d." not in fig._suptitle.get_text()
    assert "band" not in fig._suptitle.get_text()
    fig = plot_dataset(one, "yeast", tmp_path / "y.png", tmp_path / "y.pdf")
    assert all(not ax.collections for ax in fig.axes)
    assert "band" not in fig._suptitle.get_text()
    # three folds: a band per curve, and the title says what it is
    fig = headline_plot(pruning_frame(), "accuracy", tmp_path / "h3.png")
    assert len(fig.axes[0].collections) == 3
    assert "band ± 1 s.d. over 3 folds" in fig._suptitle.get_text()
    fig = plot_dataset(pruning_frame(), "yeast", tmp_path / "y.png",
                       tmp_path / "y.pdf")
    assert len(fig.axes[0].collections) == 3
    assert "band ± 1 s.d. over 3 folds" in fig._suptitle.get_text()


def test_a_far_baseline_keeps_the_panel_on_the_selectors(tmp_path):
    """Lee 2016's corel5k: the selectors' Hamming loss about 0.01, all
    features 0.25 (made up here): the panel stays on the curves and says
    where the baseline is; the parameter note sits in the title."""
    frame = pruning_frame(datasets=("corel5k", "enron"))
    far = (frame["dataset"] == "corel5k") & (frame["n_features"] == "all")
    frame.loc[far, "mean"] = 5.0
    fig = headline_plot(frame, "accuracy", tmp_path / "h.png",
                        dataset_params={"p5": {"corel5k": {"n_labels": 50}}})
    corel, enron = fig.axes[:2]
    low, high = corel.get_ylim()
    assert high < 1.0  # the curves (0.45-0.61), not the baseline at 5
    arrows = [t.get_text() for t in corel.texts]
    assert arrows == ["all features: 5 (off scale)"]
    assert not dashed(corel)[0].get_xydata().size  # its legend entry only
    assert corel.get_title() == "corel5k\np5: n_labels=50"
    # in range: drawn as its line, no arrow
    assert not enron.texts and dashed(enron)[0].get_ydata()[0] == 0.45
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts.count("all features") == 1
