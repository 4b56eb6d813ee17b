"""One run of Liu & Zhu's (2018) spherical admixture model experiment (Sec. 5.2, Fig. 2).

The topics ``beta`` live on ``(S^{n-1})^P``. Every method moves ``N`` particles (RSVGD, the
MCMCs' ``-par`` mode: ``N`` chains, the last state of each) or one chain whose last ``N`` states
are the particles (``-seq``), and after every epoch the test log-perplexity of the particles is
recorded (:func:`geobayes.sam.log_perplexity`, its Dirichlet draws the same at every epoch):

* ``rsvgd``: the embedded-space RSVGD update (Prop. 9, :func:`geobayes.spheres.rsvgd_update`) with
  the Fisher-identity gradient of ``log p(beta | v)`` (:func:`geobayes.sam.log_posterior_gradient`),
  one update per epoch (full batch), step ``eps0 / t^0.7`` from ``t = 2`` (the code's ``rsgd``,
  :func:`geobayes.spheres.step_size`);
* ``gmc``: geodesic Monte Carlo (Byrne & Girolami 2013) on ``beta`` given the topic proportions,
  Metropolis-within-Gibbs: ``theta_d | beta`` by the inner simplex sampler (its last kept state),
  then one GMC transition of ``beta`` with the Metropolis test on the joint
  ``log p(beta) + sum_d log p(v_d | beta, theta_d)``, which is tractable where
  ``log p(beta | v)`` is not; one transition per epoch;
* ``sggmc``: stochastic-gradient geodesic MCMC (Liu, Zhu & Song 2016,
  :func:`geobayes.spheres.sggmc_step`) on the Fisher-identity gradient, full batch (SGGMCf, one
  step per epoch) or mini-batches (SGGMCb, ``ceil(D / batch)`` steps per epoch, the paper's epoch
  rather than the code's loop counter, notes 5.4 H).

Particles start as the code does: ``normalize_col(m 1^T + Z / sqrt(n))``, ``Z ~ N(0, I)``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.sam import SamSettings, corpus_mean_direction, log_perplexity, log_posterior_gradient
from geobayes.sam.likelihood import log_likelihood
from geobayes.sam.prior import log_prior
from geobayes.sam.topic_proportions import sample_topic_proportions
from geobayes.spheres import (
    SCHEDULES, gmc_step, normalize_columns, rsvgd_update, sggmc_init, sggmc_step, sggmc_step_size,
)
from geobayes.spheres import step_size as rsvgd_step_size

__all__ = ["SamMethod", "initial_topics", "run_sam"]

_KINDS = {"rsvgd": (None,), "gmc": ("seq", "par"), "sggmc": ("seq", "par")}


@dataclasses.dataclass(frozen=True)
class SamMethod:
    """One method of Fig. 2 (``experiments.liu2018_sam.methods.<name>``); null where a setting does not apply.

    Parameters
    ----------
    method
        ``rsvgd``, ``gmc`` or ``sggmc``.
    mode
        ``seq`` or ``par`` (the MCMCs); null for RSVGD.
    step_size
        RSVGD's ``eps0``; GMC's leapfrog step; SGGMC's learning rate ``gamma`` (step ``sqrt(gamma / D)``).
    schedule
        RSVGD: ``fixed`` or ``decay`` (``eps0 / t^0.7``, :func:`geobayes.spheres.step_size`).
    bandwidth
        RSVGD: ``median`` (the code's adaptive kappa per topic) or a fixed kappa.
    leapfrog_steps
        GMC's and SGGMC's ``L`` per transition.
    friction
        SGGMC's ``alpha``.
    batch_size
        SGGMC's mini-batch (null: full batch).
    inner_burn_in, inner_kept
        The inner simplex sampler's burn-in and kept states per gradient.
    """

    method: str
    mode: str | None
    step_size: float
    schedule: str | None
    bandwidth: str | float | None
    leapfrog_steps: int | None
    friction: float | None
    batch_size: int | None
    inner_burn_in: int
    inner_kept: int

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], where: str) -> SamMethod:
        """Build and check one config entry (its ``inner`` block flattened); errors are one line naming ``where``."""
        mapping = dict(mapping)
        inner = mapping.pop("inner", None) or {}
        try:
            settings = cls(**mapping, inner_burn_in=inner.get("burn_in"), inner_kept=inner.get("kept"))
        except TypeError as error:
            raise ValueError(f"{where}: {error}") from None
        if settings.method not in _KINDS or settings.mode not in _KINDS[settings.method]:
            raise ValueError(f"{where}: method {settings.method!r} with mode {settings.mode!r}; expected rsvgd "
                             "(mode null), gmc or sggmc (mode seq or par)")
        needed = {"rsvgd": ("schedule", "bandwidth"), "gmc": ("leapfrog_steps",),
                  "sggmc": ("leapfrog_steps", "friction")}[settings.method]
        missing = [name for name in needed if getattr(settings, name) is None]
        if missing:
            raise ValueError(f"{where}: {settings.method} needs {missing}")
        if settings.method == "rsvgd" and settings.schedule not in SCHEDULES:
            raise ValueError(f"{where}.schedule: expected one of {list(SCHEDULES)}, got {settings.schedule!r}")
        return settings

    def inner_settings(self, model: SamSettings) -> SamSettings:
        """The model settings with this method's inner burn-in and kept states."""
        return dataclasses.replace(model, inner_burn_in=int(self.inner_burn_in), inner_kept=int(self.inner_kept))


def initial_topics(key: jax.Array, corpus_mean: jax.Array, n_topics: int, count: int) -> jax.Array:
    """``count`` topic matrices ``normalize_col(m 1^T + Z / sqrt(n))`` (the code's initialisation), (count, n, P)."""
    n = corpus_mean.shape[0]
    noise = jax.random.normal(key, (count, n, n_topics), dtype=corpus_mean.dtype) / math.sqrt(n)
    return normalize_columns(corpus_mean[None, :, None] + noise)


def _joint_logdensity(beta, theta, documents, corpus_mean, model: SamSettings):
    likelihood = jax.vmap(log_likelihood, in_axes=(None, 0, 0, None))(beta, theta, documents, model.kappa1)
    return log_prior(beta, corpus_mean, model.sigma, model.kappa0) + jnp.sum(likelihood)


def run_sam(key: jax.Array, arrays: Mapping[str, np.ndarray], settings: SamMethod, model: SamSettings, *,
            particles: int, epochs: int, perplexity_draws: int) -> tuple[dict, dict]:
    """Run one method for ``epochs`` epochs with ``particles`` particles; return the record and the curves.

    Returns
    -------
    record : dict
        ``log_perplexity_final``, ``log_perplexity_best``, ``seconds_per_epoch`` (compilation included
        in the first epoch only), ``acceptance_rate`` (the MCMC's or the inner sampler's mean),
        ``n_samples`` (particles), ``n_failed`` (particles not finite at the end).
    curves : dict
        ``epochs`` (0 .. E) and ``log_perplexity`` per epoch (epoch 0: the initial particles).
    """
    train = jnp.asarray(arrays["train_documents"])
    test = jnp.asarray(arrays["test_documents"])
    n_documents = train.shape[0]
    corpus_mean = corpus_mean_direction(train)
    inner = settings.inner_settings(model)
    keys = {name: jax.random.fold_in(key, i) for i, name in enumerate(("init", "perplexity", "run"))}
    count = 1 if settings.mode == "seq" else int(particles)
    state = initial_topics(keys["init"], corpus_mean, model.n_topics, count)

    def perplexity(topics):
        return float(log_perplexity(keys["perplexity"], topics, test, model.kappa1, model.alpha,
                                    n_draws=perplexity_draws))

    @jax.jit
    def scores(step_key, topics):
        grads = jax.vmap(lambda k, b: log_posterior_gradient(k, b, train, corpus_mean, inner))(
            jax.random.split(step_key, topics.shape[0]), topics)
        return grads.gradient, jnp.mean(grads.acceptance_rate)

    batch = settings.batch_size if settings.batch_size is not None else n_documents
    steps_per_epoch = math.ceil(n_documents / batch) if settings.method == "sggmc" else 1

    def grad_potential(grad_key, beta):
        k_batch, k_inner = jax.random.split(grad_key)
        index = (None if batch >= n_documents
                 else jax.random.choice(k_batch, n_documents, (batch,), replace=False))
        return -log_posterior_gradient(k_inner, beta, train, corpus_mean, inner, batch=index).gradient

    @jax.jit
    def sggmc_epoch(epoch_key, chain_states):
        epsilon = sggmc_step_size(settings.step_size, n_documents)

        def one_chain(k, chain):
            def body(c, kk):
                return sggmc_step(kk, c, grad_potential, step_size=epsilon, friction=settings.friction,
                                  num_leapfrog=int(settings.leapfrog_steps)), None
            chain, _ = jax.lax.scan(body, chain, jax.random.split(k, steps_per_epoch))
            return chain

        return jax.vmap(one_chain)(jax.random.split(epoch_key, chain_states.position.shape[0]), chain_states)

    @jax.jit
    def gmc_epoch(epoch_key, topics):
        def one_chain(k, beta):
            k_theta, k_move = jax.random.split(k)
            draws = sample_topic_proportions(k_theta, beta.T @ beta, train @ beta, inner)
            theta = draws.samples[:, -1]
            position, info = gmc_step(k_move, beta,
                                      lambda b: _joint_logdensity(b, theta, train, corpus_mean, model),
                                      settings.step_size, int(settings.leapfrog_steps))
            return position, info.acceptance_probability
        positions, accept = jax.vmap(one_chain)(jax.random.split(epoch_key, topics.shape[0]), topics)
        return positions, jnp.mean(accept)

    chains = (jax.vmap(sggmc_init)(jax.random.split(keys["run"], count), state)
              if settings.method == "sggmc" else None)
    history = deque(maxlen=int(particles))
    history.extend(np.asarray(state))
    curve, acceptance, began = [perplexity(jnp.stack(list(history)))], [], time.perf_counter()
    for epoch in range(1, int(epochs) + 1):
        epoch_key = jax.random.fold_in(keys["run"], epoch)
        if settings.method == "rsvgd":
            grads, rate = scores(epoch_key, state)
            eps = rsvgd_step_size(settings.schedule, settings.step_size, epoch - 1)  # decay: t = 2 first (rsgd)
            state = rsvgd_update(state, grads, eps, bandwidth=settings.bandwidth)
        elif settings.method == "gmc":
            state, rate = gmc_epoch(epoch_key, state)
        else:
            chains = sggmc_epoch(epoch_key, chains)
            state, rate = chains.position, jnp.nan
        acceptance.append(float(rate))
        if settings.mode == "seq":
            history.append(np.asarray(state[0]))
        else:
            history.clear()
            history.extend(np.asarray(state))
        curve.append(perplexity(jnp.stack(list(history))))
    seconds = time.perf_counter() - began
    final = np.stack(list(history))
    finite = np.isfinite(final).reshape(final.shape[0], -1).all(axis=1)
    values = np.asarray(curve, dtype=np.float64)
    rates = np.asarray(acceptance, dtype=np.float64)
    record = {"log_perplexity_final": float(values[-1]), "log_perplexity_best": float(np.nanmin(values)),
              "seconds_per_epoch": seconds / max(int(epochs), 1),
              "acceptance_rate": float(np.nanmean(rates)) if np.isfinite(rates).any() else None,
              "n_samples": int(final.shape[0]), "n_failed": int((~finite).sum()), "epochs": int(epochs),
              "steps_per_epoch": steps_per_epoch}
    return record, {"epochs": np.arange(int(epochs) + 1), "log_perplexity": values}
