"""Tests of geobayes.report.tables and .comparison: any spec over tidy rows, beside the paper's values."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geobayes.report.comparison import best_flags, comparison_summary, outside_spread, winner_agreement
from geobayes.report.paper_values import load_paper_values
from geobayes.report.reproduction_report import reproduction_report_markdown
from geobayes.report.table_spec import read_report_specs, read_table_specs
from geobayes.report.tables import CELL_COLUMNS, render_latex, render_markdown, table_cells
from geobayes.report.tidy import tidy_frame

RESOURCES = Path(__file__).resolve().parents[2] / "workflow/resources"
SPECS = read_table_specs(RESOURCES / "tables.yaml")
SCALE = {"samples": 100, "repetitions": 3, "reference_draws": 1000, "exact_draws": 1000}
W = {"ripley": {"ela": 0.10, "rla_b": 0.30, "rla_f": 0.06}, "pima": {"ela": 0.15, "rla_b": 0.27, "rla_f": 0.15}}


def logreg_runs(failed=("pima", "rla_b", 0)):
    """Three repetitions per cell; W close to the paper's Table 2 (standardised) with a small spread."""
    records = []
    for dataset, methods in W.items():
        for method, w in methods.items():
            for k in range(3):
                n_failed = 5 if (dataset, method, k) == failed else 0
                records.append(({"stage": "evaluation", "posterior": f"{dataset}_standardised-logreg",
                                 "anchor": "euclidean", "method": method, "repetition": k,
                                 "wasserstein1": w + 0.001 * (k - 1), "T": 0.0 if method == "ela" else 10.0 + k,
                                 "n_samples": 100, "n_failed": n_failed}, "logreg"))
    return tidy_frame(records)


@pytest.fixture(scope="module")
def table2():
    spec = SPECS["yu2024_table2"]
    return spec, table_cells(spec, logreg_runs(), load_paper_values(RESOURCES / "paper_values/yu2024_table2.csv"))


def test_cells_aggregate_ours_and_join_the_papers(table2):
    spec, cells = table2
    assert list(cells.columns) == [*spec.key_columns, *CELL_COLUMNS]
    # the spec's row, column and metric order: ripley before pima; ela, rla_b, rla_f; W before T
    assert list(cells["dataset"].unique()) == ["ripley", "pima"]
    assert list(cells.loc[cells["dataset"] == "ripley", "method"].unique()) == ["ela", "rla_b", "rla_f"]
    cell = cells.set_index(["dataset", "method", "metric"]).loc[("ripley", "rla_f", "wasserstein1")]
    assert cell["mean"] == pytest.approx(0.06) and cell["std"] == pytest.approx(np.std([-0.001, 0, 0.001]))
    assert (cell["paper_mean"], cell["paper_spread"], cell["paper_spread_kind"]) == (0.064, 0.002, "std")
    assert not cell["outside_spread"]
    t = cells[cells["metric"] == "T"]
    # ELA solves no ODE: the spec shows T only for the ODE methods
    assert t["outside_spread"].isna().all() and set(t["method"]) == {"rla_b", "rla_f"}


def test_bold_is_the_lowest_w_per_row_and_ties_are_all_bold(table2):
    _, cells = table2
    best = cells[cells["best"]]
    assert set(zip(best["dataset"], best["method"])) == {("ripley", "rla_f"), ("pima", "ela"), ("pima", "rla_f")}
    assert (best["metric"] == "wasserstein1").all()


def test_latex_is_booktabs_with_paper_rows_bold_and_failure_note(table2):
    spec, cells = table2
    latex = render_latex(spec, cells, SCALE)
    assert latex.startswith("\\begin{table}[t]") and "\\toprule" in latex and "\\bottomrule" in latex
    assert "\\label{tab:yu2024_table2}" in latex and "100 samples" in latex and "1,000 NUTS" in latex
    assert "\\textbf{0.060 $\\pm$ 0.001}" in latex and "0.064 $\\pm$ 0.002" in latex
    assert "$\\mathcal{W}$" in latex and "RLA-F" in latex and "Ripl" in latex and "stand." in latex
    assert "0.270 $\\pm$ 0.001$^\\dagger$" in latex and "stand., Pima, RLA-B: 5 of 300 samples failed" in latex


def test_markdown_flattens_the_header_and_marks_failures(table2):
    spec, cells = table2
    text = render_markdown(spec, cells, SCALE)
    assert "| stand. Ripl ours" in text and "| stand. Ripl paper" in text and "RLA-F W" in text
    assert "**0.060 ± 0.001**" in text and "| 11.0 " in text and "† stand., Pima, RLA-B: 5 of 300" in text


def test_comparison_counts_inside_and_winner_agreement(table2):
    spec, cells = table2
    group = [k for k in spec.key_columns if k != spec.best_over]
    rules = {m.metric: m.best for m in spec.metrics}
    counts = comparison_summary(cells, group, rules, "method")
    # 6 W cells with a spread: ripley rla_b (0.300 vs 0.236 +- 0.001) is outside; pima rla_f (0.150 vs
    # 0.147 +- 0.000) is inside by the 0.005 floor
    assert counts["cells_compared"] == 6 and counts["cells_inside"] == 5 and counts["cells_with_paper"] == 10
    winners = winner_agreement(cells, group, rules, "method").set_index("dataset")
    assert winners.loc["ripley", "ours_best"] == ("rla_f",) and winners.loc["ripley", "agree"]
    assert counts["groups_compared"] == 2


def test_flag_rule_and_best_flags_on_hand_made_values():
    flags = outside_spread([0.10, 0.10, np.nan, 0.10], [0.0, 0.0, 0.0, 0.05], [0.12, 0.111, 0.1, 0.3],
                           [0.0, 0.0, 0.01, 0.01], floor=0.005)
    assert flags.tolist() == [True, True, True, True]
    assert outside_spread(0.10, 0.0, 0.109, 0.0, floor=0.005).item() is False
    with pytest.raises(ValueError, match="floor must be finite"):
        outside_spread(0.1, 0.0, 0.1, 0.0, floor=-1.0)
    frame = pd.DataFrame({"row": ["a", "a", "b", "b"], "metric": "w", "mean": [1.0, 2.0, np.nan, 3.0]})
    # row b has one value left beside its NaN: nothing to be best against, so not bold
    assert best_flags(frame, ["row"], {"w": "max"}).tolist() == [False, True, False, False]
    with pytest.raises(ValueError, match="must be 'min' or 'max'"):
        best_flags(frame, ["row"], {"w": "lowest"})


def test_a_selection_without_results_is_an_error_naming_the_table():
    runs = logreg_runs()
    with pytest.raises(ValueError, match=r"tables\.yu2024_table1: no results of experiments \['banana'\]"):
        table_cells(SPECS["yu2024_table1"], runs)


def test_leaderboard_shows_the_floor_beside_the_methods():
    records = [({"stage": "evaluation", "posterior": "d2-gaussian", "anchor": "euclidean", "method": m,
                 "repetition": k, "wasserstein1": w + 0.01 * k, "n_samples": 100, "n_failed": 0}, "gaussian")
               for m, w in (("ela", 0.05), ("rla_f", 0.2)) for k in range(2)]
    for record, _ in records:  # the cost: per sample, and the job's compile time on its first repetition
        record.update(seconds_per_sample=2e-5, compile_s=1.25 if record["repetition"] == 0 else None)
    records += [({"stage": "floor", "posterior": "d2-gaussian", "method": "floor", "repetition": k,
                  "wasserstein1": 0.05 + 0.01 * k, "n_samples": 100, "n_failed": 0}, "gaussian") for k in range(2)]
    # a Table 4 timing of the same posterior (no anchor) is not a run of the leaderboard
    records.append(({"stage": "timing", "posterior": "d2-gaussian", "method": "rla_f", "per_sample_s": 0.01,
                     "batched_s_per_sample": 0.001, "ratio": 10.0}, "gaussian"))
    spec = SPECS["leaderboard"]
    cells = table_cells(spec, tidy_frame(records))
    assert list(cells["method"].unique()) == ["floor", "ela", "rla_f"]
    assert set(cells.loc[cells["method"] != "floor", "anchor"]) == {"euclidean"}
    text = render_markdown(spec, cells, SCALE)
    assert "MC floor" in text and "d2-gaussian -- MC floor" in text
    assert "ms/sample" in text and "compile s" in text
    ela = next(line for line in text.splitlines() if "d2-gaussian euclidean ELA" in line)
    assert "0.020" in ela and "1.2" in ela  # 2e-5 s shown in ms; the compile time of one repetition


def test_the_yu_report_lists_its_tables_comparisons_and_deviations():
    report = read_report_specs(RESOURCES / "tables.yaml")["yu2024"]
    spec, cells = SPECS["yu2024_table2"], None
    cells = table_cells(spec, logreg_runs(), load_paper_values(RESOURCES / "paper_values/yu2024_table2.csv"))
    text = reproduction_report_markdown(report, [(spec, cells)], scale=SCALE, deviations=["One deviation."])
    assert text.startswith("# Reproduction report: Yu et al. (2024)\n")
    assert "| samples | 100 |" in text and "## yu2024_table2" in text
    assert "5 of the 6 with a printed spread lie inside it" in text and "agrees with the paper's in" in text
    assert "Outside the paper's spread: standardised/ripley/rla_b wasserstein1." in text
    assert text.rstrip().endswith("- One deviation.")
    assert reproduction_report_markdown(report, [(spec, cells)], scale=SCALE, deviations=[]).rstrip().endswith("None.")
    with pytest.raises(ValueError, match="has no tables"):
        reproduction_report_markdown(report, [], scale=SCALE, deviations=[])
