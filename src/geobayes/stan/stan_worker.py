"""Run Stan in a process of its own: ``python stan_worker.py REQUEST.json RESULT.npz``.

Run as a script, never imported by the library: it imports NumPy and the Stan interface only
(no JAX), because PyStan forks its chains from the calling process (httpstan's process pool), and
a fork of a process that has started JAX's threads may deadlock. :mod:`geobayes.samplers.stan_nuts`
writes the request and reads the result.

The request (JSON) holds ``task`` (``sample`` or ``log_prob``), ``interface`` (``cmdstanpy`` or
``pystan``), ``program`` (the Stan source), ``data``, ``seed`` and ``cache`` (where compiled programs
are kept; ``null`` = the interface's default); to sample, ``init`` (one dict per chain), ``chains``,
``warmup``, ``samples``, ``thin``, ``adapt_delta``, ``max_depth`` and ``processes`` (chains run at
once); for ``log_prob``, ``points`` (values of ``z``). The result (npz) holds ``theta`` (chains,
draws, D), ``divergent``, ``n_leapfrog``, ``treedepth`` (chains, draws), or ``log_density``
(points,), and ``meta`` (a JSON string: interface, versions, build and sampling seconds, whether the
build was cached).

Stan's algorithm and settings are the same under both interfaces (NUTS with multinomial sampling,
diagonal metric, windowed adaptation; Hoffman & Gelman 2014; Betancourt 2017).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from pathlib import Path

import numpy as np


@contextlib.contextmanager
def build_lock(directory: Path):
    """An exclusive lock on ``directory/.build.lock``: concurrent jobs (local or on a cluster's shared
    file system) build a program once and the others then find it compiled."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".build.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pystan_model(request: dict):
    """The program built by PyStan 3 (httpstan) for the request's data, and the build's record. The
    build goes to httpstan's cache (``$XDG_CACHE_HOME/httpstan``) and is reused by a later build of
    the same program."""
    if request["cache"]:
        os.environ["XDG_CACHE_HOME"] = request["cache"]
    import importlib.metadata as metadata

    import httpstan
    import httpstan.cache
    import httpstan.models
    import stan

    cache = httpstan.cache.cache_directory()
    name = httpstan.models.calculate_model_name(request["program"])
    with build_lock(cache):
        cached = name in httpstan.cache.list_model_names()
        start = time.perf_counter()
        model = stan.build(request["program"], data=request["data"], random_seed=int(request["seed"]))
        build_s = time.perf_counter() - start
    return model, {"interface": "pystan", "pystan": metadata.version("pystan"), "httpstan": httpstan.__version__,
                   "build_seconds": build_s, "build_cached": cached, "cache": str(cache)}


def run_pystan(request: dict) -> dict:
    """Sample with PyStan 3: each chain in a forked process of a pool of ``processes``."""
    import concurrent.futures
    import multiprocessing

    import httpstan.services_stub

    model, meta = pystan_model(request)
    # httpstan runs each chain in a process of a pool sized by the machine's cores; size it by the job's share.
    httpstan.services_stub.executor = concurrent.futures.ProcessPoolExecutor(
        max_workers=max(1, int(request["processes"])), mp_context=multiprocessing.get_context("fork"),
        initializer=httpstan.services_stub.init_worker)
    start = time.perf_counter()
    fit = model.sample(num_chains=int(request["chains"]), num_warmup=int(request["warmup"]),
                       num_samples=int(request["samples"]), num_thin=int(request["thin"]),
                       delta=float(request["adapt_delta"]), max_depth=int(request["max_depth"]),
                       init=request["init"])
    meta["sample_seconds"] = time.perf_counter() - start
    chains = int(request["chains"])

    def by_chain(values: np.ndarray) -> np.ndarray:
        # PyStan flattens (draw, chain) with the chain varying fastest.
        return np.asarray(values).reshape(*np.shape(values)[:-1], -1, chains)

    theta = by_chain(fit["theta"]).transpose(2, 1, 0)  # (D, draws, chains) -> (chains, draws, D)
    return {"theta": theta, "divergent": by_chain(fit["divergent__"]).T, "n_leapfrog": by_chain(fit["n_leapfrog__"]).T,
            "treedepth": by_chain(fit["treedepth__"]).T, "meta": meta}


def pystan_log_prob(request: dict) -> dict:
    """The program's log density (every constant kept, no Jacobian: ``z`` is unconstrained) at ``points``."""
    model, meta = pystan_model(request)
    values = [model.log_prob(list(map(float, z)), adjust_transform=False) for z in request["points"]]
    return {"log_density": np.asarray(values, dtype=np.float64), "meta": meta}


def cmdstanpy_model(request: dict):
    """The program compiled by CmdStanPy on an installed CmdStan (``cmdstanpy.install_cmdstan()``):
    written to the cache directory under its hash and compiled there once."""
    import hashlib

    import cmdstanpy

    cache = Path(request["cache"] or Path.home() / ".cache" / "geobayes-cmdstan")
    digest = hashlib.sha256(request["program"].encode()).hexdigest()[:16]
    stan_file = cache / f"embedding_model_{digest}.stan"
    with build_lock(cache):
        cached = stan_file.with_suffix("").exists()
        if not stan_file.exists():
            stan_file.write_text(request["program"])
        start = time.perf_counter()
        model = cmdstanpy.CmdStanModel(stan_file=str(stan_file))
        build_s = time.perf_counter() - start
    return model, {"interface": "cmdstanpy", "cmdstanpy": cmdstanpy.__version__,
                   "cmdstan": cmdstanpy.cmdstan_version(), "cmdstan_path": cmdstanpy.cmdstan_path(),
                   "build_seconds": build_s, "build_cached": cached, "cache": str(cache)}


def run_cmdstanpy(request: dict) -> dict:
    """Sample with CmdStan through CmdStanPy: ``processes`` chains at once."""
    model, meta = cmdstanpy_model(request)
    start = time.perf_counter()
    fit = model.sample(data=request["data"], chains=int(request["chains"]), parallel_chains=int(request["processes"]),
                       iter_warmup=int(request["warmup"]), iter_sampling=int(request["samples"]),
                       thin=int(request["thin"]), adapt_delta=float(request["adapt_delta"]),
                       max_treedepth=int(request["max_depth"]), seed=int(request["seed"]), inits=request["init"],
                       show_progress=False)
    meta["sample_seconds"] = time.perf_counter() - start
    draws = fit.draws(concat_chains=False)  # (draws, chains, columns)
    columns = list(fit.column_names)
    theta = np.stack([draws[:, :, columns.index(f"theta[{i + 1}]")] for i in range(int(request["data"]["D"]))], -1)

    def method(name: str) -> np.ndarray:
        return draws[:, :, columns.index(name)].T

    return {"theta": theta.transpose(1, 0, 2), "divergent": method("divergent__"), "n_leapfrog": method("n_leapfrog__"),
            "treedepth": method("treedepth__"), "meta": meta}


def cmdstanpy_log_prob(request: dict) -> dict:
    """The program's log density at ``points`` through CmdStan's ``log_prob`` method (no Jacobian)."""
    model, meta = cmdstanpy_model(request)
    values = [float(model.log_prob(params={"z": list(map(float, z))}, data=request["data"], jacobian=False)["lp__"].iloc[0])
              for z in request["points"]]
    return {"log_density": np.asarray(values, dtype=np.float64), "meta": meta}


#: (interface, task) -> the function that does it.
TASKS = {("pystan", "sample"): run_pystan, ("pystan", "log_prob"): pystan_log_prob,
         ("cmdstanpy", "sample"): run_cmdstanpy, ("cmdstanpy", "log_prob"): cmdstanpy_log_prob}


def main(argv: list[str]) -> int:
    request_path, result_path = argv
    request = json.loads(Path(request_path).read_text())
    task = request.get("task", "sample")
    result = TASKS[request["interface"], task](request)
    arrays = {name: np.asarray(value) for name, value in result.items() if name != "meta"}
    if task == "sample":
        keep = int(request["samples"]) // int(request["thin"])  # as NutsConfig.draws_per_chain
        arrays = {name: value[:, :keep] for name, value in arrays.items()}
    partial = Path(f"{result_path}.partial.npz")
    np.savez(partial, meta=json.dumps(result["meta"]), **arrays)
    os.replace(partial, result_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
