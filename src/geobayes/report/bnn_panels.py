"""Figure panels from the pipeline's network prediction files (``results/prediction/...npz``)."""

from __future__ import annotations

import os

from geobayes.io import load_npz
from geobayes.report.bnn_figures import FunctionPanel

#: Display names of the methods in the papers' figures.
METHOD_LABELS = {
    "ela": "ELA", "rla_b": "RLA-B", "rla_blog": "RLA-BLog", "rla_f": "RLA-F", "nuts": "NUTS", "wg": "WG",
    # Bergamin et al. (2023)'s names for the same methods on networks.
    "lin_ela": "lin-LA", "lin_rla_b": "lin-riem-LA", "rla_b_batched": "riem-LA (batches)",
    "lin_rla_b_batched": "lin-riem-LA (batches)",
}


def load_panel(path: str | os.PathLike[str], title: str, note: str = "") -> FunctionPanel | None:
    """A :class:`FunctionPanel` of one prediction file: function samples on the grid, the
    training data (original scale) and the per-sample noise std; None if every sample failed
    (the file then holds no ``f_grid``), so the figure leaves the cell blank."""
    arrays = load_npz(path, required=("grid", "X_train", "y_train"), what="network prediction file")
    if "f_grid" not in arrays:
        return None
    return FunctionPanel(title=title, x=arrays["grid"], f_samples=arrays["f_grid"], x_train=arrays["X_train"],
                         y_train=arrays["y_train"], noise_std=arrays["noise_std"], note=note)
