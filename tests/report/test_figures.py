"""Tests of geobayes.report.figures: the logistic-regression figure from a table's cells, written as PDF and PNG."""

import dataclasses
from pathlib import Path

import matplotlib
import pytest

from geobayes.report.figures import logreg_figure, save_figure, set_style
from geobayes.report.paper_values import load_paper_values
from geobayes.report.table_spec import read_table_specs
from geobayes.report.tables import table_cells
from geobayes.report.tidy import tidy_frame

RESOURCES = Path(__file__).resolve().parents[2] / "workflow/resources"
SPEC = read_table_specs(RESOURCES / "tables.yaml")["yu2024_table2"]
PAPER = load_paper_values(RESOURCES / "paper_values/yu2024_table2.csv")


def make_cells(cells, methods=("ela", "rla_b", "rla_f"), seeds=2, paper=True):
    records = []
    for inputs, dataset in cells:
        for k, method in enumerate(methods):
            for seed in range(seeds):
                records.append(({"stage": "evaluation", "posterior": f"{dataset}_{inputs}-logreg", "anchor": "euclidean",
                                 "method": method, "repetition": seed, "wasserstein1": 0.1 * (k + 1) + 0.01 * seed,
                                 "T": None if method == "ela" else 10.0 ** (k + 1), "n_samples": 50,
                                 "n_failed": 3 if (method == "rla_b" and seed == 0) else 0}, "logreg"))
    return table_cells(SPEC, tidy_frame(records), PAPER if paper else None)


def test_figure_writes_nonempty_pdf_and_png(tmp_path):
    set_style()
    assert matplotlib.get_backend().lower() == "agg"
    cells = make_cells([("standardised", "ripley"), ("standardised", "pima"), ("raw", "heart")])
    fig = logreg_figure(cells, ["ela", "rla_b", "rla_f"], rows=SPEC.rows)
    assert len(fig.axes) == 4
    assert [ax.get_yscale() for ax in fig.axes] == ["linear", "linear", "log", "log"]
    # the paper's W (hollow diamonds) are drawn beside ours
    assert any(line.get_marker() == "D" for line in fig.axes[0].get_lines())
    pdf, png = save_figure(fig, tmp_path / "figs" / "logreg.pdf", tmp_path / "figs" / "logreg.png")
    assert pdf.read_bytes()[:4] == b"%PDF" and pdf.stat().st_size > 1000
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 1000
    assert not list((tmp_path / "figs").glob(".*.tmp"))


def test_figure_shows_only_present_inputs_without_paper():
    fig = logreg_figure(make_cells([("raw", "german")], methods=("ela", "rla_f"), paper=False), ["ela", "rla_f"],
                        rows=SPEC.rows)
    assert len(fig.axes) == 2
    assert fig.axes[0].get_title() == "raw"
    assert not any(line.get_marker() == "D" for line in fig.axes[0].get_lines())
    with pytest.raises(ValueError, match=r"methods \['rla_b'\] have no results"):
        logreg_figure(make_cells([("raw", "german")], methods=("ela",)), ["ela", "rla_b"], rows=SPEC.rows)


def test_save_figure_skips_an_absent_copy_and_checks_every_suffix_before_writing(tmp_path):
    """An optional PNG copy passed as None is skipped; one bad suffix among the destinations
    refuses the call before any file is written; no destination at all is an error."""
    fig = logreg_figure(make_cells([("raw", "german")]), ["ela", "rla_b", "rla_f"], rows=SPEC.rows)
    assert save_figure(fig, tmp_path / "only.svg", None) == (tmp_path / "only.svg",)
    assert (tmp_path / "only.svg").read_bytes().lstrip()[:5] in (b"<?xml", b"<svg ")
    with pytest.raises(ValueError, match="must end in one of"):
        save_figure(fig, tmp_path / "first.pdf", tmp_path / "second.jpeg")
    assert not (tmp_path / "first.pdf").exists()
    with pytest.raises(ValueError, match="no destination"):
        save_figure(fig, None)


def test_leaderboard_figure_has_a_panel_per_distance_and_the_floor_band():
    from geobayes.report.leaderboard_figure import leaderboard_figure

    records = [({"stage": "evaluation", "posterior": p, "anchor": "euclidean", "method": m, "repetition": k,
                 metric: w * (1 + 0.1 * k), "n_samples": 100, "n_failed": 0}, "e")
               for p, metric in (("d2-gaussian", "wasserstein1"), ("neal-funnel", "wasserstein2"))
               for m, w in (("ela", 0.3), ("wg", 0.05)) for k in range(2)]
    records += [({"stage": "floor", "posterior": p, "method": "floor", "repetition": k, metric: 0.05,
                  "n_samples": 100, "n_failed": 0}, "e")
                for p, metric in (("d2-gaussian", "wasserstein1"), ("neal-funnel", "wasserstein2")) for k in range(2)]
    spec = read_table_specs(RESOURCES / "tables.yaml")["leaderboard"]
    cells = table_cells(dataclasses.replace(spec, experiments=("e",)), tidy_frame(records))
    fig = leaderboard_figure(cells)
    assert len(fig.axes) == 2 and all(ax.get_xscale() == "log" for ax in fig.axes)
    assert all(len(ax.collections) == 1 for ax in fig.axes)  # one floor band per posterior
    with pytest.raises(ValueError, match="hold no distance"):
        leaderboard_figure(cells[cells["metric"] == "T"])
