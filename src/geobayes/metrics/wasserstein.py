"""Wasserstein-1 and -2 distances between sample sets, computed exactly with POT.

Yu et al. (2024), Supp. 15.6: the distance between the reference draws and the
approximation's draws is the exact earth mover's distance

.. math:: W_1(a, b) = \\min_{\\gamma \\ge 0} \\langle \\gamma, M \\rangle_F
          \\quad \\text{s.t. } \\gamma 1 = a,\\ \\gamma^\\top 1 = b,

with :math:`M_{ij} = \\lVert x_i - y_j \\rVert_2` the Euclidean (not squared) distance in
the full parameter space and uniform weights :math:`a, b`, solved by POT's network simplex
(``ot.emd2``; Flamary et al., "POT: Python Optimal Transport", JMLR 2021). The paper's
code uses ``numItermax=1e10``. The network simplex stops when it reaches ``numItermax``
and then returns a *suboptimal* (too large) cost with only a warning; here that is an
error, :class:`WassersteinNotConvergedError`.

Precision: ``ot.dist(metric="euclidean")`` computes ``||x||^2 + ||y||^2 - 2 x.y`` before the
square root, so distances below about ``1e-8 * ||x||`` are rounding noise (W1 of a sample set
with itself is about 1e-9, not 0). This is far below any Monte Carlo error of W1.

Memory: the cost matrix is ``n * m`` float64 (20,000 x 10,000 is 1.6 GB).

Import cost: POT loads every array backend it finds when it is first imported (torch, which
the laplace-torch peer tests install, costs about 3 s of CPU; JAX about 1.5 s with its
backend). Only its NumPy backend is used here (the inputs become NumPy arrays), so
:func:`_import_pot` switches the torch, JAX, TensorFlow and CuPy backends off before the first
import unless the caller has chosen (``POT_BACKEND_DISABLE_*`` set, or ``ot`` already
imported). Each evaluation job of the DAG is a fresh process, so this is paid per job.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from typing import Any

import numpy as np

__all__ = ["WassersteinNotConvergedError", "wasserstein1", "wasserstein1_1d", "wasserstein2"]

#: POT network-simplex result codes (``ot.lp.emd_wrap.check_result``).
_RESULT_CODES = {0: "INFEASIBLE", 1: "OPTIMAL", 2: "UNBOUNDED", 3: "MAX_ITER_REACHED"}


class WassersteinNotConvergedError(RuntimeError):
    """POT's exact EMD solver did not reach optimality (e.g. ``numItermax`` too small)."""


def _as_samples(name: str, value: Any, ndim: int) -> np.ndarray:
    arr = np.asarray(value)
    if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)) or arr.dtype == bool:
        raise ValueError(f"{name} must be a real numeric array; got dtype {arr.dtype}")
    arr = arr.astype(np.float64)
    if arr.ndim != ndim:
        shape = "(n, dim)" if ndim == 2 else "(n,)"
        raise ValueError(f"{name} must be a {ndim}-D array shaped {shape}; got shape {arr.shape}")
    if arr.shape[0] < 1 or (ndim == 2 and arr.shape[1] < 1):
        raise ValueError(f"{name} must hold at least one sample of dimension >= 1; got shape {arr.shape}")
    bad = int(np.sum(~np.isfinite(arr)))
    if bad:
        raise ValueError(f"{name} contains {bad} non-finite values (NaN or inf); shape {arr.shape}")
    return arr


def wasserstein1(x: Any, y: Any, *, num_iter_max: int | float) -> float:
    """Exact Wasserstein-1 distance between two empirical distributions (Yu et al. 2024, Supp. 15.6).

    Parameters
    ----------
    x : array_like
        Samples shaped ``(n, dim)``, e.g. the reference draws.
    y : array_like
        Samples shaped ``(m, dim)``, e.g. the approximation's draws.
    num_iter_max : int or float
        Iteration limit of the network simplex (``numItermax`` of ``ot.emd2``;
        config key ``evaluation.wasserstein.num_iter_max``, paper: ``1e10``). Must be a
        positive integer value.

    Returns
    -------
    float
        :math:`W_1` with uniform weights and Euclidean ground cost.

    Raises
    ------
    ValueError
        If an input is not a finite 2-D real array, the dimensions differ, or
        ``num_iter_max`` is not a positive integer.
    WassersteinNotConvergedError
        If the solver's result code is not OPTIMAL; the message gives the code, POT's
        message and ``num_iter_max``.
    """
    return _exact_transport_cost(x, y, metric="euclidean", name="W1", num_iter_max=num_iter_max)


def wasserstein2(x: Any, y: Any, *, num_iter_max: int | float) -> float:
    """Exact Wasserstein-2 distance between two empirical distributions.

    Hartmann et al. (2026), Sec. 6: the only metric of their experiments is ``W2`` to NUTS
    samples; the solver is not stated (notes Sec. 6.1 step 8). Here it is the exact optimal
    transport cost with squared Euclidean ground cost (``ot.dist(metric="sqeuclidean")``,
    ``ot.emd2``) and uniform weights, then the square root.

    Parameters and errors are those of :func:`wasserstein1`.
    """
    return math.sqrt(max(_exact_transport_cost(x, y, metric="sqeuclidean", name="W2",
                                                num_iter_max=num_iter_max), 0.0))


_UNUSED_POT_BACKENDS = ("POT_BACKEND_DISABLE_PYTORCH", "POT_BACKEND_DISABLE_JAX", "POT_BACKEND_DISABLE_TENSORFLOW",
                        "POT_BACKEND_DISABLE_CUPY")


def _import_pot():
    """POT, imported without the array backends and the scikit-learn it would load but this
    module never uses.

    POT reads ``POT_BACKEND_DISABLE_*`` once, at its first import; a variable the caller set
    (either value) and an ``ot`` imported before are left as they are. ``ot.lowrank`` (imported
    by POT's ``__init__``) imports scikit-learn when it can, for its low-rank Sinkhorn
    initialisation only, and that was about a third of the import time of every evaluation and
    floor job (``benchmarks/bench_job_imports.py``); if scikit-learn is not loaded yet, POT is
    imported with it hidden, after which it is importable again as usual.
    """
    if "ot" in sys.modules:
        return sys.modules["ot"]
    for variable in _UNUSED_POT_BACKENDS:
        os.environ.setdefault(variable, "1")
    hide_sklearn = "sklearn" not in sys.modules
    if hide_sklearn:
        sys.modules["sklearn"] = None  # `import sklearn...` raises ImportError, which POT handles
    try:
        import ot
    finally:
        if hide_sklearn:
            del sys.modules["sklearn"]
    return ot


def _exact_transport_cost(x: Any, y: Any, *, metric: str, name: str, num_iter_max: int | float) -> float:
    """Optimal transport cost with ground cost ``ot.dist(x, y, metric)``, uniform weights."""
    ot = _import_pot()

    x = _as_samples("x", x, 2)
    y = _as_samples("y", y, 2)
    if x.shape[1] != y.shape[1]:
        raise ValueError(
            f"x and y must have the same dimension; got x.shape={x.shape}, y.shape={y.shape}"
        )
    if isinstance(num_iter_max, bool) or not isinstance(num_iter_max, (int, float, np.integer, np.floating)):
        raise ValueError(f"num_iter_max must be a positive integer; got {num_iter_max!r}")
    if not math.isfinite(num_iter_max) or num_iter_max < 1 or float(num_iter_max) != int(num_iter_max):
        raise ValueError(f"num_iter_max must be a positive integer; got {num_iter_max!r}")
    n_iter = int(num_iter_max)

    a = np.full(x.shape[0], 1.0 / x.shape[0])
    b = np.full(y.shape[0], 1.0 / y.shape[0])
    cost_matrix = ot.dist(x, y, metric=metric)
    with warnings.catch_warnings():
        # POT warns (twice) on a non-optimal result; we raise instead.
        warnings.simplefilter("ignore", UserWarning)
        cost, log = ot.emd2(a, b, cost_matrix, numItermax=n_iter, log=True)
    code = int(log["result_code"])
    if code != 1 or log.get("warning") is not None:
        raise WassersteinNotConvergedError(
            f"exact {name} (ot.emd2) did not converge: result code {code} "
            f"({_RESULT_CODES.get(code, 'UNKNOWN')}), message {log.get('warning')!r}, "
            f"num_iter_max={n_iter} for a {x.shape[0]} x {y.shape[0]} problem; "
            f"raise evaluation.wasserstein.num_iter_max"
        )
    return float(cost)


def wasserstein1_1d(x: Any, y: Any) -> float:
    """Wasserstein-1 distance between two 1-D empirical distributions (Yu et al. 2024, Fig. 3).

    Computed by ``ot.wasserstein_1d`` (sorting; exact, no iteration limit) with uniform
    weights. The paper's bias-vs-dimension experiment applies it to the first coordinate.

    Parameters
    ----------
    x : array_like
        Samples shaped ``(n,)``.
    y : array_like
        Samples shaped ``(m,)``.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If an input is not a finite 1-D real array.
    """
    ot = _import_pot()

    x = _as_samples("x", x, 1)
    y = _as_samples("y", y, 1)
    return float(ot.wasserstein_1d(x, y, p=1))
