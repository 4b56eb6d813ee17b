"""The posterior registry: build_posterior is a lookup of registered from_options constructors;
noise variances that are not finite and positive are one-line errors naming the option."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.data.prepared import save_prepared
from geobayes.families import GaussianFixedVariance
from geobayes.models import Banana, LatentGaussianProcess, LinearGaussianRegression, LogisticRegression
from geobayes.networks import NetworkRegression
from geobayes.pipeline.posteriors import build_model, build_posterior
from geobayes.posterior import Posterior
from geobayes.registry import closed_form_targets, lookup, register_model, registered
from geobayes.targets import Funnel, Squiggle


def _logreg_file(tmp_path, rng=None):
    rng = rng or np.random.default_rng(0)
    X = np.column_stack([rng.normal(size=(8, 2)), np.ones(8)])
    y = np.tile([0.0, 1.0], 4)
    return save_prepared(tmp_path / "d.npz", "logreg", {"X": X, "y": y, "feature_mean": np.zeros(2),
                                                         "feature_std": np.ones(2), "standardised": np.asarray(False)})


def test_build_posterior_looks_up_the_model_and_reads_the_prepared_file(tmp_path):
    path = _logreg_file(tmp_path)
    posterior = build_posterior("heart_raw-logreg", path, {"prior_variance": 4.0})
    assert isinstance(posterior, Posterior) and isinstance(posterior.model, LogisticRegression)
    assert posterior.model.prior.variance == 4.0 and posterior.dim == 3
    # Hartmann et al.'s Bernoulli regression is the same class under another registered name.
    assert isinstance(build_posterior("heart-bernreg", path, {}).model, LogisticRegression)


def test_closed_form_targets_need_no_data_file():
    assert set(closed_form_targets()) == {"gaussian", "squiggle", "funnel", "rosenbrock", "softplus_funnel"}
    squiggle = build_posterior("easy-squiggle", None, {"a": 1.5, "variances": {"easy": [5.0, 0.05]}})
    assert isinstance(squiggle, Squiggle) and np.asarray(squiggle.variances).tolist() == [5.0, 0.05]
    assert isinstance(build_posterior("neal-funnel", None, {"sigma": 3.0}), Funnel)
    with pytest.raises(ValueError, match="variances has no 'hard'"):
        build_posterior("hard-squiggle", None, {"a": 1.5, "variances": {"easy": [5.0, 0.05]}})


def test_latent_gp_kernel_is_built_on_the_file_inputs():
    X = np.arange(6.0).reshape(3, 2)
    model = build_model("berngp", {"kernel": {"variance": 2.0, "lengthscale": 1.0, "jitter": 0.0}}, {"X": X})
    assert isinstance(model, LatentGaussianProcess)
    np.testing.assert_allclose(np.diag(np.asarray(model.prior.covariance(3))), 2.0)


@pytest.mark.parametrize("model", ["berngp", "poisgp"])
def test_latent_gps_on_inputs_of_other_widths_share_one_program_and_keep_their_densities(tmp_path, model):
    """A latent GP reads X only to build its kernel: its posterior holds X's rows and no columns,
    so data sets of equal size and any feature count lower to one program (the persistent cache
    then compiles it once), with the density of the model built on the full inputs."""
    import equinox as eqx
    import jax.numpy as jnp

    from geobayes.dataset import Dataset

    rng = np.random.default_rng(1)
    options = {"kernel": {"variance": 4.0, "lengthscale": 2.0, "jitter": 1e-6}}
    theta = jnp.asarray(rng.normal(size=6))
    density = eqx.filter_jit(lambda posterior: posterior.logdensity(theta))
    programs = []
    for width in (2, 5):
        X, y = rng.normal(size=(6, width)), rng.integers(0, 2, size=6).astype(float)
        path = save_prepared(tmp_path / f"w{width}.npz", "glm", {
            "X": X, "y": y, "indices": np.arange(6), "feature_mean": np.zeros(width), "feature_std": np.ones(width),
            "standardised": np.asarray(True)})
        posterior = build_posterior(f"w{width}-{model}", path, options)
        assert posterior.data.X.shape == (6, 0) and posterior.dim == 6
        full = Posterior("full", build_model(model, options, {"X": X}), Dataset(X, y))
        np.testing.assert_allclose(float(density(posterior)), float(full.logdensity(theta)), rtol=1e-13)
        programs.append(density.lower(posterior).as_text())
    assert programs[0] == programs[1]


def test_unknown_model_lists_the_registered_names(tmp_path):
    with pytest.raises(KeyError, match=r"unknown model 'nosuch'; registered: .*logreg"):
        build_posterior("x-nosuch", _logreg_file(tmp_path), {})


def test_a_new_model_registers_itself_and_is_built_by_name(tmp_path):
    @register_model("test_only_logreg")
    def _from_options(options, arrays):
        return LogisticRegression()

    try:
        assert "test_only_logreg" in registered()
        assert isinstance(build_posterior("d-test_only_logreg", _logreg_file(tmp_path), {}).model, LogisticRegression)
        with pytest.raises(ValueError, match="registered twice"):
            register_model("test_only_logreg")(lambda options, arrays: None)
    finally:
        import geobayes.registry as registry

        registry._ENTRIES.pop("test_only_logreg")


def test_networks_are_claimed_by_the_network_family(tmp_path):
    options = {"networks": {"mlp1x3": {"hidden": [3], "activation": "tanh"}}}
    assert lookup("mlp1x3", options).name == "network"
    arrays = {"X": np.zeros((4, 1)), "noise_variance": np.asarray(0.25), "prior_variance": np.asarray(2.0)}
    model = build_model("mlp1x3", options, arrays)
    assert isinstance(model, NetworkRegression) and model.family.noise_variance == 0.25


@pytest.mark.parametrize("value", [0.0, -1.0, np.nan, np.inf])
def test_non_positive_noise_variances_are_rejected_naming_the_option(value):
    with pytest.raises(ValueError, match=r"option 'noise_variance' must be a finite number > 0"):
        build_model("lingauss", {"noise_variance": value, "prior_variance": 1.0})
    with pytest.raises(ValueError, match=r"option 'noise_std' must be a finite number > 0"):
        build_model("banana", {"noise_std": value, "prior_variance": 4.0})
    options = {"networks": {"m": {"hidden": [2], "activation": "tanh"}}}
    arrays = {"X": np.zeros((3, 1)), "noise_variance": np.asarray(value), "prior_variance": np.asarray(1.0)}
    with pytest.raises(ValueError, match=r"trained-network array 'noise_variance' must be a finite number > 0"):
        build_model("m", options, arrays)
    with pytest.raises(ValueError, match=r"noise_variance must be a finite number > 0"):
        GaussianFixedVariance(value)
    with pytest.raises(ValueError, match=r"noise_variance must be finite and > 0"):
        Banana(noise_variance=value)


def test_valid_noise_still_builds():
    assert isinstance(build_model("lingauss", {"noise_variance": 0.5, "prior_variance": 1.0}), LinearGaussianRegression)
    assert build_model("banana", {"noise_std": 2.0, "prior_variance": 4.0}).noise_variance == 4.0
