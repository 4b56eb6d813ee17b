"""Tests of geobayes.report.paper_values on the transcribed Yu et al. (2024), Tables 1, 2, 4, 6 and Figs. 4/8."""

import re
from pathlib import Path

import numpy as np
import pytest

from geobayes.report.paper_values import PAPER_VALUE_COLUMNS, load_paper_values

PAPER_VALUES = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values"
TABLE2 = PAPER_VALUES / "yu2024_table2.csv"
PAPER_TEXT = "../shared/papers/yu2024-rla-fisher-metric.txt"


def test_table2_has_ten_rows_by_four_methods_of_w():
    paper = load_paper_values(TABLE2)
    assert tuple(paper.columns) == PAPER_VALUE_COLUMNS
    w = paper[paper["metric"] == "W"]
    assert len(w) == 40
    assert len(w[["inputs", "dataset"]].drop_duplicates()) == 10
    assert sorted(set(w["method"])) == ["ela", "rla_b", "rla_blog", "rla_f"]
    assert (w.groupby("method").size() == 10).all()
    assert w["std"].notna().all()
    t = paper[paper["metric"] == "T"]
    assert len(t) == 30 and "ela" not in set(t["method"]) and t["std"].isna().all()


def test_table2_spot_values_and_citation():
    paper = load_paper_values(TABLE2).set_index(["inputs", "dataset", "method", "metric"])
    assert paper.loc[("standardised", "heart", "rla_blog", "W"), "mean"] == 1.154
    assert paper.loc[("standardised", "heart", "rla_blog", "W"), "std"] == 0.189
    assert paper.loc[("raw", "australian", "rla_b", "T"), "mean"] == 18513.8
    assert paper.loc[("raw", "german", "rla_f", "W"), "mean"] == 0.823
    assert np.isnan(paper.loc[("raw", "german", "rla_f", "T"), "std"])
    head = TABLE2.read_text(encoding="utf-8").splitlines()[0]
    assert head.startswith("#") and "Riemannian Laplace Approximation with the Fisher Metric" in head
    assert "AISTATS 2024, Table 2" in head


HEADER = "# source: test\n"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("inputs,dataset,method,metric,mean\nraw,pima,ela,W,0.2\n", "expected columns"),
        ("inputs,dataset,method,metric,mean,std\nraw,pima,ela,X,0.2,0.1\n", "metric must be one of"),
        ("inputs,dataset,method,metric,mean,std\nraw,pima,ela,W,0.2,\n", "needs a 'std'"),
        ("inputs,dataset,method,metric,mean,std\nraw,pima,ela,W,abc,0.1\n", "non-numeric 'mean'"),
        ("inputs,dataset,method,metric,mean,std\nraw,pima,ela,W,0.2,0.1\nraw,pima,ela,W,0.3,0.1\n", "duplicated"),
    ],
)
def test_bad_files_are_rejected_naming_the_file(tmp_path, body, message):
    path = tmp_path / "bad.csv"
    path.write_text(HEADER + body, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        load_paper_values(path)
    assert str(path) in str(info.value)


def test_missing_citation_and_missing_file(tmp_path):
    path = tmp_path / "uncited.csv"
    path.write_text("inputs,dataset,method,metric,mean,std\nraw,pima,ela,W,0.2,0.1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="comment lines citing"):
        load_paper_values(path)
    with pytest.raises(FileNotFoundError, match="nowhere.csv"):
        load_paper_values(tmp_path / "nowhere.csv")


def _keyed(name):
    return load_paper_values(PAPER_VALUES / name).set_index(["inputs", "dataset", "method", "metric"])


@pytest.mark.parametrize(
    ("name", "source"),
    [
        ("yu2024_table1.csv", "AISTATS 2024, Table 1"),
        ("yu2024_table2.csv", "AISTATS 2024, Table 2"),
        ("yu2024_table4.csv", "AISTATS 2024, Table 4"),
        ("yu2024_table6.csv", "AISTATS 2024, Table 6"),
        ("yu2024_squiggle_evaluations.csv", "AISTATS 2024, Supp. 16.2"),
    ],
)
def test_every_file_loads_and_cites_its_source(name, source):
    path = PAPER_VALUES / name
    paper = load_paper_values(path)
    assert tuple(paper.columns) == PAPER_VALUE_COLUMNS and len(paper) > 0
    lines = path.read_text(encoding="utf-8").splitlines()
    head = lines[0]
    assert head.startswith("# Source:") and "Riemannian Laplace Approximation with the Fisher Metric" in head
    assert source in head
    assert PAPER_TEXT in lines[1] and re.search(r"lines? \d+", lines[1])


def test_table1_banana_with_empirical_fisher():
    paper = _keyed("yu2024_table1.csv")
    assert len(paper) == 16
    assert set(paper.index.get_level_values("inputs")) == {"euclidean", "hausdorff"}
    assert set(paper.index.get_level_values("dataset")) == {"banana"}
    # Table 1, Euclidean row: ELA [1.434, 0.01], RLA-BLog T 70.4; Hausdorff row: RLA-F [0.143, 0.009], T 32.7.
    assert paper.loc[("euclidean", "banana", "ela", "W"), "mean"] == 1.434
    assert paper.loc[("euclidean", "banana", "ela", "W"), "std"] == 0.01
    assert paper.loc[("euclidean", "banana", "rla_blog", "T"), "mean"] == 70.4
    assert paper.loc[("hausdorff", "banana", "rla_f", "W"), "mean"] == 0.143
    assert paper.loc[("hausdorff", "banana", "rla_f", "W"), "std"] == 0.009
    assert paper.loc[("hausdorff", "banana", "rla_f", "T"), "mean"] == 32.7
    assert np.isnan(paper.loc[("hausdorff", "banana", "rla_b", "T"), "std"])
    # Supp. 16.6: Empirical Fisher [0.799, 0.008] (Euclidean MAP) and [0.141, 0.003] (Hausdorff MAP); no T.
    assert paper.loc[("euclidean", "banana", "rla_ef", "W"), ["mean", "std"]].tolist() == [0.799, 0.008]
    assert paper.loc[("hausdorff", "banana", "rla_ef", "W"), ["mean", "std"]].tolist() == [0.141, 0.003]
    methods_with_t = sorted(set(paper.xs("T", level="metric").index.get_level_values("method")))
    assert methods_with_t == ["rla_b", "rla_blog", "rla_f"]


def test_table4_seconds_per_sample():
    paper = _keyed("yu2024_table4.csv")
    assert len(paper) == 30
    assert set(paper.index.get_level_values("metric")) == {"seconds"}
    assert set(paper.index.get_level_values("method")) == {"rla_b", "rla_blog", "rla_f"}
    assert paper["std"].isna().all()
    assert paper.loc[("standardised", "german", "rla_blog", "seconds"), "mean"] == 2.215
    assert paper.loc[("raw", "australian", "rla_b", "seconds"), "mean"] == 6.183
    assert paper.loc[("raw", "heart", "rla_f", "seconds"), "mean"] == 0.006
    # The paper's claim (Supp. 16.4): RLA-F takes the least time per sample in every row.
    seconds = paper["mean"].unstack("method")
    assert (seconds.idxmin(axis=1) == "rla_f").all()


def test_table6_empirical_fisher_logreg():
    paper = _keyed("yu2024_table6.csv")
    assert len(paper) == 12
    assert set(paper.index.get_level_values("method")) == {"rla_ef"}
    assert set(paper.index.get_level_values("dataset")) == {"ripley", "pima", "heart"}
    assert paper.loc[("raw", "heart", "rla_ef", "W"), ["mean", "std"]].tolist() == [0.942, 0.02]
    assert paper.loc[("standardised", "pima", "rla_ef", "T"), "mean"] == 12.1
    assert paper.loc[("raw", "heart", "rla_ef", "T"), "mean"] == 17.0
    # Claim (Supp. 16.6): on raw Heart it is worse than ELA of Table 2 (0.942 vs 0.842).
    table2 = _keyed("yu2024_table2.csv")
    assert paper.loc[("raw", "heart", "rla_ef", "W"), "mean"] > table2.loc[("raw", "heart", "ela", "W"), "mean"]


def test_squiggle_evaluation_counts():
    paper = _keyed("yu2024_squiggle_evaluations.csv")
    assert paper["mean"].to_dict() == {
        ("easy", "squiggle", "rla_b", "T"): 75.0,
        ("easy", "squiggle", "rla_f", "T"): 32.0,
        ("difficult", "squiggle", "rla_b", "T"): 300.0,
        ("difficult", "squiggle", "rla_f", "T"): 41.0,
    }
    assert paper["std"].isna().all()


def test_seconds_without_std_is_accepted_and_unknown_metric_names_seconds(tmp_path):
    path = tmp_path / "times.csv"
    path.write_text(HEADER + "inputs,dataset,method,metric,mean,std\nraw,pima,rla_f,seconds,0.006,\n", encoding="utf-8")
    assert np.isnan(load_paper_values(path).loc[0, "std"])
    path.write_text(HEADER + "inputs,dataset,method,metric,mean,std\nraw,pima,rla_f,time,0.006,\n", encoding="utf-8")
    with pytest.raises(ValueError, match="'seconds'"):
        load_paper_values(path)
