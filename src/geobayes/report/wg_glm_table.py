"""The cited-CSV reader that :mod:`geobayes.report.bnn_table` still imports.

Hartmann et al. (2026)'s Table 1 is now the spec entry ``hartmann2026_table1`` of
``workflow/resources/tables.yaml`` (rendered by :mod:`geobayes.report.tables`; its paper values
are read by :func:`geobayes.report.paper_values.load_paper_values`). Only
:func:`read_cited_csv` is left here, for ``bnn_table``'s own paper-values file; this module goes
when that table moves onto the results layer.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

__all__ = ["read_cited_csv"]


def read_cited_csv(path: str | os.PathLike[str], columns: Sequence[str], what: str) -> pd.DataFrame:
    """Read a transcribed paper-values CSV that opens with ``#`` lines citing its source.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    columns : sequence of str
        The exact columns expected, in order.
    what : str
        What the file is, for error messages (e.g. ``"Hartmann et al. (2026), Table 1"``).

    Returns
    -------
    pandas.DataFrame
        The rows (comment lines skipped), columns as in the file.

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    ValueError
        If the file does not start with a ``#`` comment, its columns differ from
        ``columns``, or it holds no rows. The message names the file.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"paper-values file {path} ({what}) does not exist")
    if not path.read_text(encoding="utf-8").lstrip().startswith("#"):
        raise ValueError(f"paper-values file {path} ({what}): must start with '#' comment lines citing the source")
    frame = pd.read_csv(path, comment="#", skip_blank_lines=True)
    found = tuple(str(c).strip() for c in frame.columns)
    if found != tuple(columns):
        raise ValueError(f"paper-values file {path} ({what}): expected columns {','.join(columns)}; "
                         f"got {','.join(found)}")
    if frame.empty:
        raise ValueError(f"paper-values file {path} ({what}): holds no rows")
    return frame
