"""Logistic population-growth data for Fig. 4 of Hartmann et al. (2026).

Hartmann et al. (2026), Sec. 5, Fig. 4 (notes E5 and Sec. 6.2 item 9) fit the logistic
growth model ``C(t) = C0 K / (C0 + (K - C0) exp(-r t))`` with Gaussian noise to data that
"can be found in Sharp et al. (2022, Figure 9)", a scenario "crafted to induce an
'unusual' geometry of the posterior". Sharp et al.'s repository (``Jesse-Sharp/Sharp2021b``,
folder "Logistic growth model/") holds several data sets; the data mirror has them under
``logistic_growth/``:

* ``LogisticData_highcurvature.csv`` -- **the one we use** (:data:`GROWTH_FILE`): the
  synthetic "high curvature" design of Sharp et al., 30 points, 10 observations at each of
  the three times 1000, 2500 and 4000 days (given in years: 2.7379, 6.8446, 10.9514),
  simulated with ``r = 0.9``, ``C0 = 0.2``, ``K = 79.74``, ``sigma = 2.301``. No header,
  two columns: time [years], observation. We choose it because the paper calls its
  scenario "crafted to induce an unusual geometry", which fits a synthetic design chosen
  for high posterior curvature and not the real data.
* ``Logistic_data.csv`` -- 11 real coral-cover observations (AIMS), header ``time,data``,
  time in DAYS (0..4028), CRLF line endings. Readable with the same function.

Note that the high-curvature observations include negative values (the noise,
``sigma = 2.3``, is large compared with ``C(t)`` near ``C0 = 0.2`` at the first time); the
Gaussian likelihood allows this, so the values are kept as they are.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

import numpy as np

from geobayes.data.prepared import register_dataset

__all__ = [
    "GROWTH_FILE",
    "GrowthData",
    "load_growth_csv",
]

#: Mirror / registry path of the data set used for Fig. 4 (see the module docstring).
GROWTH_FILE = "logistic_growth/LogisticData_highcurvature.csv"

_GROWTH_KEYS = ("X", "y", "source")


class GrowthData(NamedTuple):
    """Observation times and values of the logistic-growth data (Fig. 4).

    Attributes
    ----------
    t : numpy.ndarray, shape (n,)
        Observation times, float64, in the unit of the source file.
    y : numpy.ndarray, shape (n,)
        Observations, float64.
    source : str
        Where the data came from (e.g. the mirror path of the CSV file).
    """

    t: np.ndarray
    y: np.ndarray
    source: str

    def arrays(self) -> dict[str, np.ndarray]:
        """The arrays of the prepared file: ``X`` = ``t[:, None]`` (shape (n, 1), the model's
        only input), ``y`` and ``source`` (a NumPy unicode scalar).

        Raises
        ------
        ValueError
            If ``t`` and ``y`` are not 1-D of the same non-zero length, or ``source`` is not a string.
        """
        t = np.asarray(self.t, dtype=np.float64)
        y = np.asarray(self.y, dtype=np.float64)
        if t.ndim != 1 or t.size == 0 or y.shape != t.shape:
            raise ValueError(f"t and y must be non-empty 1-D arrays of the same length; got t {t.shape}, y {y.shape}")
        if not isinstance(self.source, str):
            raise ValueError(f"source must be a string; got {type(self.source).__name__}")
        return {"X": t[:, None], "y": y, "source": np.asarray(self.source, dtype=np.str_)}


#: Prepared growth data of Hartmann et al. (2026), Fig. 4: data/prepared/growth/.
GROWTH_DATASET = register_dataset("growth", _GROWTH_KEYS, "observation times (X, one column) and values")


def _parse_float(token: str) -> float | None:
    try:
        return float(token)
    except ValueError:
        return None


def load_growth_csv(path: str | os.PathLike[str]) -> tuple[np.ndarray, np.ndarray]:
    """Read a two-column CSV of Sharp et al. (Hartmann et al. 2026, Fig. 4 data).

    The first non-blank line is a header if any of its fields is not a number (as in
    ``Logistic_data.csv``: ``time,data``); otherwise the file has no header (as in
    ``LogisticData_highcurvature.csv``). Every other non-blank line must hold exactly two
    numbers separated by a comma. Windows line endings and surrounding spaces are accepted.
    Times are returned in the file's unit (years for the ``LogisticData_*`` files, days for
    ``Logistic_data.csv``).

    Parameters
    ----------
    path : str or os.PathLike
        CSV file.

    Returns
    -------
    t : numpy.ndarray, shape (n,)
        First column (time), float64.
    y : numpy.ndarray, shape (n,)
        Second column (observation), float64.

    Raises
    ------
    ValueError
        If a line does not hold two fields, a data field is not a finite number, or there
        are no data rows; the message names the file and the (1-based) line.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not a text CSV file ({error})") from error
    times: list[float] = []
    values: list[float] = []
    seen_first = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 2:
            raise ValueError(
                f"{path}, line {number}: expected 2 comma-separated columns (time, "
                f"observation); got {len(fields)}: {line.strip()!r}"
            )
        parsed = [_parse_float(field) for field in fields]
        if not seen_first:
            seen_first = True
            if any(value is None for value in parsed):
                continue  # header line, e.g. "time,data"
        if any(value is None for value in parsed):
            raise ValueError(
                f"{path}, line {number}: expected two numbers; got {line.strip()!r}"
            )
        if not all(np.isfinite(parsed)):
            raise ValueError(f"{path}, line {number}: non-finite value in {line.strip()!r}")
        times.append(parsed[0])
        values.append(parsed[1])
    if not times:
        raise ValueError(f"{path}: contains no data rows")
    return np.asarray(times, dtype=np.float64), np.asarray(values, dtype=np.float64)
