"""A posterior as the Stan program's data (geobayes.stan.export): what every branch receives, and the
clear errors for what the program cannot express. No Stan needed."""

import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.dataset import Dataset
from geobayes.models.flat_prior import FlatPrior
from geobayes.models.logistic_regression import LogisticRegression
from geobayes.networks.mlp import MultilayerPerceptron
from geobayes.networks.network_models import NetworkClassifier
from geobayes.posterior import Posterior
from geobayes.stan.export import EMBEDDINGS, FAMILIES, StanExportError, log_prior_factor_determinant, stan_data
from geobayes.targets.isotropic_gaussian import IsotropicGaussian
from stan_family_posteriors import family_posteriors, prior_factor

POSTERIORS = family_posteriors()


@pytest.mark.parametrize("name", ["logreg", "synthpois", "poisgp", "berngp", "multigp", "lingauss"])
def test_affine_models_are_their_embedding_matrix(name):
    """``E theta + c`` read off the library's embedding reproduces it at any theta, flattened observation by
    observation (the categorical family's C - 1 parameters of one observation together)."""
    posterior = POSTERIORS[name]
    data = stan_data(posterior)
    assert data["embedding"] == EMBEDDINGS["affine"] and data["E"].shape == (data["R"], posterior.dim)
    theta = np.random.default_rng(1).normal(size=posterior.dim)
    h = np.asarray(posterior.embed(jnp.asarray(theta)))
    np.testing.assert_allclose(data["E"] @ theta + data["c"], h.reshape(-1), rtol=1e-12, atol=1e-12)
    assert data["K"] == (h.shape[1] if h.ndim == 2 else 1) and data["R"] == data["N"] * data["K"]


def test_families_priors_and_labels():
    logreg, multigp, growth = (stan_data(POSTERIORS[n]) for n in ("logreg", "multigp", "growth"))
    assert logreg["family"] == 1 and set(logreg["y_int"]) <= {0, 1} and not logreg["y_real"].any()
    assert (logreg["dense_prior"], logreg["prior_scale"]) == (0, 2.0)  # N(0, 4 I)
    y = np.asarray(POSTERIORS["multigp"].data.y)
    np.testing.assert_array_equal(multigp["y_int"], y + 1)  # Stan's classes 1 .. C, the last the reference
    assert multigp["family"] == 5 and multigp["dense_prior"] == 1
    np.testing.assert_allclose(multigp["L"] @ multigp["L"].T, POSTERIORS["multigp"].prior_covariance(), atol=1e-12)
    assert growth["embedding"] == EMBEDDINGS["logistic_growth"] and growth["X"].shape == (9, 1)
    mlp_var = stan_data(POSTERIORS["mlp_var"])
    assert (mlp_var["embedding"], mlp_var["inferred_noise"], mlp_var["activation"]) == (4, 1, 2)
    assert list(mlp_var["widths"]) == [1, 3, 3, 1] and mlp_var["D"] == 1 + sum((a + 1) * b for a, b in [(1, 3), (3, 3), (3, 1)])
    assert len(FAMILIES) == 5


def test_prior_factor_determinant_is_the_log_det_of_theta_of_z():
    for posterior in POSTERIORS.values():
        data = stan_data(posterior)
        sign, logdet = np.linalg.slogdet(prior_factor(data))
        assert sign > 0 and log_prior_factor_determinant(data) == pytest.approx(logdet, rel=1e-12)


def test_what_the_program_cannot_express_is_named():
    with pytest.raises(StanExportError, match="d2-gaussian: a closed-form target has no Stan program"):
        stan_data(IsotropicGaussian("d2-gaussian", 2))
    X, y = np.ones((5, 2)), np.array([0.0, 1.0, 1.0, 0.0, 1.0])
    with pytest.raises(StanExportError, match=r"toy-flat: prior FlatPrior has no branch .*GaussianPrior"):
        stan_data(Posterior("toy-flat", LogisticRegression(prior=FlatPrior()), Dataset(X, y)))
    with pytest.raises(StanExportError, match=r"model NetworkClassifier has a non-affine embedding without a branch"):
        stan_data(Posterior("toy-classifier", NetworkClassifier(network=MultilayerPerceptron((2, 3, 1))), Dataset(X, y)))
    with pytest.raises(StanExportError, match=r"toy-counts: family Bernoulli needs non-negative integer observations"):
        stan_data(Posterior("toy-counts", LogisticRegression(), Dataset(X, y + 0.5)))
