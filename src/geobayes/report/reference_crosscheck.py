"""The cross-check of the NUTS references (NumPyro against Stan) as a section of a reproduction report."""

from __future__ import annotations

import pandas as pd

__all__ = ["PAIR_METHOD", "crosscheck_section"]

#: Method name of the tidy rows that compare the two backends (workflow/scripts/reference_crosscheck.py).
PAIR_METHOD = "numpyro_vs_stan"


def crosscheck_section(tidy: pd.DataFrame) -> list[str]:
    """Markdown lines: which cross-checked references disagree beyond their Monte Carlo floor, and which
    backend's reference failed its own checks (then the comparison is not conclusive).

    Parameters
    ----------
    tidy : pandas.DataFrame
        Tidy rows of the experiment ``reference_crosscheck`` (:mod:`geobayes.report.tidy`).

    Returns
    -------
    list of str
        A heading and either every flagged posterior (W1 between the backends and its ratio to the floor;
        the backend whose checks failed) or the number of references that agree; no lines when nothing
        was cross-checked.
    """
    pair = tidy[tidy["method"] == PAIR_METHOD].pivot_table(index="posterior", columns="metric", values="value")
    if pair.empty:
        return []
    checks = tidy[(tidy["method"] != PAIR_METHOD) & (tidy["metric"] == "passed")]
    failed = checks[checks["value"] < 1].groupby("posterior")["method"].agg(lambda m: " and ".join(sorted(m)))
    flagged = pair[(pair["disagrees"] > 0) | pair.index.isin(failed.index)]
    lines = ["## The references, second opinion", ""]
    if flagged.empty:
        lines.append(f"All {len(pair)} cross-checked NUTS references agree with Stan's within the Monte Carlo floor "
                     f"(largest ratio of W1 between the backends to the floor: {pair['floor_ratio'].max():.2f}; "
                     "tables/reference_crosscheck).")
        return lines
    lines.append(f"**{len(flagged)} of {len(pair)} cross-checked references are flagged** (tables/reference_crosscheck): "
                 "the two backends disagree beyond the Monte Carlo floor, or one of them fails its own checks; "
                 "distances to them are in doubt:")
    lines.append("")
    for posterior, row in flagged.iterrows():
        verdict = "disagree" if row["disagrees"] > 0 else "agree"
        failing = f"; {failed[posterior]} fails its checks" if posterior in failed.index else ""
        lines.append(f"- {posterior}: the backends {verdict} (W1 between them {row['wasserstein1']:.3g}, "
                     f"{row['floor_ratio']:.2f}x the floor){failing}")
    return lines
