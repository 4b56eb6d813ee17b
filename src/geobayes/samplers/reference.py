"""Reference posterior draws with recorded diagnostics and explicit pass/fail checks.

A *reference* is the ground truth that every approximation is compared with (Yu et al.
(2024), Sec. 2.0 of the reproduction notes: NUTS with the posteriordb reference settings).
Following posteriordb (Magnusson et al., "posteriordb: testing, benchmarking and
developing Bayesian inference algorithms", 2024; reference posterior criteria in its
``reference_posteriors/info``) the record stores the method arguments, the seed, the
diagnostics and a dictionary of explicit boolean checks, and evaluation refuses a
reference whose checks fail (:func:`require_passing`).

The checks use the thresholds of :class:`ReferenceChecks` with inclusive bounds:

* ``r_hat_below_<x>``: max over parameters of R-hat (max of bulk and folded, Vehtari et
  al. 2021) ``<= x``;
* ``ess_bulk_above_<n>`` / ``ess_tail_above_<n>``: min over parameters ``>= n``;
* ``divergences_at_most_<n>``: number of divergent transitions ``<= n``.

A NaN diagnostic always fails its check.
"""

from __future__ import annotations

import dataclasses
import math
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "ReferenceChecks",
    "Reference",
    "ReferenceCheckError",
    "evaluate_checks",
    "describe_failures",
    "EXACT_CHECK",
    "exact_reference",
    "save_reference",
    "load_reference",
    "require_passing",
]


class ReferenceCheckError(RuntimeError):
    """A reference posterior failed (or lacks) its convergence checks."""


def is_integer(value: Any) -> bool:
    """True for Python and NumPy integers, False for booleans (which subclass ``int``)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


@dataclass(frozen=True)
class ReferenceChecks:
    """Thresholds a reference must meet (posteriordb reference posterior criteria).

    Parameters
    ----------
    max_r_hat : float, default 1.01
        Largest acceptable R-hat (Vehtari et al. 2021 recommend 1.01).
    min_ess_bulk : float, default 400
        Smallest acceptable bulk ESS of any parameter (Vehtari et al. 2021: 100 per
        chain for 4 chains).
    min_ess_tail : float, default 400
        Smallest acceptable tail ESS of any parameter.
    max_divergences : int, default 0
        Largest acceptable number of divergent transitions (over all chains).

    Raises
    ------
    ValueError
        At construction, naming the field, if a threshold is out of range.
    """

    max_r_hat: float = 1.01
    min_ess_bulk: float = 400
    min_ess_tail: float = 400
    max_divergences: int = 0

    def __post_init__(self) -> None:
        for name in ("max_r_hat", "min_ess_bulk", "min_ess_tail"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise ValueError(f"ReferenceChecks.{name} must be a number; got {value!r}")
            if not math.isfinite(value):
                raise ValueError(f"ReferenceChecks.{name} must be finite; got {value!r}")
        if self.max_r_hat < 1.0:
            raise ValueError(f"ReferenceChecks.max_r_hat must be >= 1; got {self.max_r_hat!r}")
        for name in ("min_ess_bulk", "min_ess_tail"):
            if getattr(self, name) < 0:
                raise ValueError(f"ReferenceChecks.{name} must be >= 0; got {getattr(self, name)!r}")
        if not is_integer(self.max_divergences) or self.max_divergences < 0:
            raise ValueError(
                f"ReferenceChecks.max_divergences must be an integer >= 0; got {self.max_divergences!r}"
            )

    def names(self) -> dict[str, str]:
        """Check names keyed by kind (``r_hat``, ``ess_bulk``, ``ess_tail``, ``divergences``)."""
        return {
            "r_hat": f"r_hat_below_{_fmt(self.max_r_hat)}",
            "ess_bulk": f"ess_bulk_above_{_fmt(self.min_ess_bulk)}",
            "ess_tail": f"ess_tail_above_{_fmt(self.min_ess_tail)}",
            "divergences": f"divergences_at_most_{_fmt(self.max_divergences)}",
        }

    def to_dict(self) -> dict[str, Any]:
        """The thresholds as a JSON-ready dict."""
        return dataclasses.asdict(self)


def _fmt(value: float) -> str:
    """``1.01 -> '1.01'``, ``400.0 -> '400'``, ``0 -> '0'``."""
    return f"{float(value):g}"


def _worst(values: Any, kind: str) -> float:
    arr = np.asarray(values, dtype=np.float64).ravel()
    if arr.size == 0 or np.any(np.isnan(arr)):
        return float("nan")
    return float(arr.max() if kind == "max" else arr.min())


def _check_details(diagnostics: dict[str, Any], checks: ReferenceChecks) -> list[tuple[str, bool, str]]:
    """``(name, passed, message)`` for every check; messages give measured vs threshold."""
    for key in ("r_hat", "ess_bulk", "ess_tail", "divergences"):
        if key not in diagnostics:
            raise KeyError(f"diagnostics lack {key!r}; have {sorted(diagnostics)}")
    names = checks.names()
    r_hat = _worst(diagnostics["r_hat"], "max")
    ess_b = _worst(diagnostics["ess_bulk"], "min")
    ess_t = _worst(diagnostics["ess_tail"], "min")
    div = int(diagnostics["divergences"])
    # NaN comparisons are False, so a NaN diagnostic fails.
    return [
        (names["r_hat"], r_hat <= checks.max_r_hat,
         f"{names['r_hat']} failed: max R-hat {r_hat:.4g} > {_fmt(checks.max_r_hat)}"),
        (names["ess_bulk"], ess_b >= checks.min_ess_bulk,
         f"{names['ess_bulk']} failed: min bulk ESS {ess_b:.4g} < {_fmt(checks.min_ess_bulk)}"),
        (names["ess_tail"], ess_t >= checks.min_ess_tail,
         f"{names['ess_tail']} failed: min tail ESS {ess_t:.4g} < {_fmt(checks.min_ess_tail)}"),
        (names["divergences"], div <= checks.max_divergences,
         f"{names['divergences']} failed: {div} divergent transitions > {checks.max_divergences}"),
    ]


def evaluate_checks(diagnostics: dict[str, Any], checks: ReferenceChecks) -> dict[str, bool]:
    """Evaluate the reference checks on a diagnostics dictionary.

    Parameters
    ----------
    diagnostics : dict
        At least ``r_hat``, ``ess_bulk``, ``ess_tail`` (per-parameter sequences) and
        ``divergences`` (int), as produced by :func:`geobayes.samplers.run_nuts`.
    checks : ReferenceChecks
        Thresholds.

    Returns
    -------
    dict of str to bool
        ``{"r_hat_below_1.01": True, "ess_bulk_above_400": ..., "ess_tail_above_400": ...,
        "divergences_at_most_0": ...}`` (names follow the thresholds).

    Raises
    ------
    KeyError
        If a required diagnostic is missing (the message lists what is there).
    """
    return {name: bool(ok) for name, ok, _ in _check_details(diagnostics, checks)}


def describe_failures(diagnostics: dict[str, Any], checks: ReferenceChecks) -> list[str]:
    """One message per failing check, e.g. ``"r_hat_below_1.01 failed: max R-hat 1.07 > 1.01"``."""
    return [msg for _, ok, msg in _check_details(diagnostics, checks) if not ok]


@dataclass(frozen=True, eq=False)
class Reference:
    """Reference posterior draws with their diagnostics and checks.

    Parameters
    ----------
    draws : numpy.ndarray
        Draws shaped ``(n, dim)``, float64, chains concatenated in chain order.
    chain_index : numpy.ndarray
        Chain of each draw, int, shape ``(n,)`` (lets the diagnostics be recomputed).
    diagnostics : dict
        ``r_hat``, ``r_hat_bulk``, ``r_hat_folded``, ``ess_bulk``, ``ess_tail``
        (per-parameter lists), ``divergences`` (int) and ``n_draws`` (int).
    checks : dict of str to bool
        Result of :func:`evaluate_checks` (posteriordb-style names).
    thresholds : dict
        The :class:`ReferenceChecks` used, as a dict.
    method : str
        Sampler name, e.g. ``"nuts"``.
    method_args : dict
        Every argument of the sampler (configuration, init jitter scale, init position).
    seed : int or None
        The configured seed the key was derived from, if known.
    key_data : list of int
        Raw data of the PRNG key passed to the sampler.
    """

    draws: np.ndarray
    chain_index: np.ndarray
    diagnostics: dict[str, Any]
    checks: dict[str, bool]
    thresholds: dict[str, Any]
    method: str = "nuts"
    method_args: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    key_data: list[int] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """True when there is at least one check and every check passed."""
        return bool(self.checks) and all(bool(v) for v in self.checks.values())

    @property
    def dim(self) -> int:
        """Number of parameters."""
        return int(self.draws.shape[1])

    def to_json(self) -> dict[str, Any]:
        """JSON-ready record (everything except the arrays)."""
        return {
            "method": self.method,
            "method_args": self.method_args,
            "seed": self.seed,
            "key_data": list(self.key_data),
            "dim": self.dim,
            "n_draws": int(self.draws.shape[0]),
            "diagnostics": self.diagnostics,
            "thresholds": self.thresholds,
            "checks": {k: bool(v) for k, v in self.checks.items()},
            "passed": self.passed,
        }


#: The single check of an exact reference: its draws are i.i.d. from the target itself.
EXACT_CHECK = "exact_iid_draws"


def exact_reference(draws: np.ndarray, *, seed: int | None, key_data: list[int],
                    method_args: dict[str, Any]) -> Reference:
    """A reference of exact i.i.d. draws (Yu et al. 2024 use 20,000 exact draws for the
    Gaussian, squiggle and funnel targets instead of NUTS).

    There are no MCMC diagnostics to check; the record carries the one check
    :data:`EXACT_CHECK` so that :func:`require_passing` accepts it explicitly.
    """
    draws = np.asarray(draws, dtype=np.float64)
    if draws.ndim != 2 or not np.all(np.isfinite(draws)):
        raise ValueError(f"exact reference draws must be a finite (n, dim) array; got shape {draws.shape}")
    return Reference(draws=draws, chain_index=np.zeros(draws.shape[0], dtype=np.int64), diagnostics={},
                     checks={EXACT_CHECK: True}, thresholds={}, method="exact", method_args=method_args,
                     seed=seed, key_data=list(key_data))


def save_reference(
    npz_path: str | os.PathLike[str],
    json_path: str | os.PathLike[str],
    reference: Reference,
    extra: dict[str, Any] | None = None,
) -> None:
    """Write a reference atomically: arrays to ``npz_path``, record to ``json_path``.

    Parameters
    ----------
    npz_path, json_path : str or os.PathLike
        Destinations (written through :mod:`geobayes.io`, temp file + ``os.replace``).
    reference : Reference
        The reference to save.
    extra : dict, optional
        Additional JSON fields (posterior name, config echo, provenance, timings). They
        may not overwrite the reference's own fields.

    Raises
    ------
    ValueError
        If ``extra`` reuses a key of the reference record.
    """
    from geobayes import io

    record = reference.to_json()
    extra = dict(extra or {})
    clash = sorted(set(extra) & set(record))
    if clash:
        raise ValueError(f"extra fields {clash} clash with reference fields of {os.fspath(json_path)}")
    record.update(extra)
    io.save_npz(npz_path, draws=np.asarray(reference.draws, dtype=np.float64),
                chain_index=np.asarray(reference.chain_index, dtype=np.int64))
    io.save_json(json_path, record)


def load_reference(npz_path: str | os.PathLike[str], json_path: str | os.PathLike[str]) -> Reference:
    """Load a reference written by :func:`save_reference`.

    Parameters
    ----------
    npz_path, json_path : str or os.PathLike
        The two files.

    Returns
    -------
    Reference

    Raises
    ------
    ValueError
        If a file lacks a required field or the two files disagree on the shape.
    """
    from geobayes import io

    arrays = io.load_npz(npz_path)
    record = io.load_json(json_path)
    for key in ("draws", "chain_index"):
        if key not in arrays:
            raise ValueError(f"{os.fspath(npz_path)} lacks array {key!r}; has {sorted(arrays)}")
    for key in ("diagnostics", "checks", "thresholds", "method"):
        if key not in record:
            raise ValueError(f"{os.fspath(json_path)} lacks field {key!r}")
    draws = np.asarray(arrays["draws"], dtype=np.float64)
    if draws.ndim != 2:
        raise ValueError(f"{os.fspath(npz_path)}: draws must be 2-D (n, dim); got shape {draws.shape}")
    if "n_draws" in record and int(record["n_draws"]) != draws.shape[0]:
        raise ValueError(
            f"{os.fspath(json_path)} records n_draws={record['n_draws']} but "
            f"{os.fspath(npz_path)} holds {draws.shape[0]} draws"
        )
    return Reference(
        draws=draws,
        chain_index=np.asarray(arrays["chain_index"], dtype=np.int64),
        diagnostics=record["diagnostics"],
        checks={k: bool(v) for k, v in record["checks"].items()},
        thresholds=record["thresholds"],
        method=record["method"],
        method_args=record.get("method_args", {}),
        seed=record.get("seed"),
        key_data=record.get("key_data", []),
    )


def require_passing(reference_json: dict[str, Any], path: str | os.PathLike[str]) -> None:
    """Refuse a reference whose checks fail (DESIGN: evaluation refuses a failing reference).

    The recorded booleans are trusted only together with a re-evaluation of the
    recorded diagnostics against the recorded thresholds: a check fails if either says so.

    Parameters
    ----------
    reference_json : dict
        The decoded JSON record of a reference (see :func:`save_reference`).
    path : str or os.PathLike
        The file it came from, named in the error message.

    Raises
    ------
    ReferenceCheckError
        Naming the file and every failing check with its measured value vs threshold,
        e.g. ``"r_hat_below_1.01 failed: max R-hat 1.07 > 1.01"``; also when the record
        has no checks, thresholds or diagnostics.
    """
    where = os.fspath(path)
    missing = [k for k in ("checks", "thresholds", "diagnostics") if k not in reference_json]
    if missing:
        raise ReferenceCheckError(f"reference {where} cannot be trusted: it lacks {missing}")
    recorded = reference_json["checks"]
    if not recorded:
        raise ReferenceCheckError(f"reference {where} cannot be trusted: no checks recorded")
    if reference_json.get("method") == "exact":
        if recorded != {EXACT_CHECK: True}:
            raise ReferenceCheckError(f"exact reference {where} records checks {recorded}, "
                                      f"expected {{{EXACT_CHECK!r}: True}}")
        return
    try:
        thresholds = ReferenceChecks(**reference_json["thresholds"])
        details = _check_details(reference_json["diagnostics"], thresholds)
    except (TypeError, ValueError, KeyError) as err:
        raise ReferenceCheckError(f"reference {where} has unreadable checks: {err}") from err
    failures = [msg for _, ok, msg in details if not ok]
    known = {name for name, _, _ in details}
    for name, ok, msg in details:
        if ok and not recorded.get(name, True):
            failures.append(f"{name} failed (as recorded)")
    failures += [f"{name} failed (as recorded)" for name, ok in recorded.items()
                 if not ok and name not in known]
    if failures:
        raise ReferenceCheckError(
            f"reference {where} fails its checks: " + "; ".join(failures)
        )
