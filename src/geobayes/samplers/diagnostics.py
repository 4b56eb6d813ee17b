"""Convergence diagnostics for MCMC draws: rank-normalised split R-hat, bulk and tail ESS.

Implements the diagnostics of Vehtari, Gelman, Simpson, Carpenter and Bürkner (2021),
"Rank-normalization, folding, and localization: an improved R-hat for assessing
convergence of MCMC", *Bayesian Analysis* 16(2), 667–718 (the estimators of Stan and of
the R package ``posterior``), on top of :func:`numpyro.diagnostics.gelman_rubin` (R-hat) and
:func:`numpyro.diagnostics.autocovariance`; the ESS follows Stan's estimator (Geyer's
initial positive and monotone sequences with Stan's truncation and the ``S log10 S`` cap,
Vehtari et al. 2021, App. A), which ``numpyro.diagnostics.effective_sample_size``
simplifies (it differs by up to about 1%). The values agree with ArviZ
(``arviz_stats``) to rounding.

All functions take draws shaped ``(chains, draws, dim)`` and return one value per
parameter, shape ``(dim,)``. Chains are split in half before every computation (Vehtari
et al. 2021, Sec. 4.1), so a single chain still gives a meaningful split R-hat; with an
odd number of draws the middle draw is dropped, and ranks, medians and the ESS are taken
over the split draws (as ArviZ does; the tail-ESS quantiles use all draws).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpyro.diagnostics import autocovariance, gelman_rubin
from scipy.special import ndtri
from scipy.stats import rankdata

__all__ = [
    "as_chain_draws",
    "split_chains",
    "rank_normalize",
    "rhat_bulk",
    "rhat_folded",
    "rhat",
    "ess_basic",
    "ess_bulk",
    "ess_tail",
    "mcse_mean",
    "summarize",
]


def as_chain_draws(draws: Any) -> np.ndarray:
    """Validate and convert draws to a float64 array shaped ``(chains, draws, dim)``.

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        The draws as float64.

    Raises
    ------
    ValueError
        If the array is not 3-D, has fewer than 4 draws per chain (split R-hat needs two
        halves of at least 2 draws each), or contains non-finite values.
    """
    x = np.asarray(draws, dtype=np.float64)
    if x.ndim != 3:
        raise ValueError(
            f"draws must be shaped (chains, draws, dim); got an array with shape {x.shape}"
        )
    chains, n, dim = x.shape
    if chains < 1 or dim < 1:
        raise ValueError(f"draws must have at least one chain and one parameter; got shape {x.shape}")
    if n < 4:
        raise ValueError(
            f"split R-hat/ESS need at least 4 draws per chain; got {n} (shape {x.shape})"
        )
    if not np.all(np.isfinite(x)):
        bad = int(np.sum(~np.isfinite(x)))
        raise ValueError(f"draws contain {bad} non-finite values (NaN or inf)")
    return x


def split_chains(x: np.ndarray) -> np.ndarray:
    """Split every chain into its first and second half (Vehtari et al. 2021, Sec. 4.1).

    Parameters
    ----------
    x : numpy.ndarray
        Array shaped ``(chains, draws, ...)``.

    Returns
    -------
    numpy.ndarray
        Array shaped ``(2 * chains, draws // 2, ...)``; the middle draw of an odd-length
        chain is dropped.
    """
    half = x.shape[1] // 2
    return np.concatenate([x[:, :half], x[:, x.shape[1] - half :]], axis=0)


def rank_normalize(x: np.ndarray) -> np.ndarray:
    """Rank-normalise draws per parameter (Vehtari et al. 2021, Eq. (14)).

    Ranks ``r`` are taken over all chains pooled (ties get their average rank), then
    mapped to normal scores ``z = Phi^{-1}((r - 3/8) / (S + 1/4))`` with ``S`` the total
    number of draws (Blom's fractional offset).

    Parameters
    ----------
    x : numpy.ndarray
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        Normal scores with the same shape.
    """
    chains, n, dim = x.shape
    total = chains * n
    ranks = rankdata(x.reshape(total, dim), method="average", axis=0)
    return ndtri((ranks - 0.375) / (total + 0.25)).reshape(chains, n, dim)


def _gelman_rubin(x: np.ndarray) -> np.ndarray:
    # numpyro's gelman_rubin asserts >= 2 chains; split chains always have >= 2.
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(gelman_rubin(x), dtype=np.float64)


def _ess_one(acov: np.ndarray, chain_mean: np.ndarray, n_draw: int) -> float:
    """Stan's ESS for one parameter from per-chain autocovariances ``acov`` (chains, lags).

    Geyer's initial positive sequence with Stan's improved truncation, then the initial
    monotone sequence, and the cap ``tau >= 1 / log10(S)`` (Vehtari et al. 2021, App. A;
    the same algorithm as ``posterior::ess_*`` and ArviZ).
    """
    n_chain = acov.shape[0]
    mean_var = float(np.mean(acov[:, 0])) * n_draw / (n_draw - 1.0)
    var_plus = mean_var * (n_draw - 1.0) / n_draw
    if n_chain > 1:
        var_plus += float(np.var(chain_mean, ddof=1))
    if not var_plus > 0.0:
        return float("nan")
    rho = np.zeros(n_draw)
    mean_acov = acov.mean(axis=0)
    rho_even = 1.0
    rho_odd = 1.0 - (mean_var - mean_acov[1]) / var_plus
    rho[0], rho[1] = rho_even, rho_odd
    t = 1
    while t < n_draw - 3 and rho_even + rho_odd > 0.0:
        rho_even = 1.0 - (mean_var - mean_acov[t + 1]) / var_plus
        rho_odd = 1.0 - (mean_var - mean_acov[t + 2]) / var_plus
        if rho_even + rho_odd >= 0.0:
            rho[t + 1], rho[t + 2] = rho_even, rho_odd
        t += 2
    max_t = t - 2
    if rho_even > 0.0:
        rho[max_t + 1] = rho_even
    t = 1
    while t <= max_t - 2:
        if rho[t + 1] + rho[t + 2] > rho[t - 1] + rho[t]:
            rho[t + 1] = rho[t + 2] = (rho[t - 1] + rho[t]) / 2.0
        t += 2
    total = n_chain * n_draw
    tau = -1.0 + 2.0 * np.sum(rho[: max_t + 1]) + np.sum(rho[max_t + 1 : max_t + 2])
    tau = max(tau, 1.0 / np.log10(total))
    return float(total / tau)


def _ess(x: np.ndarray) -> np.ndarray:
    """Per-parameter ESS of already-split chains ``x`` shaped (chains, draws, dim)."""
    n_draw = x.shape[1]
    acov = np.asarray(autocovariance(x, axis=1, bias=True), dtype=np.float64)
    chain_mean = x.mean(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.array(
            [_ess_one(acov[:, :, j], chain_mean[:, j], n_draw) for j in range(x.shape[2])]
        )


def rhat_bulk(draws: Any) -> np.ndarray:
    """Rank-normalised split R-hat (Vehtari et al. 2021, Eq. (14)-(15), "bulk-R-hat").

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        One value per parameter, shape ``(dim,)``. NaN for a constant parameter.
    """
    x = as_chain_draws(draws)
    return _gelman_rubin(rank_normalize(split_chains(x)))


def rhat_folded(draws: Any) -> np.ndarray:
    """Folded rank-normalised split R-hat (Vehtari et al. 2021, Sec. 4.2, "tail-R-hat").

    The (split) draws are folded around their pooled median, ``|theta - median(theta)|``,
    then rank-normalised; this detects chains that differ in scale rather than location.

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        One value per parameter, shape ``(dim,)``.
    """
    x = as_chain_draws(draws)
    split = split_chains(x)
    folded = np.abs(split - np.median(split.reshape(-1, split.shape[2]), axis=0))
    return _gelman_rubin(rank_normalize(folded))


def rhat(draws: Any) -> np.ndarray:
    """Maximum of bulk and folded R-hat (Vehtari et al. 2021, Sec. 4.2).

    This is the single R-hat that Stan, ``posterior`` and posteriordb report and that the
    reference check ``r_hat_below_<x>`` compares to its threshold.

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        One value per parameter, shape ``(dim,)``.
    """
    return np.maximum(rhat_bulk(draws), rhat_folded(draws))


def ess_basic(draws: Any) -> np.ndarray:
    """Split-chain ESS of the draws themselves, without rank normalisation.

    This is the ESS relevant for the Monte Carlo standard error of a posterior mean
    (``posterior::ess_basic``; Vehtari et al. 2021, Sec. 3.2).

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        One value per parameter, shape ``(dim,)``.
    """
    x = as_chain_draws(draws)
    return _ess(split_chains(x))


def ess_bulk(draws: Any) -> np.ndarray:
    """Bulk effective sample size: split ESS of rank-normalised draws (Vehtari et al. 2021, Sec. 4.3).

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        One value per parameter, shape ``(dim,)``.
    """
    x = as_chain_draws(draws)
    return _ess(rank_normalize(split_chains(x)))


def ess_tail(draws: Any) -> np.ndarray:
    """Tail effective sample size (Vehtari et al. 2021, Sec. 4.3).

    The minimum of the split ESS of the indicators ``I(theta <= q_0.05)`` and
    ``I(theta <= q_0.95)``, with ``q`` the pooled empirical quantiles.

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        One value per parameter, shape ``(dim,)``.
    """
    x = as_chain_draws(draws)
    pooled = x.reshape(-1, x.shape[2])
    values = []
    for prob in (0.05, 0.95):
        q = np.quantile(pooled, prob, axis=0)
        indicator = (x <= q).astype(np.float64)
        values.append(_ess(split_chains(indicator)))
    return np.minimum(values[0], values[1])


def mcse_mean(draws: Any) -> np.ndarray:
    """Monte Carlo standard error of the posterior mean, ``sd / sqrt(ess_basic)``.

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    numpy.ndarray
        One value per parameter, shape ``(dim,)``.
    """
    x = as_chain_draws(draws)
    sd = np.std(x.reshape(-1, x.shape[2]), axis=0, ddof=1)
    return sd / np.sqrt(ess_basic(x))


def summarize(draws: Any) -> dict[str, list[float]]:
    """All per-parameter diagnostics of a set of chains, as JSON-ready lists.

    Parameters
    ----------
    draws : array_like
        Draws shaped ``(chains, draws, dim)``.

    Returns
    -------
    dict
        ``r_hat`` (max of bulk and folded), ``r_hat_bulk``, ``r_hat_folded``,
        ``ess_bulk`` and ``ess_tail``: lists of floats, one per parameter.
    """
    x = as_chain_draws(draws)
    bulk, folded = rhat_bulk(x), rhat_folded(x)
    return {
        "r_hat": np.maximum(bulk, folded).tolist(),
        "r_hat_bulk": bulk.tolist(),
        "r_hat_folded": folded.tolist(),
        "ess_bulk": ess_bulk(x).tolist(),
        "ess_tail": ess_tail(x).tolist(),
    }
