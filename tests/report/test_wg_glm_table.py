"""Tests of geobayes.report.wg_glm_table: Table 1 of Hartmann et al. (2026), ours beside the paper's."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.report.wg_glm_table import (
    GLM_TABLE_COLUMNS,
    MODEL_CELLS,
    STATUS_NO_SOURCE,
    STATUS_NO_W2,
    STATUS_NOT_RUN,
    STATUS_OK,
    aggregate_wg_glm,
    count_wg_wins,
    format_w2,
    load_table1_paper,
    wg_glm_table_latex,
)

TABLE1 = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values/hartmann2026_table1.csv"


def make_summary(datasets=("ripley",), seeds=3):
    """WG W2 = 1.0, 1.1, 1.2 (2 failed samples in seed 1, 1 in seed 2); LA 2.0, 2.1, 2.2; RLA-F 0.1 (ignored)."""
    rows = []
    for dataset in datasets:
        for model in MODEL_CELLS:
            for method, base in (("wg", 1.0), ("ela", 2.0), ("rla_f", 0.1)):
                for seed in range(seeds):
                    rows.append({"experiment": "glm", "posterior": f"{dataset}-{model}", "setting": dataset,
                                 "model": model, "anchor": "euclidean", "method": method, "seed": seed,
                                 "wasserstein2": base + 0.1 * seed, "n_samples": 100,
                                 "n_failed": {1: 2, 2: 1}.get(seed, 0) if method == "wg" else 0})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def paper():
    return load_table1_paper(TABLE1)


def cell(frame, dataset, family, setting, method):
    hit = frame[(frame["dataset"] == dataset) & (frame["family"] == family) & (frame["setting"] == setting)
                & (frame["method"] == method)]
    assert len(hit) == 1
    return hit.iloc[0]


def test_paper_file_is_table_1(paper):
    assert len(paper) == 6 * 4 * 2
    assert cell(paper, "australian", "bernoulli", "regression", "wg").w2 == 1.597
    assert cell(paper, "microarray", "poisson", "gp", "la").w2 == 1.486
    assert cell(paper, "german", "poisson", "gp", "wg").D == 25
    wide = paper.pivot_table(index=["dataset", "family", "setting"], columns="method", values="w2")
    assert int((wide["wg"] < wide["la"]).sum()) == 24  # the paper: WG wins every cell


def test_mean_std_failed_and_paper_column(paper):
    table = aggregate_wg_glm(make_summary(), paper)
    assert list(table.columns) == list(GLM_TABLE_COLUMNS)
    assert len(table) == 6 * 4 * 2
    wg = cell(table, "ripley", "bernoulli", "regression", "wg")
    assert wg.status == STATUS_OK
    assert wg.w2_mean == pytest.approx(1.1)
    assert wg.w2_std == pytest.approx(np.std([1.0, 1.1, 1.2]))  # population std (ddof = 0)
    assert wg.w2_std != pytest.approx(np.std([1.0, 1.1, 1.2], ddof=1))
    assert (wg.n_runs, wg.n_failed, wg.n_samples) == (3, 3, 300)  # failures summed over runs
    assert wg.paper_w2 == 5.587  # from the file, not computed
    la = cell(table, "ripley", "poisson", "gp", "la")
    assert la.w2_mean == pytest.approx(2.1) and la.n_failed == 0 and la.paper_w2 == 28.420
    assert bool(wg.wg_beats_la) and bool(wg.paper_wg_beats_la)


def test_missing_datasets_and_microarray(paper):
    table = aggregate_wg_glm(make_summary(), paper)
    aus = cell(table, "australian", "bernoulli", "gp", "wg")
    assert aus.status == STATUS_NOT_RUN and np.isnan(aus.w2_mean) and aus.n_runs == 0
    assert aus.paper_w2 == 55.051
    assert pd.isna(aus.wg_beats_la) and bool(aus.paper_wg_beats_la)
    micro = table[table["dataset"] == "microarray"]
    assert (micro["status"] == STATUS_NO_SOURCE).all() and micro["paper_w2"].notna().all()
    wins = count_wg_wins(table)
    assert wins["ours"] == {"wins": 4, "cells": 4}
    assert wins["paper"] == {"wins": 24, "cells": 24}
    assert wins["paper_where_ours"] == {"wins": 4, "cells": 4}


def test_nan_w2_runs_are_counted_not_hidden(paper):
    summary = make_summary(seeds=2)
    hit = (summary["model"] == "berngp") & (summary["method"] == "wg")
    summary.loc[hit & (summary["seed"] == 0), "wasserstein2"] = np.nan
    summary.loc[(summary["model"] == "poisgp") & (summary["method"] == "ela"), "wasserstein2"] = np.nan
    table = aggregate_wg_glm(summary, paper)
    wg = cell(table, "ripley", "bernoulli", "gp", "wg")
    assert wg.w2_mean == pytest.approx(1.1) and wg.n_runs_without_w2 == 1 and wg.n_runs == 2
    la = cell(table, "ripley", "poisson", "gp", "la")
    assert la.status == STATUS_NO_W2 and np.isnan(la.w2_mean)
    assert pd.isna(cell(table, "ripley", "poisson", "gp", "wg").wg_beats_la)
    assert format_w2(wg.w2_mean, wg.w2_std, 2, 0, STATUS_OK, n_runs_without_w2=1) == \
        "1.100 ± 0.000 [1 of 2 runs without W2]"


def test_wg_losing_cell_is_false(paper):
    summary = make_summary()
    summary.loc[(summary["model"] == "poisreg") & (summary["method"] == "wg"), "wasserstein2"] = 9.0
    table = aggregate_wg_glm(summary, paper)
    assert not bool(cell(table, "ripley", "poisson", "regression", "la").wg_beats_la)
    assert count_wg_wins(table)["ours"] == {"wins": 3, "cells": 4}


def test_latex_shows_ours_paper_failed_and_scale(paper):
    table = aggregate_wg_glm(make_summary(), paper)
    tex = wg_glm_table_latex(table, samples=100, repetitions=3, reference_draws=1000)
    assert "\\toprule" in tex and "\\bottomrule" in tex
    assert "$\\mathbf{1.100 \\pm 0.082}${\\scriptsize [3 failed]}" in tex
    assert "$2.100 \\pm 0.082$ & 7.835" in tex
    assert "not run" in tex and "unavailable" in tex
    assert "3 repetitions of 100 samples against 1,000 NUTS draws" in tex
    assert "WG below LA in 4 of 4 cells of ours; in the paper in 24 of 24 cells" in tex
    assert tex.count("\\\\") > 12
    body = tex.split("\\midrule")[1]
    assert body.count(" & ") == 12 * 9  # 12 rows x (2 + 8) columns


def test_csv_round_trip_keeps_win_flags(tmp_path, paper):
    table = aggregate_wg_glm(make_summary(datasets=("ripley", "pima")), paper)
    table.to_csv(tmp_path / "wg_glm.csv", index=False)
    back = pd.read_csv(tmp_path / "wg_glm.csv")
    assert count_wg_wins(back) == count_wg_wins(table)


def test_extra_dataset_has_no_paper_value(paper):
    table = aggregate_wg_glm(make_summary(datasets=("ripley", "banknote")), paper)
    extra = table[table["dataset"] == "banknote"]
    assert len(extra) == 8 and extra["paper_w2"].isna().all() and (extra["status"] == STATUS_OK).all()
    assert list(dict.fromkeys(table["dataset"]))[-1] == "banknote"


def test_bad_inputs_raise(tmp_path, paper):
    with pytest.raises(ValueError, match="model"):
        aggregate_wg_glm(make_summary().replace({"model": {"bernreg": "logreg"}}), paper)
    with pytest.raises(ValueError, match="lacks columns"):
        aggregate_wg_glm(make_summary().drop(columns="wasserstein2"), paper)
    two = pd.concat([make_summary(), make_summary().assign(anchor="hausdorff")])
    with pytest.raises(ValueError, match="several anchors"):
        aggregate_wg_glm(two, paper)
    assert aggregate_wg_glm(two, paper, anchor="euclidean")["n_runs"].max() == 3
    lines = TABLE1.read_text().splitlines()
    no_comment = tmp_path / "no_comment.csv"
    no_comment.write_text("\n".join(line for line in lines if not line.startswith("#")) + "\n")
    with pytest.raises(ValueError, match="citing the source"):
        load_table1_paper(no_comment)
    bad_method = tmp_path / "bad_method.csv"
    bad_method.write_text("\n".join(lines).replace("ripley,250,3,bernoulli,regression,la", "ripley,250,3,bernoulli,"
                                                   "regression,ela") + "\n")
    with pytest.raises(ValueError, match=r"bad_method\.csv.*'method'"):
        load_table1_paper(bad_method)
    with pytest.raises(FileNotFoundError):
        load_table1_paper(tmp_path / "missing.csv")
