"""One file format for every prepared data set: its arrays plus a format tag and metadata, one npz.

Every prepare step writes with :func:`save_prepared` and every reader (posterior builders,
training, prediction) reads with :func:`load_prepared`. A data set registers its name and the
arrays its files must hold (:func:`register_dataset`, next to its preparation code); both
functions check those arrays, and reject a NaN or inf in any floating-point array, naming the
file, the array and the column.

File layout (``numpy.savez``): the data set's arrays under their own names, plus

* ``_format``: the string :data:`FORMAT` (a file without it was not written here);
* ``_metadata``: a JSON object, ``{"dataset": <registered name>, ...}`` plus whatever the
  prepare step records (seed, source file, ...).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from geobayes.io import load_npz, save_npz

__all__ = ["FORMAT", "DatasetSpec", "Prepared", "dataset_spec", "load_prepared", "register_dataset",
           "save_prepared"]

#: Format tag of a prepared data file (bump the version when the layout changes).
FORMAT = "geobayes.prepared/1"
_FORMAT_KEY, _METADATA_KEY = "_format", "_metadata"


@dataclass(frozen=True)
class DatasetSpec:
    """A registered data set: its name and the arrays each of its prepared files holds."""

    name: str
    arrays: tuple[str, ...]
    description: str = ""


_DATASETS: dict[str, DatasetSpec] = {}


def register_dataset(name: str, arrays: tuple[str, ...], description: str = "") -> DatasetSpec:
    """Register the data set ``name`` whose prepared files hold ``arrays`` (at least)."""
    spec = DatasetSpec(name, tuple(arrays), description)
    if name in _DATASETS and _DATASETS[name] != spec:
        raise ValueError(f"data set {name!r} is registered twice with different arrays")
    _DATASETS[name] = spec
    return spec


def dataset_spec(name: str) -> DatasetSpec:
    """The registered data set ``name`` (KeyError listing the registered ones).

    Every module of :mod:`geobayes.data` is imported first, so each registers its data sets
    (a new data set's module needs no list entry anywhere)."""
    import importlib
    import pkgutil

    import geobayes.data

    for module in pkgutil.iter_modules(geobayes.data.__path__):
        importlib.import_module(f"geobayes.data.{module.name}")
    if name not in _DATASETS:
        raise KeyError(f"unknown data set {name!r}; registered: {', '.join(sorted(_DATASETS))}")
    return _DATASETS[name]


@dataclass(frozen=True)
class Prepared(Mapping):
    """A prepared data file: a read-only mapping of its arrays, plus ``dataset`` and ``metadata``."""

    dataset: str
    arrays: dict[str, np.ndarray] = field(repr=False)
    metadata: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> np.ndarray:
        return self.arrays[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.arrays)

    def __len__(self) -> int:
        return len(self.arrays)


def check_finite(arrays: Mapping[str, Any], where: str) -> None:
    """Reject a NaN or inf in any floating-point array, naming ``where``, the array and the column.

    Raises
    ------
    ValueError
        ``<where>: array 'X' column 3 holds 2 NaN/inf value(s) (first at row 17)``.
    """
    for key, value in arrays.items():
        array = np.asarray(value)
        if not np.issubdtype(array.dtype, np.floating) or np.isfinite(array).all():
            continue
        bad = ~np.isfinite(array)
        if array.ndim >= 2:
            column = int(np.argwhere(bad.reshape(array.shape[0], -1).any(axis=0))[0, 0])
            rows = np.flatnonzero(bad.reshape(array.shape[0], -1)[:, column])
            raise ValueError(f"{where}: array {key!r} column {column} holds {rows.size} NaN/inf value(s) "
                             f"(first at row {int(rows[0])})")
        position = f" (first at row {int(np.flatnonzero(bad)[0])})" if array.ndim == 1 else ""
        raise ValueError(f"{where}: array {key!r} holds {int(bad.sum())} NaN/inf value(s){position}")


def _check_arrays(spec: DatasetSpec, arrays: Mapping[str, Any], required: tuple[str, ...], where: str) -> None:
    missing = [k for k in (*spec.arrays, *required) if k not in arrays]
    if missing:
        raise KeyError(f"{where}: data set {spec.name!r} needs the arrays {', '.join(missing)}; "
                       f"found {', '.join(sorted(arrays)) or 'none'}")
    if "X" in arrays and "y" in arrays:
        X, y = np.shape(arrays["X"]), np.shape(arrays["y"])
        if len(X) != 2 or len(y) != 1 or X[0] != y[0]:
            raise ValueError(f"{where}: expected X (n, D) and y (n,), got X {X} and y {y}")
    check_finite(arrays, where)


def save_prepared(path: str | os.PathLike[str], dataset: str, arrays: Mapping[str, Any],
                  metadata: Mapping[str, Any] | None = None) -> Path:
    """Atomically write the prepared data set ``dataset`` (registered) to ``path``.

    Parameters
    ----------
    path
        Output ``.npz`` file.
    dataset
        A registered data set name (:func:`register_dataset`).
    arrays
        The arrays, saved bit for bit under their own names (no leading underscore).
    metadata
        JSON-serialisable facts of the preparation (seed, source file, ...).

    Raises
    ------
    KeyError
        If the data set is unknown or an array it needs is missing.
    ValueError
        If a floating-point array holds a NaN or inf (naming the file, the array and the column).
    """
    spec = dataset_spec(dataset)
    reserved = [k for k in arrays if k.startswith("_")]
    if reserved:
        raise ValueError(f"{path}: array names starting with '_' are reserved, got {reserved}")
    _check_arrays(spec, arrays, (), f"prepared data {os.fspath(path)}")
    tag = json.dumps({"dataset": dataset, **dict(metadata or {})}, sort_keys=True)
    return save_npz(path, **arrays, **{_FORMAT_KEY: np.asarray(FORMAT), _METADATA_KEY: np.asarray(tag)})


def load_prepared(path: str | os.PathLike[str], dataset: str | None = None, required: tuple[str, ...] = ()) -> Prepared:
    """Read a file written by :func:`save_prepared`, checking its tag, arrays and finiteness.

    Parameters
    ----------
    path
        A prepared data file.
    dataset
        If given, the file must hold this data set.
    required
        Arrays the caller needs beyond the data set's registered ones (e.g. ``("X", "y")``).

    Raises
    ------
    ValueError
        If the file has no format tag or another version, holds another data set, or a NaN/inf.
    KeyError
        If an array is missing (naming it and the file).
    """
    where = f"prepared data file {os.fspath(path)}"
    raw = load_npz(path, what="prepared data file")
    if _FORMAT_KEY not in raw:
        raise ValueError(f"{where}: no {_FORMAT_KEY!r} tag; it was not written by geobayes.data.save_prepared "
                         "(rerun the rule that prepares it)")
    if str(raw[_FORMAT_KEY]) != FORMAT:
        raise ValueError(f"{where}: format {str(raw[_FORMAT_KEY])!r}, expected {FORMAT!r} (rerun its prepare rule)")
    metadata = json.loads(str(raw[_METADATA_KEY]))
    name = metadata.pop("dataset")
    if dataset is not None and name != dataset:
        raise ValueError(f"{where}: holds data set {name!r}, expected {dataset!r}")
    arrays = {k: v for k, v in raw.items() if not k.startswith("_")}
    _check_arrays(dataset_spec(name), arrays, tuple(required), where)
    return Prepared(name, arrays, metadata)
