"""Tests of the BNN report: Yu et al. (2024) Tables 3/5 (paper values and our table) and the BNN figures."""

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.metrics.predictive import pairwise_pushforward_wasserstein2
from geobayes.report.bnn_figures import (
    YU_XLIM,
    YU_YLIM,
    FunctionPanel,
    build_function_sample_figure,
    build_predictive_band_figure,
    build_pushforward_figure,
    function_sample_panels,
    predictive_band_panels,
    pushforward_figure,
    training_intervals,
    wasserstein_across_maps_figure,
)
from geobayes.report.bnn_table import (
    BNN_PAPER_METRICS,
    METHOD_ORDER,
    RESULT_COLUMNS,
    TABLE_COLUMNS,
    aggregate_bnn,
    bnn_table_frame,
    bnn_table_latex,
    format_mean_std,
    load_bnn_paper_values,
    write_bnn_table,
)
from geobayes.report.paper_values import PAPER_VALUE_COLUMNS

PAPER_VALUES = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values"
TABLE3 = PAPER_VALUES / "yu2024_table3.csv"
TABLE5 = PAPER_VALUES / "yu2024_table5.csv"
PAPER_TEXT = "../shared/papers/yu2024-rla-fisher-metric.txt"
SCALE = {"samples": 500, "repetitions": 3}

# ---------------------------------------------------------------- paper values


@pytest.mark.parametrize(("path", "inputs", "table"), [(TABLE3, "raw", "Table 3"), (TABLE5, "standardised", "Table 5")])
def test_paper_tables_have_every_method_and_split(path, inputs, table):
    paper = load_bnn_paper_values(path)
    assert tuple(paper.columns) == PAPER_VALUE_COLUMNS
    assert set(paper["inputs"]) == {inputs}
    assert set(paper["metric"]) == set(BNN_PAPER_METRICS)
    for split in ("complete", "gap"):
        block = paper[paper["dataset"] == split]
        for metric in ("MSE", "NLL"):
            rows = block[block["metric"] == metric]
            assert sorted(rows["method"]) == sorted(METHOD_ORDER)
            assert rows["std"].notna().all()
        for metric in ("T", "seconds"):  # N/A for ELA and NUTS
            rows = block[block["metric"] == metric]
            assert sorted(rows["method"]) == ["rla_b", "rla_blog", "rla_f"]
            assert rows["std"].isna().all()
    assert len(paper) == 2 * (5 * 2 + 3 * 2)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("#") and "Riemannian Laplace Approximation with the Fisher Metric" in lines[0]
    assert f"AISTATS 2024, {table}" in lines[0]
    assert PAPER_TEXT in lines[1] and re.search(r"lines \d+-\d+", lines[1])


def test_paper_values_match_the_notes():
    """Spot checks against ../shared/papers/notes/yu2024-rla-fisher-metric.md, section 2.6."""
    raw = load_bnn_paper_values(TABLE3).set_index(["dataset", "method", "metric"])
    assert raw.loc[("complete", "rla_f", "MSE"), "mean"] == 0.072
    assert raw.loc[("complete", "rla_f", "MSE"), "std"] == 0.0
    assert raw.loc[("complete", "rla_f", "T"), "mean"] == 242.9
    assert raw.loc[("complete", "rla_f", "seconds"), "mean"] == 0.8
    assert raw.loc[("complete", "ela", "NLL"), "mean"] == 3.02
    assert raw.loc[("gap", "rla_b", "MSE"), "mean"] == 1.646 and raw.loc[("gap", "rla_b", "MSE"), "std"] == 2.722
    assert raw.loc[("gap", "rla_blog", "T"), "mean"] == 4793.9
    assert raw.loc[("gap", "nuts", "NLL"), "mean"] == 0.872
    std = load_bnn_paper_values(TABLE5).set_index(["dataset", "method", "metric"])
    assert std.loc[("gap", "nuts", "NLL"), "mean"] == 0.684 and std.loc[("gap", "nuts", "NLL"), "std"] == 0.017
    assert std.loc[("complete", "rla_f", "T"), "mean"] == 77.7
    assert std.loc[("complete", "rla_b", "NLL"), "mean"] == 0.11
    assert std.loc[("gap", "rla_f", "seconds"), "mean"] == 0.3
    assert std.loc[("complete", "ela", "MSE"), "mean"] == 0.718


HEADER = "# source: test\n"
COLUMNS = "inputs,dataset,method,metric,mean,std\n"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("inputs,dataset,method,metric,mean\nraw,gap,ela,MSE,0.2\n", "expected columns"),
        (COLUMNS + "raw,middle,ela,MSE,0.2,0.1\n", "'dataset' must be one of"),
        (COLUMNS + "raw,gap,ela,W,0.2,0.1\n", "'metric' must be one of"),
        (COLUMNS + "raw,gap,ela,MSE,0.2,\n", "MSE and NLL need a 'std'"),
        (COLUMNS + "raw,gap,rla_f,T,12.0,1.0\n", "without std"),
        (COLUMNS + "raw,gap,ela,MSE,0.2,0.1\nraw,gap,ela,MSE,0.3,0.1\n", "duplicated"),
    ],
)
def test_bad_paper_files_are_rejected_naming_the_file(tmp_path, body, message):
    path = tmp_path / "bad.csv"
    path.write_text(HEADER + body, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        load_bnn_paper_values(path)
    assert str(path) in str(info.value)


def test_paper_file_without_citation_is_rejected(tmp_path):
    path = tmp_path / "bare.csv"
    path.write_text(COLUMNS + "raw,gap,ela,MSE,0.2,0.1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="comment lines citing"):
        load_bnn_paper_values(path)


# ---------------------------------------------------------------- our table


def make_results(methods=("nuts", "rla_f", "ela", "rla_b", "rla_blog"), seeds=3, failures=None):
    """Per-seed rows, deliberately not in the paper's method order; mse = 0.07 + 0.01 k + 0.001 seed."""
    failures = failures or {}
    rows = []
    for split in ("gap", "complete"):
        for k, method in enumerate(methods):
            ode = method.startswith("rla")
            for seed in range(seeds):
                rows.append({
                    "split": split, "method": method, "seed": seed,
                    "mse": 0.07 + 0.01 * k + 0.001 * seed, "nll": 0.12 + 0.1 * k,
                    "T": 240.0 + seed if ode else math.nan,
                    "time_per_sample_s": 0.5 if ode else math.nan,
                    "failures": failures.get((split, method, seed), 0),
                })
    return pd.DataFrame(rows, columns=list(RESULT_COLUMNS))


def test_format_mean_std_prints_like_the_paper():
    assert format_mean_std(0.072, 0.0) == "[0.072, 0.0]"
    assert format_mean_std(0.0721, 0.00004) == "[0.072, 0.0]"
    assert format_mean_std(3.0199, 0.0641) == "[3.02, 0.064]"
    assert format_mean_std(0.2, 0.237) == "[0.2, 0.237]"
    assert format_mean_std(-0.0001, 0.0) == "[0.0, 0.0]"
    assert format_mean_std(math.nan, 0.1) == "n/a"


def test_aggregate_orders_rows_and_uses_population_std():
    agg = aggregate_bnn(make_results())
    assert list(agg["split"]) == ["complete"] * 5 + ["gap"] * 5
    assert list(agg["method"][:5]) == list(METHOD_ORDER)
    rla_f = agg[(agg["split"] == "gap") & (agg["method"] == "rla_f")].iloc[0]
    mse = 0.07 + 0.01 * 1 + 0.001 * np.arange(3)
    assert rla_f["mse_mean"] == pytest.approx(mse.mean()) and rla_f["mse_std"] == pytest.approx(np.std(mse))
    assert rla_f["T_mean"] == pytest.approx(241.0) and rla_f["n_runs"] == 3
    nuts = agg[(agg["split"] == "gap") & (agg["method"] == "nuts")].iloc[0]
    assert math.isnan(nuts["T_mean"]) and math.isnan(nuts["time_mean_s"])


def test_aggregate_accepts_a_list_of_dicts():
    records = make_results().to_dict("records")
    pd.testing.assert_frame_equal(aggregate_bnn(records), aggregate_bnn(make_results()))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f.drop(columns="failures"), r"lack columns \['failures'\]"),
        (lambda f: f.assign(split="middle"), "'split' must be one of"),
        (lambda f: pd.concat([f, f.iloc[:1]]), "duplicated"),
        (lambda f: f.assign(failures=-1), "non-negative integers"),
        (lambda f: f.assign(failures=1.5), "non-negative integers"),
        (lambda f: f.assign(T=np.where(f["seed"] == 0, np.nan, f["T"])), "NaN for seeds"),
    ],
)
def test_aggregate_rejects_bad_results(change, message):
    with pytest.raises(ValueError, match=message):
        aggregate_bnn(change(make_results()))


def test_table_rows_cells_and_paper_values():
    paper = load_bnn_paper_values(TABLE3)
    table = bnn_table_frame(aggregate_bnn(make_results()), paper, inputs="raw")
    assert tuple(table.columns) == TABLE_COLUMNS
    text = bnn_table_latex(table, **SCALE)
    assert text.startswith("\\begin{table}") and text.endswith("\\end{table}\n")
    assert "\\toprule" in text and "\\bottomrule" in text and "\\multicolumn{4}{c}{Complete}" in text
    assert "\\multicolumn{4}{c}{Gap}" in text and text.index("{Complete}") < text.index("{Gap}")
    # Row order ELA, RLA-B, RLA-BLog, RLA-F, NUTS (our results were given in another order).
    body = text[text.index("\\midrule"):text.index("\\bottomrule")]
    labels = [line.split(" & ")[0] for line in body.splitlines() if " & ours" in line]
    assert labels == ["ELA", "RLA-B", "RLA-BLog", "RLA-F", "NUTS"]
    # Our cells as [mean, std] (RLA-F: k = 1, complete split).
    rla_f = next(line for line in body.splitlines() if line.startswith("RLA-F & ours"))
    mse = 0.07 + 0.01 + 0.001 * np.arange(3)
    assert f"[{round(mse.mean(), 3)}, {round(float(np.std(mse)), 3)}]" == "[0.081, 0.001]"
    assert rla_f.split(" & ")[2] == "[0.081, 0.001]" and rla_f.split(" & ")[4] == "241.0"
    # The paper row beneath, read from the CSV: RLA-F complete [0.072, 0.0], T 242.9, 0.8 s.
    lines = body.splitlines()
    paper_row = lines[lines.index(rla_f) + 1]
    assert paper_row.startswith(" & paper & [0.072, 0.0] & [0.121, 0.002] & 242.9 & 0.8 & [0.564, 0.066]")
    nuts_paper = lines[[i for i, line in enumerate(lines) if line.startswith("NUTS & ours")][0] + 1]
    assert "[0.073, 0.0] & [0.126, 0.002] & N/A & N/A" in nuts_paper
    assert "yu2024\\_table3.csv" in text and "Table~3" in text and "population std" in text
    assert "\\dagger" not in text


def test_failures_give_dagger_and_footnote():
    results = make_results(failures={("gap", "rla_b", 0): 4, ("gap", "rla_b", 2): 1})
    table = bnn_table_frame(aggregate_bnn(results), None, inputs="standardised")
    text = bnn_table_latex(table, with_paper=False, failure_treatment="Failed samples are left out of MSE and NLL.",
                           **SCALE)
    rla_b = next(line for line in text.splitlines() if line.startswith("RLA-B &"))
    cells = rla_b.removesuffix(" \\\\").split(" & ")
    assert "\\dagger" not in cells[1]  # complete: no failures
    assert cells[5].endswith("$^{\\dagger}$")  # gap MSE carries the mark
    assert "Gap RLA-B: 5 failed solves in 2 of 3 repetitions" in text
    assert "Failed samples are left out of MSE and NLL." in text
    assert " & paper" not in text and "Table~5" in text


def test_methods_missing_on_either_side_and_off_scale_cells():
    results = make_results(methods=("rla_f", "nuts"))
    results = results[~((results["split"] == "gap") & (results["seed"] == 2))]
    table = bnn_table_frame(aggregate_bnn(results), load_bnn_paper_values(TABLE3), inputs="raw")
    text = bnn_table_latex(table, **SCALE)
    ela = next(line for line in text.splitlines() if line.startswith("ELA & ours"))
    assert ela == "ELA & ours" + " & --" * 8 + " \\\\"
    assert "Gap RLA-F: 2 repetitions" in text and "Gap NUTS: 2 repetitions" in text
    with pytest.raises(ValueError, match="paper values hold inputs"):
        bnn_table_frame(aggregate_bnn(results), load_bnn_paper_values(TABLE5), inputs="raw")


def test_write_table_writes_latex_and_csv_atomically(tmp_path):
    results = make_results(failures={("complete", "rla_blog", 1): 2})
    tex, csv = write_bnn_table(results, tmp_path / "out" / "bnn.tex", tmp_path / "out" / "bnn.csv",
                               inputs="raw", paper=TABLE3, **SCALE)
    text = tex.read_text(encoding="utf-8")
    assert "Complete RLA-BLog: 2 failed solve" in text and "[0.072, 0.0]" in text
    frame = pd.read_csv(csv)
    assert tuple(frame.columns) == TABLE_COLUMNS and len(frame) == 10
    row = frame[(frame["split"] == "complete") & (frame["method"] == "rla_f")].iloc[0]
    assert row["paper_T"] == 242.9 and row["paper_mse_mean"] == 0.072 and row["T_mean"] == pytest.approx(241.0)
    assert math.isnan(frame[(frame["split"] == "gap") & (frame["method"] == "ela")].iloc[0]["paper_T"])
    assert not list((tmp_path / "out").glob(".*.tmp"))


# ---------------------------------------------------------------- figures


def snelson_like(seed=0):
    rng = np.random.default_rng(seed)
    x_train = np.sort(rng.uniform(0.0, 6.0, 200))
    y_train = np.sin(x_train) + 0.3 * rng.normal(size=200)
    return rng, x_train, y_train


def function_rows(n_samples=40):
    rng, x_train, y_train = snelson_like()
    x = np.linspace(*YU_XLIM, 120)
    gap = (x_train < 1.5) | (x_train > 3.0)
    rows = []
    for mask in (np.ones_like(gap), gap):
        rows.append([
            FunctionPanel(name, x, np.sin(x)[None] + 0.2 * rng.normal(size=(n_samples, 1)), x_train[mask],
                          y_train[mask], noise_std=0.3)
            for name in ("RLA-B", "RLA-BLog", "RLA-F", "NUTS")
        ])
    return rows


def test_training_intervals_find_the_gap():
    _, x_train, _ = snelson_like()
    assert len(training_intervals(x_train)) == 1
    gap = x_train[(x_train < 1.5) | (x_train > 3.0)]
    intervals = training_intervals(gap)
    assert len(intervals) == 2
    assert intervals[0][1] < 1.5 and intervals[1][0] > 3.0
    assert intervals[0][0] == gap.min() and intervals[1][1] == gap.max()
    assert training_intervals([0.0, 0.1, 0.2, 5.0], gap=1.0) == [(0.0, 0.2), (5.0, 5.0)]


def is_pdf(path):
    return path.read_bytes()[:4] == b"%PDF" and path.stat().st_size > 1000


def is_png(path):
    return path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 1000


def test_function_sample_panels_write_pdf_and_png(tmp_path):
    rows = function_rows()
    written = function_sample_panels(tmp_path / "f" / "fig6.pdf", rows, row_labels=["complete", "gap"],
                                     png_path=tmp_path / "f" / "fig6.png")
    assert [p.name for p in written] == ["fig6.pdf", "fig6.png"]
    assert is_pdf(written[0]) and is_png(written[1])
    assert not list((tmp_path / "f").glob(".*.tmp"))
    fig = build_function_sample_figure(rows, n_samples=10)
    axes = fig.axes
    assert len(axes) == 8
    assert axes[0].get_ylim() == YU_YLIM and axes[0].get_xlim() == YU_XLIM
    assert len(axes[0].get_xticks()) == 0
    assert len(axes[0].lines) == 11  # 10 samples + the mean
    assert len(axes[0].patches) == 1 and len(axes[4].patches) == 2  # shading: complete one, gap two intervals


def test_predictive_band_panels_write_files(tmp_path):
    rows = function_rows()
    rows[1][3] = None  # a blank cell
    written = predictive_band_panels(tmp_path / "band.png", rows)
    assert is_png(written[0])
    fig = build_predictive_band_figure(rows)
    assert len(fig.axes) == 8 and not fig.axes[7].axison


def test_figures_raise_on_mismatched_shapes(tmp_path):
    rows = function_rows()
    bad = rows[0][1]._replace(f_samples=np.zeros((5, 7)))
    with pytest.raises(ValueError, match=r"f_samples of panels\[0\]\[1\] \('RLA-BLog'\).*\(S, 120\).*\(5, 7\)"):
        function_sample_panels(tmp_path / "x.pdf", [[rows[0][0], bad]])
    with pytest.raises(ValueError, match="y_train of"):
        build_function_sample_figure([rows[0][0]._replace(y_train=np.zeros(3))])
    with pytest.raises(ValueError, match="rows of equal"):
        build_function_sample_figure([rows[0], rows[1][:2]])
    with pytest.raises(ValueError, match="must end in one of"):
        function_sample_panels(tmp_path / "x.jpg", rows)
    with pytest.raises(ValueError, match="noise_std of panel"):
        build_predictive_band_figure([rows[0][0]._replace(noise_std=np.ones(3))])
    assert not list(tmp_path.iterdir())


def hartmann_like(seed=1):
    rng, x_train, y_train = snelson_like(seed)
    keep = (x_train < 2.0) | (x_train > 3.0)
    x = np.linspace(-3.0, 10.0, 150)
    samples = {
        "WG": np.sin(x)[None] + 0.2 * rng.normal(size=(300, 150)),
        "NUTS": np.sin(x)[None] + 0.25 * rng.normal(size=(200, 150)),
        "LA": np.sin(x)[None] + 5.0 * rng.normal(size=(300, 150)),
    }
    return rng, x, samples, x_train[keep], y_train[keep]


def test_pushforward_figure_writes_files(tmp_path):
    _, x, samples, x_train, y_train = hartmann_like()
    written = pushforward_figure(
        tmp_path / "fig5.pdf", x, samples, x_train=x_train, y_train=y_train, map_f=np.sin(x),
        noise_std={"WG": np.full(300, 0.3), "NUTS": 0.3}, probe_x=[1.0, 2.5, 8.0], ylim=(-4, 4),
        png_path=tmp_path / "fig5.png",
    )
    assert is_pdf(written[0]) and is_png(written[1])
    fig = build_pushforward_figure(x, samples, probe_x=[2.5, 8.0])
    assert len(fig.axes) == 1 + 2 + 3


def test_pushforward_figure_raises_on_mismatched_shapes():
    _, x, samples, x_train, y_train = hartmann_like()
    with pytest.raises(ValueError, match=r"samples\['LA'\] must be a 2-D array of shape \(S, 150\)"):
        build_pushforward_figure(x, {**samples, "LA": samples["LA"][:, :10]})
    with pytest.raises(ValueError, match="map_f must be a 1-D array of shape"):
        build_pushforward_figure(x, samples, map_f=np.zeros(3))
    with pytest.raises(ValueError, match="noise_std names methods"):
        build_pushforward_figure(x, samples, noise_std={"VI": 0.3})
    with pytest.raises(ValueError, match=r"one value per sample \(S = 300"):
        build_pushforward_figure(x, samples, noise_std={"WG": np.ones(5)})
    with pytest.raises(ValueError, match="outside the grid"):
        build_pushforward_figure(x, samples, probe_x=[20.0])
    with pytest.raises(ValueError, match="both x_train and y_train"):
        build_pushforward_figure(x, samples, x_train=x_train)


def test_wasserstein_across_maps_figure(tmp_path):
    rng, x, _, x_train, _ = hartmann_like()
    per_method = {
        "LA": pairwise_pushforward_wasserstein2([np.sin(x)[None] + k + rng.normal(size=(50, 150)) for k in range(5)]),
        "WG": (np.full(150, 0.05), np.full(150, 0.001)),
    }
    written = wasserstein_across_maps_figure(tmp_path / "fig7.png", x, per_method, x_train=x_train)
    assert is_png(written[0])
    with pytest.raises(ValueError, match=r"mean of per_method\['WG'\] must be a 1-D array of shape \(150,\)"):
        wasserstein_across_maps_figure(tmp_path / "bad.png", x, {"WG": (np.zeros(3), np.zeros(3))})
    with pytest.raises(ValueError, match="PairwiseW2"):
        wasserstein_across_maps_figure(tmp_path / "bad.png", x, {"WG": np.zeros(150)})
    assert not (tmp_path / "bad.png").exists()
