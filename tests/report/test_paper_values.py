"""Tests of geobayes.report.paper_values on the transcribed Yu et al. (2024), Table 2."""

from pathlib import Path

import numpy as np
import pytest

from geobayes.report.paper_values import PAPER_VALUE_COLUMNS, load_paper_values

TABLE2 = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values/yu2024_table2.csv"


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
