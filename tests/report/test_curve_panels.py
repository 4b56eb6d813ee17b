"""The curve-panel figure of Liu & Zhu's (2018) Figs. 1 and 2 (geobayes.report.curve_panels)."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.report.curve_panels import Curves, curve_panels_figure


def test_panels_share_one_colour_per_method_and_draw_mean_and_band():
    x = np.arange(5.0)
    panels = {"one": {"a": Curves(x, np.stack([x, x + 2])), "b": Curves(x, x[None] * 0)},
              "two": {"b": Curves(x, x[None]), "a": Curves(x, np.stack([x, x]))}}
    fig = curve_panels_figure(panels, {"a": "A", "b": "B"}, xlabel={"one": "iteration", "two": "particles"},
                              ylabel="y", log_x=["two"])
    first, second = fig.axes
    colours = [{line.get_label(): line.get_color() for line in ax.get_lines()} for ax in (first, second)]
    assert colours[0] == colours[1]  # the same method, the same colour, whatever the panel's order
    np.testing.assert_allclose(first.get_lines()[0].get_ydata(), x + 1)  # the mean over runs
    assert second.get_xscale() == "log" and first.get_xscale() == "linear"
    assert (first.get_xlabel(), second.get_xlabel()) == ("iteration", "particles")


def test_mismatched_shapes_are_one_line_naming_the_panel_and_method():
    with pytest.raises(ValueError, match=r"^one, a: expected x of shape \(points,\) and values of shape"):
        curve_panels_figure({"one": {"a": Curves(np.arange(3.0), np.zeros((2, 4)))}}, {}, xlabel="x", ylabel="y")
