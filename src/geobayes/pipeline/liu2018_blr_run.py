"""One particle run of Liu & Zhu's (2018) Bayesian logistic regression (Sec. 5.1, Fig. 1).

Prior ``w ~ N(0, alpha I)``, Bernoulli likelihood with the logistic link, full-batch scores;
particles drawn from the prior (the code's ``N(0, alpha I)`` initialisation); SVGD or RSVGD with
the closed-form Fisher metric of App. A7 (:func:`geobayes.svgd.blr_metric_quantities`). Every
``record_every`` iterations: the test accuracy and log likelihood of the particles' predictive,
``p_hat_n = mean_i p(y_n | x_n, w_i)``, as the code evaluates them (notes Sec. 2.1).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.pipeline.compile_clock import CompileClock
from geobayes.svgd import (
    BANDWIDTH_NAMES, bandwidth_from_name, blr_metric_quantities, build_optimizer, check_density_convention, rsvgd_field,
    run_particles, svgd_field,
)

__all__ = ["BlrMethod", "blr_score", "predictive_metrics", "run_blr"]

@dataclasses.dataclass(frozen=True)
class BlrMethod:
    """One named method of a Fig. 1 panel (``experiments.liu2018_blr.panels.<p>.methods.<name>``)."""

    method: str
    optimizer: str
    step_size: float
    bandwidth: str
    density_convention: str | None = "code"

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], where: str) -> BlrMethod:
        """Build and check one config entry; a bad key or value is one line naming ``where``."""
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(mapping) - fields)
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {unknown}; known: {sorted(fields)}")
        try:
            settings = cls(**mapping)
        except TypeError as error:
            raise ValueError(f"{where}: {error}") from None
        if settings.method not in ("svgd", "rsvgd"):
            raise ValueError(f"{where}.method: expected 'svgd' or 'rsvgd', got {settings.method!r}")
        if settings.bandwidth not in BANDWIDTH_NAMES:
            raise ValueError(f"{where}.bandwidth: expected one of {sorted(BANDWIDTH_NAMES)}, got {settings.bandwidth!r}")
        try:
            if settings.method == "rsvgd":
                check_density_convention(settings.density_convention)
            build_optimizer(settings.optimizer, float(settings.step_size))
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        return settings


def blr_score(w: jax.Array, features: jax.Array, labels: jax.Array, prior_variance: float) -> jax.Array:
    """``grad log pi(w) = -w / alpha + sum_d (y_d - s(w^T x_d)) x_d`` (Liu & Zhu 2018, App. A7)."""
    return -w / prior_variance + features.T @ (labels - jax.nn.sigmoid(features @ w))


def predictive_metrics(particles: jax.Array, features: jax.Array, labels: jax.Array) -> dict[str, jax.Array]:
    """Test accuracy and mean log likelihood of ``p_hat_n = mean_i p(y_n | x_n, w_i)`` (the code's evaluation)."""
    logits = features @ particles.T  # (D, N)
    log_p = jnp.where(labels[:, None] > 0.5, jax.nn.log_sigmoid(logits), jax.nn.log_sigmoid(-logits))
    log_p_hat = jax.nn.logsumexp(log_p, axis=1) - jnp.log(particles.shape[0])
    correct = (log_p_hat > jnp.log(0.5)).astype(log_p_hat.dtype)
    return {"accuracy": jnp.mean(correct), "log_likelihood": jnp.mean(log_p_hat)}


def run_blr(key: jax.Array, arrays: Mapping[str, np.ndarray], settings: BlrMethod, *, particles: int,
            prior_variance: float, iterations: int, record_every: int) -> tuple[dict, dict]:
    """Run one method on one split; return the tidy record's fields and the curves.

    Parameters
    ----------
    key
        Draws the initial particles ``N(0, alpha I)``.
    arrays
        ``X_train``, ``y_train``, ``X_test``, ``y_test`` (:data:`geobayes.data.liu2018_blr.LIU2018_BLR`).
    settings
        The method.
    particles, prior_variance, iterations, record_every
        ``N``, ``alpha``, ``T`` and the evaluation interval (``T`` is rounded up to a multiple of it).

    Returns
    -------
    record : dict
        ``accuracy_final``, ``accuracy_mean`` (over the recorded iterations, 0 included),
        ``log_likelihood_final``, ``seconds_per_iteration`` (compilation excluded), ``compile_s``,
        ``n_samples`` (particles) and ``n_failed`` (particles not finite at the end).
    curves : dict
        ``iterations``, ``accuracy``, ``log_likelihood`` and ``nonfinite`` per record.
    """
    X, y = jnp.asarray(arrays["X_train"]), jnp.asarray(arrays["y_train"])
    X_test, y_test = jnp.asarray(arrays["X_test"]), jnp.asarray(arrays["y_test"])
    alpha = float(prior_variance)
    iterations = -(-int(iterations) // int(record_every)) * int(record_every)

    def score(w):
        return blr_score(w, X, y, alpha)

    bandwidth = bandwidth_from_name(settings.bandwidth)
    if settings.method == "rsvgd":
        direction = rsvgd_field(score, lambda w: blr_metric_quantities(w, X, alpha), bandwidth,
                                settings.density_convention)
    else:
        direction = svgd_field(score, bandwidth)
    optimizer = build_optimizer(settings.optimizer, float(settings.step_size))
    start = jnp.sqrt(alpha) * jax.random.normal(key, (int(particles), X.shape[1]), dtype=X.dtype)
    began = time.perf_counter()
    with CompileClock() as clock:
        run = run_particles(direction, optimizer, start, iterations, int(record_every),
                            lambda w: predictive_metrics(w, X_test, y_test))
        accuracy = np.asarray(run.records["accuracy"], dtype=np.float64)
    seconds = time.perf_counter() - began - clock.seconds
    log_likelihood = np.asarray(run.records["log_likelihood"], dtype=np.float64)
    final = np.asarray(run.particles)
    record = {"accuracy_final": float(accuracy[-1]), "accuracy_mean": float(accuracy.mean()),
              "log_likelihood_final": float(log_likelihood[-1]),
              "seconds_per_iteration": seconds / max(iterations, 1), "compile_s": clock.seconds,
              "n_samples": int(particles), "n_failed": int((~np.isfinite(final).all(axis=1)).sum()),
              "first_nonfinite_iteration": int(run.first_nonfinite_iteration), "iterations": iterations}
    curves = {"iterations": run.record_iterations, "accuracy": accuracy, "log_likelihood": log_likelihood,
              "nonfinite": np.asarray(run.nonfinite_counts)}
    return record, curves
