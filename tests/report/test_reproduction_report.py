"""Tests of geobayes.report.reproduction_report: the Markdown reproduction report."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from geobayes.report.comparison import FLAG_MARK, aggregate_long, compare_long, comparison_markdown
from geobayes.report.paper_values import load_paper_values
from geobayes.report.reproduction_report import ReportSection, reproduction_report_markdown

PAPER_VALUES = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values"
CITATION = ('Yu, Hartmann, Williams, Girolami, Klami, "Riemannian Laplace Approximation with the Fisher Metric", '
            "AISTATS 2024")
SCALE = {"approximation samples per run": 10000, "repetitions": 5, "reference draws": 20000,
         "step cap": 4096, "rtol": 1e-3, "data sets": ["ripley", "pima"], "float64": True}
DEVIATIONS = ["NumPyro NUTS instead of Stan for the reference draws.", "float64 throughout."]


def squiggle_section():
    paper = load_paper_values(PAPER_VALUES / "yu2024_squiggle_evaluations.csv")
    summary = pd.DataFrame({"inputs": ["easy", "easy", "difficult"], "dataset": "squiggle",
                            "method": ["rla_b", "rla_f", "rla_f"], "T": [80.0, 30.0, 45.0],
                            "n_failed": [2, 0, 0], "n_samples": [10000, 10000, 10000]})
    keys = ["inputs", "dataset", "method"]
    comparison = compare_long(aggregate_long(summary, keys, {"T": "T"}), paper, keys=keys)
    body = comparison_markdown(comparison, title="Squiggle T", keys=keys, caption="T per sample, one run.")
    return ReportSection("Figs. 4 and 8: squiggle", "Evaluations per sample of the runs shown.", body)


def banana_section():
    paper = load_paper_values(PAPER_VALUES / "yu2024_table1.csv")
    summary = pd.DataFrame({"inputs": "hausdorff", "dataset": "banana", "method": "rla_f",
                            "wasserstein1": [0.30, 0.32], "n_failed": 0, "n_samples": 100})
    keys = ["inputs", "dataset", "method"]
    comparison = compare_long(aggregate_long(summary, keys, {"W": "wasserstein1"}), paper, keys=keys)
    body = comparison_markdown(comparison, title="Banana W", keys=keys, caption="W1 to NUTS.")
    return ReportSection("Table 1: banana", "", body)


def test_report_opens_with_scale_then_sections_then_deviations():
    sections = [banana_section(), squiggle_section()]
    text = reproduction_report_markdown(sections, paper_citation=CITATION, deviations=DEVIATIONS, scale=SCALE)
    lines = text.splitlines()
    assert lines[0] == "# Reproduction report"
    assert CITATION in lines[2]
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## Run scale", "## Table 1: banana", "## Figs. 4 and 8: squiggle", "## Deliberate deviations"]
    assert "| approximation samples per run | 10,000 |" in lines
    assert "| reference draws | 20,000 |" in lines and "| rtol | 0.001 |" in lines
    assert "| data sets | ripley, pima |" in lines and "| float64 | yes |" in lines
    assert lines[-2:] == [f"- {DEVIATIONS[0]}", f"- {DEVIATIONS[1]}"]
    assert text.endswith("\n") and not text.endswith("\n\n")
    # Our values beside the paper's, with the flag: banana RLA-F 0.31 vs 0.143 +- 0.009 is far.
    banana = text.split("## Table 1: banana", 1)[1].split("## Figs.", 1)[0]
    row = next(line for line in banana.splitlines() if "| hausdorff | banana | RLA-F | W |" in line)
    assert "0.31 ± 0.01" in row and "0.143 ± 0.009" in row and FLAG_MARK in row
    squiggle = text.split("## Figs. 4 and 8: squiggle", 1)[1]
    assert squiggle.lstrip().startswith("Evaluations per sample of the runs shown.")
    assert "2 of 10,000 failed" in squiggle and "| difficult | squiggle | RLA-B | T | not run | 300 |" in squiggle
    assert "| easy | squiggle | RLA-F | T | 30 | 32 | -2 | 0.9375 |" in squiggle  # one run: no std shown
    assert "2·max" not in squiggle  # T only: nothing can be flagged, so no flag legend


def test_report_is_deterministic_and_lists_no_deviation_as_none():
    sections = [squiggle_section()]
    first = reproduction_report_markdown(sections, paper_citation=CITATION, deviations=[], scale={"repetitions": 5})
    second = reproduction_report_markdown(sections, paper_citation=CITATION, deviations=(), scale={"repetitions": 5})
    assert first == second
    assert first.rstrip().endswith("## Deliberate deviations\n\nNone.")


def test_bad_input_is_rejected_with_a_clear_message():
    section = squiggle_section()
    good = {"paper_citation": CITATION, "deviations": DEVIATIONS, "scale": SCALE}
    with pytest.raises(ValueError, match="at least one ReportSection"):
        reproduction_report_markdown([], **good)
    with pytest.raises(ValueError, match="must be ReportSection"):
        reproduction_report_markdown([section, "text"], **good)
    with pytest.raises(ValueError, match="unique"):
        reproduction_report_markdown([section, section], **good)
    with pytest.raises(ValueError, match="paper_citation"):
        reproduction_report_markdown([section], **{**good, "paper_citation": ""})
    with pytest.raises(ValueError, match="scale"):
        reproduction_report_markdown([section], **{**good, "scale": {}})
    with pytest.raises(ValueError, match="not one string"):
        reproduction_report_markdown([section], **{**good, "deviations": "float64"})
    with pytest.raises(ValueError, match="non-empty string"):
        reproduction_report_markdown([section], **{**good, "deviations": ["ok", " "]})
    with pytest.raises(ValueError, match="ReportSection.title"):
        ReportSection("", "d", "body")
    with pytest.raises(ValueError, match="ReportSection.body"):
        ReportSection("t", "d", "  ")
    with pytest.raises(ValueError, match="one line"):
        ReportSection("a\nb", "d", "body")
