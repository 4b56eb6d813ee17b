"""Tests of geobayes.report.paper_values: one long schema for every paper value, one loader."""

import re
from pathlib import Path

import pytest

from geobayes.report.paper_values import PAPER_VALUE_COLUMNS, load_paper_values

PAPER_VALUES = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values"
TABLE2 = PAPER_VALUES / "yu2024_table2.csv"
PAPER_TEXT = "../shared/papers/yu2024-rla-fisher-metric.txt"
KEYS = ["experiment", "posterior", "anchor", "method", "metric"]
HEADER = "# source: test\n" + ",".join(PAPER_VALUE_COLUMNS) + "\n"


def _keyed(name):
    return load_paper_values(PAPER_VALUES / name).set_index(KEYS)


def test_table2_has_ten_rows_by_four_methods_of_w():
    paper = load_paper_values(TABLE2)
    assert tuple(paper.columns) == PAPER_VALUE_COLUMNS
    w = paper[paper["metric"] == "wasserstein1"]
    assert len(w) == 40 and w["posterior"].nunique() == 10
    assert sorted(set(w["method"])) == ["ela", "rla_b", "rla_blog", "rla_f"]
    assert (w["spread_kind"] == "std").all() and w["spread"].notna().all()
    t = paper[paper["metric"] == "T"]
    assert len(t) == 30 and "ela" not in set(t["method"]) and t["spread"].isna().all()
    assert (t["spread_kind"] == "none").all() and (paper["source"] == "Table 2").all()


def test_table2_spot_values_share_our_posterior_names():
    paper = _keyed("yu2024_table2.csv")
    cell = ("logreg", "heart_standardised-logreg", "", "rla_blog", "wasserstein1")
    assert paper.loc[cell, ["mean", "spread"]].tolist() == [1.154, 0.189]
    assert paper.loc[("logreg", "australian_raw-logreg", "", "rla_b", "T"), "mean"] == 18513.8
    assert paper.loc[("logreg", "german_raw-logreg", "", "rla_f", "wasserstein1"), "mean"] == 0.823


@pytest.mark.parametrize(("name", "source"), [
    ("yu2024_table1.csv", "AISTATS 2024, Table 1"), ("yu2024_table2.csv", "AISTATS 2024, Table 2"),
    ("yu2024_table4.csv", "AISTATS 2024, Table 4"), ("yu2024_table6.csv", "AISTATS 2024, Table 6"),
    ("yu2024_squiggle_evaluations.csv", "AISTATS 2024, Supp. 16.2")])
def test_every_file_loads_and_cites_its_source(name, source):
    path = PAPER_VALUES / name
    assert len(load_paper_values(path)) > 0
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# Source:") and source in lines[0]
    assert PAPER_TEXT in lines[1] and re.search(r"lines? \d+", lines[1])


def test_all_files_load_together_without_a_key_twice():
    paper = load_paper_values(sorted(PAPER_VALUES.glob("*.csv")))
    assert not paper.duplicated(KEYS).any()
    assert {"logreg", "banana", "squiggle"} <= set(paper["experiment"])


def test_table1_banana_anchors_and_empirical_fisher():
    paper = _keyed("yu2024_table1.csv")
    assert len(paper) == 16
    assert paper.loc[("banana", "yu2024-banana", "euclidean", "ela", "wasserstein1"), ["mean", "spread"]].tolist() \
        == [1.434, 0.01]
    assert paper.loc[("banana", "yu2024-banana", "hausdorff", "rla_f", "T"), "mean"] == 32.7
    assert paper.loc[("banana", "yu2024-banana", "hausdorff", "rla_ef", "wasserstein1"), ["mean", "spread"]].tolist() \
        == [0.141, 0.003]


def test_table4_seconds_and_the_papers_claim():
    paper = _keyed("yu2024_table4.csv")
    assert len(paper) == 30 and set(paper.index.get_level_values("metric")) == {"seconds_per_sample"}
    assert paper.loc[("logreg", "german_standardised-logreg", "", "rla_blog", "seconds_per_sample"), "mean"] == 2.215
    # Supp. 16.4: RLA-F takes the least time per sample in every row.
    seconds = paper["mean"].unstack("method")
    assert (seconds.idxmin(axis=1) == "rla_f").all()


def test_table6_and_squiggle_counts():
    paper = _keyed("yu2024_table6.csv")
    assert len(paper) == 12 and set(paper.index.get_level_values("method")) == {"rla_ef"}
    assert paper.loc[("logreg", "heart_raw-logreg", "", "rla_ef", "wasserstein1"), ["mean", "spread"]].tolist() \
        == [0.942, 0.02]
    squiggle = _keyed("yu2024_squiggle_evaluations.csv")["mean"].to_dict()
    assert squiggle[("squiggle", "difficult-squiggle", "", "rla_b", "T")] == 300.0


ROW = "logreg,pima_raw-logreg,,ela,wasserstein1,0.2,0.1,std,Table 2\n"


@pytest.mark.parametrize(("body", "message"), [
    ("experiment,posterior,method,metric,mean\nlogreg,p,ela,w,0.2\n", "expected columns"),
    (ROW.replace(",std,", ",sd,"), "spread_kind must be one of"),
    (ROW.replace("0.1,std", ",std"), "spread is given exactly where"),
    (ROW.replace(",0.1,std", ",0.1,none"), "spread is given exactly where"),
    (ROW.replace("0.2", "abc"), "non-numeric 'mean'"),
    (ROW.replace("0.1", "-0.1"), "negative 'spread'"),
    (ROW.replace("logreg,", ",", 1), "empty 'experiment'"),
    (ROW + ROW, "duplicated keys"),
])
def test_bad_files_are_rejected_naming_the_file(tmp_path, body, message):
    path = tmp_path / "bad.csv"
    path.write_text(HEADER + body if "experiment," not in body else "# source\n" + body, encoding="utf-8")
    with pytest.raises(ValueError, match=message) as info:
        load_paper_values(path)
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_missing_citation_missing_file_and_a_key_in_two_files(tmp_path):
    uncited = tmp_path / "uncited.csv"
    uncited.write_text(",".join(PAPER_VALUE_COLUMNS) + "\n" + ROW, encoding="utf-8")
    with pytest.raises(ValueError, match="comment lines citing"):
        load_paper_values(uncited)
    with pytest.raises(FileNotFoundError, match="nowhere.csv"):
        load_paper_values(tmp_path / "nowhere.csv")
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text(HEADER + ROW, encoding="utf-8")
    second.write_text(HEADER + ROW, encoding="utf-8")
    with pytest.raises(ValueError, match="given in two files"):
        load_paper_values([first, second])
    assert load_paper_values(str(first)).loc[0, "spread"] == 0.1


def test_yu2023_cifar_tables_have_every_prior_sampler_and_metric():
    """Tables 3, 5, 7 and 9 of Yu et al. (2023), CIFAR-10 ResNet-20: two priors x the four samplers shown (the best
    Monge matched Identity and is not printed), spot values as ../shared/papers/notes/yu2023-sgrld-nondiagonal-metrics.md
    prints them."""
    path = PAPER_VALUES / "yu2023_cifar.csv"
    paper = load_paper_values(path)
    assert set(paper["posterior"]) == {"gaussian-resnet20", "correlated-resnet20"}
    assert set(paper["method"]) == {"identity", "wenzel", "rmsprop", "shampoo"}
    per_table = {"Table 3": {"lp", "accuracy", "curvature", "seconds_per_epoch"}, "Table 5": {"learning_rate"},
                 "Table 7": {"lp_equal_time", "accuracy_equal_time"}, "Table 9": {"ece"}}
    for table, metrics in per_table.items():
        rows = paper[paper["source"] == table]
        assert set(rows["metric"]) == metrics and len(rows) == 2 * 4 * len(metrics), table
    assert len(paper) == 64
    keyed = paper.set_index(KEYS)
    cell = lambda prior, method, metric: keyed.loc[("yu2023_cifar", f"{prior}-resnet20", "selected", method, metric)]  # noqa: E731
    assert cell("gaussian", "shampoo", "lp")[["mean", "spread"]].tolist() == [-0.4606, 0.0043]
    assert cell("correlated", "shampoo", "accuracy_equal_time")[["mean", "spread"]].tolist() == [0.8697, 0.0015]
    assert cell("correlated", "wenzel", "learning_rate")["mean"] == 0.75
    assert cell("gaussian", "rmsprop", "seconds_per_epoch")["mean"] == 8.8
    assert cell("correlated", "identity", "curvature")["mean"] == 9.91
    assert cell("gaussian", "wenzel", "ece")[["mean", "spread"]].tolist() == [0.1006, 0.0036]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("# Source:") and "Non-Diagonal Metrics" in lines[0] and "TMLR 08/2023" in lines[1]
    assert "yu2023-sgrld-nondiagonal-metrics.txt" in lines[1] and re.search(r"lines \d+-\d+", lines[2])
