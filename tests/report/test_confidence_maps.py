"""Bergamin et al. (2023), Figs. 6, D.5, D.6: the confidence maps draw checked grid predictives."""

import numpy as np
import pytest

from geobayes.report.confidence_maps import ConfidencePanel, confidence_map_figure
from geobayes.report.figures import save_figure


def _panel(g=6, classes=2):
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(classes), size=g * g)
    return ConfidencePanel(np.linspace(-2, 2, g), p, rng.normal(size=(10, 2)), rng.integers(0, classes, 10))


def test_figure_has_a_panel_per_method_and_prior(tmp_path):
    panels = {(m, p): _panel() for m in ("ela", "rla_b") for p in ("optimised", "fixed")}
    del panels[("rla_b", "fixed")]  # a method without draws leaves its panel empty
    fig = confidence_map_figure(panels, ["ela", "rla_b"], ["optimised", "fixed"], prior_labels={"fixed": "not opt."})
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert "ELA, not opt." in titles and "RLA-B, not opt.: no draws" in titles
    (path,) = save_figure(fig, tmp_path / "maps.pdf")
    assert path.stat().st_size > 0


@pytest.mark.parametrize("change, match", [
    (lambda p: ConfidencePanel(p.axis, p.probabilities[:-1], p.X_train, p.y_train), r"must be \(36, C >= 2\)"),
    (lambda p: ConfidencePanel(p.axis, p.probabilities * 2, p.X_train, p.y_train), "do not sum to 1"),
    (lambda p: ConfidencePanel(p.axis, np.where(p.probabilities > 0.5, np.nan, p.probabilities), p.X_train,
                               p.y_train), "non-finite grid probabilities"),
    (lambda p: ConfidencePanel(p.axis, p.probabilities, p.X_train[:, :1], p.y_train), r"training points must be \(N, 2\)"),
])
def test_malformed_grids_are_named(change, match):
    with pytest.raises(ValueError, match=f"confidence map ela/fixed: .*{match}"):
        confidence_map_figure({("ela", "fixed"): change(_panel())}, ["ela"], ["fixed"])
