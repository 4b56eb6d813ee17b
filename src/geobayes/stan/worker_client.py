"""Calls into Stan: one request to the JAX-free worker process (:mod:`geobayes.stan.stan_worker`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from geobayes.stan.export import program_code, stan_data
from geobayes.stan.interfaces import choose_interface

__all__ = ["WORKER", "StanRunError", "call_worker", "program_log_density"]

#: The script that runs Stan in a process without JAX.
WORKER = Path(__file__).resolve().parent / "stan_worker.py"


class StanRunError(RuntimeError):
    """Stan failed to build, sample or evaluate (the message holds its last line of output)."""


def jsonable(data: dict) -> dict:
    """A data block with NumPy arrays as lists (what both interfaces read)."""
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in data.items()}


def call_worker(request: dict, log_path: str | os.PathLike[str] | None = None) -> tuple[dict[str, np.ndarray], dict]:
    """Run one request (``task`` ``sample`` or ``log_prob``) in the worker process.

    Parameters
    ----------
    request : dict
        As documented in :mod:`geobayes.stan.stan_worker`; ``program`` defaults to the embedding-model
        program.
    log_path : path, optional
        File that receives Stan's own output (compiler and sampler messages), appended.

    Returns
    -------
    arrays, meta
        The result's arrays and its record (interface, versions, seconds, cache).

    Raises
    ------
    StanRunError
        If the worker fails; the message names the interface and Stan's last line of output.
    """
    request = {"program": program_code(), **request}
    with tempfile.TemporaryDirectory(prefix="geobayes_stan_") as scratch:
        request_path, result_path = Path(scratch) / "request.json", Path(scratch) / "result.npz"
        request_path.write_text(json.dumps(request))
        # in the scratch directory: httpstan's build leaves a build/ folder in its working directory
        run = subprocess.run([sys.executable, str(WORKER), str(request_path), str(result_path)],
                             capture_output=True, text=True, cwd=scratch)
        if log_path is not None:
            with open(log_path, "a") as log:
                log.write(run.stdout + run.stderr)
        if run.returncode != 0 or not result_path.exists():
            # the last line of the traceback (stderr); Stan's progress goes to stdout
            lines = [line.strip() for line in (run.stderr or run.stdout).splitlines() if line.strip()]
            raise StanRunError(f"Stan ({request['interface']}, {request.get('task', 'sample')}) failed with exit code "
                               f"{run.returncode}: {lines[-1] if lines else 'no output'}")
        with np.load(result_path) as result:
            arrays = {name: np.asarray(result[name]) for name in result.files if name != "meta"}
            meta = json.loads(str(result["meta"]))
    return arrays, meta


def program_log_density(posterior: Any, z_points: Any, *, interface: str = "auto", cache: str | None = None,
                        log_path: str | os.PathLike[str] | None = None) -> np.ndarray:
    """The Stan program's log density of ``posterior`` at points ``z`` (``theta = L z``).

    Equals ``posterior.logdensity(L z)`` plus :func:`geobayes.stan.export.log_prior_factor_determinant`
    (both keep every normalising constant): the check that the program is the library's model.

    Parameters
    ----------
    posterior : geobayes.posterior.Posterior
        A model the program covers.
    z_points : array_like
        Points, shape (n, D).
    interface, cache
        As ``reference.stan.interface`` and ``reference.stan.cache``.

    Returns
    -------
    numpy.ndarray
        Log densities, shape (n,).
    """
    points = np.atleast_2d(np.asarray(z_points, dtype=np.float64))
    data = stan_data(posterior)
    if points.shape[1] != data["D"]:
        raise ValueError(f"z_points must have shape (n, {data['D']}) (posterior.dim); got {points.shape}")
    arrays, _ = call_worker({"task": "log_prob", "interface": choose_interface(interface), "data": jsonable(data),
                             "points": points.tolist(), "seed": 1, "cache": cache}, log_path)
    return arrays["log_density"]
