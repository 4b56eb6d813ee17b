"""NUTS references through Stan (CmdStanPy or PyStan), the reference sampler of Yu et al. (2024).

Yu et al. (2024), Sec. 5 and Supp. 15 compute ground truth with Stan through CmdStanPy at the
posteriordb reference settings. :func:`run_stan_nuts` runs the posterior's Stan program
(``geobayes/stan/embedding_model.stan``, filled by :func:`geobayes.stan.export.stan_data`) with
the same chains, warm-up, iterations, thinning, initial points and checks as
:func:`geobayes.samplers.nuts.run_nuts`, and returns the same :class:`Reference`: a second,
independent implementation of every reference (NumPyro's NUTS follows Stan's algorithm, but shares
no code with it).
"""

from __future__ import annotations

import os
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.samplers.nuts import NutsConfig, _raw_key, chain_starts, checked_start, nuts_reference
from geobayes.samplers.reference import Reference, ReferenceChecks
from geobayes.stan.export import stan_data
from geobayes.stan.interfaces import choose_interface
from geobayes.stan.worker_client import call_worker, jsonable
from geobayes.whitened_target import whitened

__all__ = ["StanSettings", "run_stan_nuts"]

#: Stan's seeds are unsigned 32-bit; keep them below 2**31 for every interface.
SEED_BOUND = 2**31 - 1


class StanSettings(dict):
    """``reference.stan``: ``interface`` (auto | cmdstanpy | pystan), ``cache`` (compiled programs;
    None = the interface's default) and ``processes`` (chains run at once)."""

    def __init__(self, interface: str = "auto", cache: str | None = None, processes: int = 1):
        if isinstance(processes, bool) or not isinstance(processes, int) or processes < 1:
            raise ValueError(f"reference.stan.processes must be an integer >= 1; got {processes!r}")
        super().__init__(interface=interface, cache=None if cache is None else str(cache), processes=processes)


def _chain_inits(posterior: Any, data: dict, x0: jax.Array, raw_key: jax.Array, chains: int) -> tuple[list[dict], Any, dict]:
    """Each chain's initial ``z``, the start as NumPyro's reference records it, and what that adds to the record.

    The chains start where NumPyro's do: for a dense (kernel) prior NumPyro runs in the whitened ``z``
    and jitters there (``z0 + 0.1 eps``, :mod:`geobayes.whitened_target`), so the program starts from those
    ``z``; otherwise NumPyro jitters ``theta`` and the program starts from ``theta / s``.
    """
    if data["dense_prior"]:
        z0 = jnp.asarray(whitened(posterior).to_z(x0))
        return [{"z": row.tolist()} for row in np.asarray(chain_starts(z0, raw_key, chains))], z0, {"whitened": True}
    starts = np.asarray(chain_starts(x0, raw_key, chains)) / data["prior_scale"]
    return [{"z": row.tolist()} for row in starts], x0, {}


def run_stan_nuts(
    posterior: Any,
    config: NutsConfig,
    key: jax.Array,
    init_position: Any,
    *,
    checks: ReferenceChecks | None = None,
    seed: int | None = None,
    settings: StanSettings | None = None,
    log_path: str | os.PathLike[str] | None = None,
) -> Reference:
    """Sample a posterior with Stan's NUTS and return a checked :class:`Reference`.

    Chain ``c`` starts at ``init_position + 0.1 * eps_c`` with ``eps_c ~ N(0, I)`` from
    ``fold_in(key, 0)``, exactly the initial points of NumPyro's reference (in the whitened ``z`` for a
    dense prior, as ``workflow/scripts/reference.py`` runs :func:`~geobayes.samplers.nuts.run_nuts` there,
    and recorded in those coordinates with ``whitened: true``);
    Stan's seed is drawn from ``fold_in(key, 1)``. ``config.target_accept`` is Stan's ``adapt_delta``,
    ``max_tree_depth`` its ``max_depth``; each chain keeps ``samples // thin`` draws. The program
    samples ``z`` with ``theta = L z`` (``L`` the prior's Cholesky factor); the draws, diagnostics and
    checks are those of ``theta``.

    Parameters
    ----------
    posterior : geobayes.posterior.Posterior
        A model of data whose model, family and prior the Stan program covers
        (:func:`geobayes.stan.export.stan_data`).
    config : NutsConfig
        Chains, warm-up, samples, thinning and NUTS settings. ``dense_mass`` is refused (PyStan 3
        adapts a diagonal metric only).
    key : jax.Array
        PRNG key.
    init_position : array_like
        Centre of the initial positions, shape ``(dim,)`` (typically the MAP).
    checks : ReferenceChecks, optional
        Acceptance thresholds (default ``ReferenceChecks()``).
    seed : int, optional
        The configured seed ``key`` was derived from; recorded only.
    settings : StanSettings, optional
        Interface, cache directory and chains run at once (default: auto, the interface's cache, 1).
    log_path : path, optional
        File that receives Stan's own output (compiler and sampler messages).

    Returns
    -------
    Reference
        As :func:`~geobayes.samplers.nuts.run_nuts`, with ``method_args["backend"] = "stan"`` and the
        interface, its versions, Stan's seed and the build and sampling seconds.

    Raises
    ------
    ValueError
        If ``config`` is not a :class:`NutsConfig`, asks for a dense metric, or ``init_position`` has
        the wrong shape, is not finite or has a non-finite log density.
    geobayes.stan.export.StanExportError
        If the posterior has no Stan program.
    geobayes.stan.interfaces.StanUnavailableError
        If no Stan installation can run.
    geobayes.stan.worker_client.StanRunError
        If Stan fails to build or sample.
    """
    if not isinstance(config, NutsConfig):
        raise ValueError(f"config must be a NutsConfig; got {type(config).__name__}")
    if config.dense_mass:
        raise ValueError("reference.dense_mass: true is not available with reference.backend stan (PyStan 3 adapts a "
                         "diagonal metric only); set it false or use backend numpyro")
    checks = ReferenceChecks() if checks is None else checks
    settings = StanSettings() if settings is None else settings
    x0 = checked_start(posterior, init_position)
    data = stan_data(posterior)
    interface = choose_interface(settings["interface"])
    raw = _raw_key(key)
    inits, recorded_start, start_args = _chain_inits(posterior, data, x0, raw, config.chains)
    stan_seed = int(jax.random.randint(jax.random.fold_in(raw, 1), (), 0, SEED_BOUND))
    request = {"task": "sample", "interface": interface, "data": jsonable(data),
               "init": inits, "chains": config.chains, "warmup": config.warmup,
               "samples": config.samples, "thin": config.thin, "adapt_delta": float(config.target_accept),
               "max_depth": config.max_tree_depth, "seed": stan_seed,
               "processes": min(settings["processes"], config.chains), "cache": settings["cache"]}
    result, meta = call_worker(request, log_path)
    return nuts_reference(np.asarray(result["theta"], dtype=np.float64), result["divergent"], result["n_leapfrog"],
                          config, checks, {"backend": "stan", **meta, "stan_seed": stan_seed,
                                           "processes": request["processes"], **start_args}, recorded_start, raw, seed)
