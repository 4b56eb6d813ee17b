"""Tests of geobayes.report.figures: the logistic-regression figure is written as PDF and PNG."""

from pathlib import Path

import matplotlib
import pandas as pd
import pytest

from geobayes.report.figures import logreg_figure, save_figure, set_style
from geobayes.report.logreg_table import aggregate_logreg
from geobayes.report.paper_values import load_paper_values

TABLE2 = Path(__file__).resolve().parents[2] / "workflow/resources/paper_values/yu2024_table2.csv"


def make_summary(cells, methods=("ela", "rla_b", "rla_f"), seeds=2):
    rows = []
    for inputs, dataset in cells:
        for k, method in enumerate(methods):
            for seed in range(seeds):
                rows.append({"dataset": dataset, "inputs": inputs, "posterior": f"{dataset}_{inputs}-logreg",
                             "method": method, "seed": seed, "wasserstein1": 0.1 * (k + 1) + 0.01 * seed,
                             "T": 0.0 if method == "ela" else 10.0 ** (k + 1), "n_samples": 50,
                             "n_failed": 3 if (method == "rla_b" and seed == 0) else 0,
                             "failed_fraction": 0.0, "mean_steps": 1.0})
    return pd.DataFrame(rows)


def test_figure_writes_nonempty_pdf_and_png(tmp_path):
    set_style()
    assert matplotlib.get_backend().lower() == "agg"
    agg = aggregate_logreg(make_summary([("standardised", "ripley"), ("standardised", "pima"), ("raw", "heart")]))
    fig = logreg_figure(agg, ["ela", "rla_b", "rla_f"], paper=load_paper_values(TABLE2))
    assert len(fig.axes) == 4
    assert [ax.get_yscale() for ax in fig.axes] == ["linear", "linear", "log", "log"]
    pdf, png = save_figure(fig, tmp_path / "figs" / "logreg.pdf", tmp_path / "figs" / "logreg.png")
    assert pdf.read_bytes()[:4] == b"%PDF" and pdf.stat().st_size > 1000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 1000
    assert not list((tmp_path / "figs").glob(".*.tmp"))


def test_figure_shows_only_present_inputs_without_paper():
    agg = aggregate_logreg(make_summary([("raw", "german")], methods=("ela", "rla_f")))
    fig = logreg_figure(agg, ["ela", "rla_f"])
    assert len(fig.axes) == 2
    assert fig.axes[0].get_title() == "raw inputs"


def test_save_figure_skips_an_absent_copy_and_checks_every_suffix_before_writing(tmp_path):
    """An optional PNG copy passed as None is skipped; one bad suffix among the destinations
    refuses the call before any file is written; no destination at all is an error."""
    fig = logreg_figure(aggregate_logreg(make_summary([("raw", "german")])), ["ela", "rla_b", "rla_f"])
    assert save_figure(fig, tmp_path / "only.svg", None) == (tmp_path / "only.svg",)
    assert (tmp_path / "only.svg").read_bytes().lstrip()[:5] in (b"<?xml", b"<svg ")
    with pytest.raises(ValueError, match="must end in one of"):
        save_figure(fig, tmp_path / "first.pdf", tmp_path / "second.jpeg")
    assert not (tmp_path / "first.pdf").exists()
    with pytest.raises(ValueError, match="no destination"):
        save_figure(fig, None)
