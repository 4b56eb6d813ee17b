"""The cross-check of the NUTS references (NumPyro against Stan) as a section of a reproduction report."""

from __future__ import annotations

import pandas as pd

__all__ = ["PAIR_METHOD", "crosscheck_section"]

#: Method name of the tidy rows that compare the two backends (workflow/scripts/reference_crosscheck.py).
PAIR_METHOD = "numpyro_vs_stan"


def crosscheck_section(tidy: pd.DataFrame) -> list[str]:
    """Markdown lines: which cross-checked references disagree beyond their Monte Carlo floor.

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy rows of the experiment ``reference_crosscheck`` (:mod:`geobayes.report.tidy`).

    Returns
    -------
    list of str
        A heading and either every disagreeing posterior (W1 between the backends and its ratio to
        the floor) or the number of references that agree; no lines when nothing was cross-checked.
    """
    pair = tidy[tidy["method"] == PAIR_METHOD].pivot_table(index="posterior", columns="metric", values="value")
    if pair.empty:
        return []
    flagged = pair[pair["disagrees"] > 0]
    lines = ["## The references, second opinion", ""]
    if flagged.empty:
        lines.append(f"All {len(pair)} cross-checked NUTS references agree with Stan's within the Monte Carlo floor "
                     f"(largest ratio of W1 between the backends to the floor: {pair['floor_ratio'].max():.2f}; "
                     "tables/reference_crosscheck).")
        return lines
    lines.append(f"**{len(flagged)} of {len(pair)} cross-checked references disagree with Stan's beyond the Monte Carlo "
                 "floor** (tables/reference_crosscheck); distances to them are in doubt:")
    lines.append("")
    lines += [f"- {posterior}: W1 between the backends {row['wasserstein1']:.3g}, {row['floor_ratio']:.2f}x the floor"
              for posterior, row in flagged.iterrows()]
    return lines
