"""Published numbers transcribed from the papers, for paper-vs-reproduction tables.

A paper-values file is a small long-format CSV under ``workflow/resources/paper_values/``
with one row per (inputs, dataset, method, metric) and the columns

``inputs,dataset,method,metric,mean,std``

preceded by ``#`` comment lines that cite the source exactly (authors, title, venue, table
and the file of the paper text it was transcribed from). ``std`` is empty where the paper
reports none (e.g. the function-evaluation counts :math:`T` of Yu et al. (2024), Table 2,
and the times per sample of its Table 4).

Files of Yu et al. (2024): ``yu2024_table1.csv`` (banana, Table 1, plus the Empirical
Fisher values of Supp. 16.6), ``yu2024_table2.csv`` (logistic regression),
``yu2024_table4.csv`` (time per sample), ``yu2024_table6.csv`` (Empirical Fisher,
logistic regression) and ``yu2024_squiggle_evaluations.csv`` (:math:`T` of Figs. 4 and 8).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["PAPER_VALUE_COLUMNS", "PAPER_METRICS", "load_paper_values"]

#: Columns of a paper-values file, in order.
PAPER_VALUE_COLUMNS = ("inputs", "dataset", "method", "metric", "mean", "std")

#: Metrics a paper-values file may hold: ``W`` (Wasserstein distance to the reference
#: draws, reported with a std over runs), ``T`` (mean number of function evaluations
#: per sample, reported without a std) and ``seconds`` (wall-clock time per sample,
#: Yu et al. (2024), Table 4, reported without a std).
PAPER_METRICS = ("W", "T", "seconds")

_KEY_COLUMNS = ("inputs", "dataset", "method", "metric")


def load_paper_values(path: str | os.PathLike[str]) -> pd.DataFrame:
    """Load and validate a paper-values CSV (e.g. Yu et al. (2024), Table 2 or Table 4).

    Parameters
    ----------
    path : str or os.PathLike
        CSV file with ``#`` comment lines citing the source and the columns
        ``inputs,dataset,method,metric,mean,std``.

    Returns
    -------
    pandas.DataFrame
        One row per (inputs, dataset, method, metric), in file order; key columns are
        strings, ``mean`` and ``std`` are float64 (``std`` is NaN where the paper gives
        none).

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If the file has no citing ``#`` comment, the columns differ from
        :data:`PAPER_VALUE_COLUMNS`, a key is empty or duplicated, a metric is not one of
        :data:`PAPER_METRICS`, a ``mean`` is missing or not a finite number, a ``std`` is
        negative or not a number, or a ``W`` row has no ``std``. The message names the
        file and the offending rows.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"paper-values file {path} does not exist")
    text = path.read_text(encoding="utf-8")
    if not text.lstrip().startswith("#"):
        raise ValueError(f"paper-values file {path}: must start with '#' comment lines citing the source")
    frame = pd.read_csv(path, comment="#", dtype={name: str for name in _KEY_COLUMNS}, skip_blank_lines=True)
    columns = tuple(str(column).strip() for column in frame.columns)
    if columns != PAPER_VALUE_COLUMNS:
        raise ValueError(
            f"paper-values file {path}: expected columns {','.join(PAPER_VALUE_COLUMNS)}; got {','.join(columns)}"
        )
    if frame.empty:
        raise ValueError(f"paper-values file {path}: holds no rows")
    for column in _KEY_COLUMNS:
        missing = frame[column].isna() | (frame[column].astype(str).str.strip() == "")
        if missing.any():
            rows = (np.flatnonzero(missing.to_numpy()) + 1).tolist()
            raise ValueError(f"paper-values file {path}: empty '{column}' in data rows {rows}")
        frame[column] = frame[column].astype(str).str.strip()
    bad_metric = ~frame["metric"].isin(PAPER_METRICS)
    if bad_metric.any():
        found = sorted(set(frame.loc[bad_metric, "metric"]))
        raise ValueError(f"paper-values file {path}: metric must be one of {list(PAPER_METRICS)}; got {found}")
    for column in ("mean", "std"):
        values = pd.to_numeric(frame[column], errors="coerce")
        not_numeric = values.isna() & frame[column].notna()
        if not_numeric.any():
            rows = frame.loc[not_numeric, list(_KEY_COLUMNS) + [column]].to_dict("records")
            raise ValueError(f"paper-values file {path}: non-numeric '{column}' in {rows}")
        frame[column] = values.astype(np.float64)
    if not np.isfinite(frame["mean"].to_numpy()).all():
        rows = frame.loc[~np.isfinite(frame["mean"].to_numpy()), list(_KEY_COLUMNS)].to_dict("records")
        raise ValueError(f"paper-values file {path}: missing or non-finite 'mean' in {rows}")
    if (frame["std"] < 0).any():
        rows = frame.loc[frame["std"] < 0, list(_KEY_COLUMNS)].to_dict("records")
        raise ValueError(f"paper-values file {path}: negative 'std' in {rows}")
    w_without_std = (frame["metric"] == "W") & frame["std"].isna()
    if w_without_std.any():
        rows = frame.loc[w_without_std, list(_KEY_COLUMNS)].to_dict("records")
        raise ValueError(f"paper-values file {path}: metric W needs a 'std'; missing in {rows}")
    duplicated = frame.duplicated(list(_KEY_COLUMNS), keep=False)
    if duplicated.any():
        rows = frame.loc[duplicated, list(_KEY_COLUMNS)].drop_duplicates().to_dict("records")
        raise ValueError(f"paper-values file {path}: duplicated keys {rows}")
    return frame.reset_index(drop=True)
