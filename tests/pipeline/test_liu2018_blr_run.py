"""One Bayesian-logistic-regression particle run of Liu & Zhu's (2018) Fig. 1 (geobayes.pipeline.liu2018_blr_run)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.pipeline.liu2018_blr_run import BlrMethod, blr_score, predictive_metrics, run_blr


def _split(seed=0, n=300, m=5):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.normal(size=(n, m - 1)), np.ones(n)])
    w = rng.normal(size=m) * 2.0
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-X @ w))).astype(float)
    return {"X_train": X[:200], "y_train": y[:200], "X_test": X[200:], "y_test": y[200:]}


def test_predictive_metrics_average_the_particles_probabilities():
    X = jnp.array([[1.0], [-1.0]])
    y = jnp.array([1.0, 1.0])
    particles = jnp.array([[0.0], [100.0]])  # p(y=1) = 0.5 and ~1 at x = 1; 0.5 and ~0 at x = -1
    metrics = predictive_metrics(particles, X, y)
    assert float(metrics["accuracy"]) == 0.5  # p_hat = 0.75 > 0.5 at x = 1, 0.25 at x = -1
    np.testing.assert_allclose(float(metrics["log_likelihood"]), np.mean(np.log([0.75, 0.25])), rtol=1e-10)


def test_score_is_the_gradient_of_the_log_posterior():
    data = _split()
    X, y = jnp.asarray(data["X_train"]), jnp.asarray(data["y_train"])
    w = jnp.linspace(-0.3, 0.3, X.shape[1])

    def log_posterior(v):
        logits = X @ v
        return jnp.sum(y * logits - jnp.logaddexp(0.0, logits)) - v @ v / (2 * 0.5)

    np.testing.assert_allclose(blr_score(w, X, y, 0.5), jax.grad(log_posterior)(w), rtol=1e-10)


@pytest.mark.parametrize("settings", [
    BlrMethod("rsvgd", "gd", 0.1, "summed", "code"),
    BlrMethod("rsvgd", "gd", 0.1, "summed", "paper"),
    BlrMethod("svgd", "adagrad_momentum", 0.05, "median", None),
])
def test_particles_learn_the_classifier_from_the_prior_and_report_their_curve(settings):
    # the paper's prior variance alpha = 0.01 (the particles start from it)
    record, curves = run_blr(jax.random.PRNGKey(0), _split(), settings, particles=20, prior_variance=0.01,
                             iterations=40, record_every=10)
    assert list(curves["iterations"]) == [0, 10, 20, 30, 40]
    assert record["n_failed"] == 0 and record["n_samples"] == 20
    assert 0.0 <= record["accuracy_mean"] <= 1.0 and record["seconds_per_iteration"] > 0
    # better than the prior's draws, and close to the generating classifier's accuracy (~0.8-0.9)
    assert record["accuracy_final"] > curves["accuracy"][0] and record["accuracy_final"] > 0.75
    assert record["log_likelihood_final"] > curves["log_likelihood"][0]


def test_same_key_same_numbers():
    settings = BlrMethod("rsvgd", "gd", 0.3, "summed", "code")
    runs = [run_blr(jax.random.PRNGKey(3), _split(), settings, particles=10, prior_variance=1.0, iterations=10,
                    record_every=5)[1] for _ in range(2)]
    np.testing.assert_array_equal(runs[0]["accuracy"], runs[1]["accuracy"])
    np.testing.assert_array_equal(runs[0]["log_likelihood"], runs[1]["log_likelihood"])


@pytest.mark.parametrize("mapping, message", [
    ({"method": "svgd", "optimizer": "gd", "step_size": 0.1, "bandwidth": "medium", "density_convention": None},
     r"^panels.p.methods.m.bandwidth: expected one of \['median', 'summed'\], got 'medium'$"),
    ({"method": "hmc", "optimizer": "gd", "step_size": 0.1, "bandwidth": "median", "density_convention": None},
     r"^panels.p.methods.m.method: expected 'svgd' or 'rsvgd', got 'hmc'$"),
    ({"method": "svgd", "optimizer": "adam", "step_size": 0.1, "bandwidth": "median", "density_convention": None},
     r"^panels.p.methods.m: unknown particle optimizer 'adam'"),
    ({"method": "svgd", "optimiser": "gd", "step_size": 0.1, "bandwidth": "median"},
     r"^panels.p.methods.m: unknown key\(s\) \['optimiser'\]"),
])
def test_a_bad_method_entry_is_one_line_naming_it(mapping, message):
    with pytest.raises(ValueError, match=message):
        BlrMethod.from_mapping(mapping, "panels.p.methods.m")
