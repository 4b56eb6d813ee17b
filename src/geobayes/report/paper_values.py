"""Published numbers transcribed from the papers, in the long form of our tidy results.

Every paper value of every paper lives in ``workflow/resources/paper_values/*.csv`` with one
row per (experiment, posterior, anchor, method, metric) and the columns of
:data:`PAPER_VALUE_COLUMNS`: the same keys and metric names as our tidy results
(:mod:`geobayes.report.tidy`), so ours and the paper's join on their keys alone. ``spread`` is
the paper's spread of ``mean`` (``spread_kind``: ``std`` over runs, ``se`` standard error, or
``none`` where the paper prints a single number, e.g. function-evaluation counts and
timings); ``source`` names the table or figure. Each file opens with ``#`` lines citing the
paper and the lines of its text the numbers were transcribed from. ``anchor`` is empty
where the paper's number does not depend on one.

This is the one loader of paper values; tables and reports put them beside ours, never in
place of ours.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["PAPER_VALUE_COLUMNS", "SPREAD_KINDS", "load_paper_values"]

#: Columns of a paper-values file, in order.
PAPER_VALUE_COLUMNS = ("experiment", "posterior", "anchor", "method", "metric", "mean", "spread", "spread_kind",
                       "source")

#: What ``spread`` is: standard deviation over runs, standard error, or none printed.
SPREAD_KINDS = ("std", "se", "none")

_KEYS = ("experiment", "posterior", "anchor", "method", "metric")
_TEXT = (*_KEYS, "spread_kind", "source")


def _fail(path: Path, message: str) -> ValueError:
    return ValueError(f"paper-values file {path}: {message}")


def _rows(frame: pd.DataFrame, mask) -> list[dict]:
    return frame.loc[mask, list(_KEYS)].to_dict("records")


def _load_one(path: Path) -> pd.DataFrame:
    if not path.is_file():
        raise FileNotFoundError(f"paper-values file {path} does not exist")
    if not path.read_text(encoding="utf-8").lstrip().startswith("#"):
        raise _fail(path, "must start with '#' comment lines citing the source")
    frame = pd.read_csv(path, comment="#", dtype={name: str for name in _TEXT}, keep_default_na=False,
                        skip_blank_lines=True)
    columns = tuple(str(column).strip() for column in frame.columns)
    if columns != PAPER_VALUE_COLUMNS:
        raise _fail(path, f"expected columns {','.join(PAPER_VALUE_COLUMNS)}; got {','.join(columns)}")
    if frame.empty:
        raise _fail(path, "holds no rows")
    for column in _TEXT:
        frame[column] = frame[column].astype(str).str.strip()
    for column in ("experiment", "posterior", "method", "metric", "spread_kind", "source"):
        empty = frame[column] == ""
        if empty.any():
            raise _fail(path, f"empty '{column}' in data rows {(np.flatnonzero(empty.to_numpy()) + 1).tolist()}")
    bad_kind = ~frame["spread_kind"].isin(SPREAD_KINDS)
    if bad_kind.any():
        raise _fail(path, f"spread_kind must be one of {list(SPREAD_KINDS)}; got "
                          f"{sorted(set(frame.loc[bad_kind, 'spread_kind']))}")
    for column in ("mean", "spread"):
        text = frame[column].astype(str).str.strip()
        values = pd.to_numeric(text.replace("", np.nan), errors="coerce")
        not_numeric = values.isna() & (text != "")
        if not_numeric.any():
            raise _fail(path, f"non-numeric '{column}' in {_rows(frame, not_numeric)}")
        frame[column] = values.astype(np.float64)
    if not np.isfinite(frame["mean"].to_numpy()).all():
        raise _fail(path, f"missing or non-finite 'mean' in {_rows(frame, ~np.isfinite(frame['mean']))}")
    has_spread = frame["spread"].notna()
    wrong = has_spread != (frame["spread_kind"] != "none")
    if wrong.any():
        raise _fail(path, f"a spread is given exactly where spread_kind is not 'none'; violated in {_rows(frame, wrong)}")
    if (frame["spread"] < 0).any():
        raise _fail(path, f"negative 'spread' in {_rows(frame, frame['spread'] < 0)}")
    duplicated = frame.duplicated(list(_KEYS), keep=False)
    if duplicated.any():
        raise _fail(path, f"duplicated keys {frame.loc[duplicated, list(_KEYS)].drop_duplicates().to_dict('records')}")
    return frame


def load_paper_values(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> pd.DataFrame:
    """Load and validate one or more paper-values files into one long frame.

    Parameters
    ----------
    paths : path or sequence of paths
        CSV files with ``#`` comment lines citing the source and the columns
        :data:`PAPER_VALUE_COLUMNS`.

    Returns
    -------
    pandas.DataFrame
        The rows of every file in file order; key columns are strings (``anchor`` ``""``
        where the value holds for any anchor), ``mean`` and ``spread`` float64 (``spread``
        NaN where ``spread_kind`` is ``none``).

    Raises
    ------
    FileNotFoundError
        If a file does not exist.
    ValueError
        Naming the file and rows: no citing comment, other columns, an empty key, an unknown
        ``spread_kind``, a non-numeric or non-finite ``mean``, a spread missing where its kind
        says one is printed (or present where it says none), a negative spread, or a key
        given twice (also across files).
    """
    paths = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    if not paths:
        raise ValueError("load_paper_values needs at least one file")
    frame = pd.concat([_load_one(Path(path)) for path in paths], ignore_index=True)
    duplicated = frame.duplicated(list(_KEYS), keep=False)
    if duplicated.any():
        names = ", ".join(map(str, paths))
        raise ValueError(f"paper-values files {names}: a key is given in two files: "
                         f"{frame.loc[duplicated, list(_KEYS)].drop_duplicates().to_dict('records')}")
    return frame
