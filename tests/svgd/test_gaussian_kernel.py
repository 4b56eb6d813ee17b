"""Gaussian kernel helpers: distances, the code's median trick, bandwidth validation."""

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from geobayes.svgd import (
    DEFAULT_BANDWIDTHS, check_bandwidth, gaussian_kernel, median_bandwidth, pairwise_sq_distances,
    resolve_bandwidths,
)


def test_pairwise_sq_distances_and_kernel():
    x = jax.random.normal(jax.random.PRNGKey(0), (7, 3))
    y = jax.random.normal(jax.random.PRNGKey(1), (5, 3))
    brute = np.array([[np.sum((np.asarray(a) - np.asarray(b)) ** 2) for b in y] for a in x])
    np.testing.assert_allclose(pairwise_sq_distances(x, y), brute, rtol=1e-12)
    assert np.all(np.diag(pairwise_sq_distances(x)) == 0.0)
    np.testing.assert_allclose(gaussian_kernel(pairwise_sq_distances(x, y), 0.7), np.exp(-brute / 1.4), rtol=1e-12)


def test_median_bandwidth_matches_svgd_code():
    x = np.asarray(jax.random.normal(jax.random.PRNGKey(2), (10, 4)))
    sq = ((x[:, None] - x[None]) ** 2).sum(-1)  # squareform(pdist(theta))**2, diagonal included
    code_h = np.sqrt(0.5 * np.median(sq) / np.log(x.shape[0] + 1))  # the code's h, kernel exp(-d/h^2/2)
    assert math.isclose(float(median_bandwidth(jnp.asarray(x))), code_h**2, rel_tol=1e-12)
    np.testing.assert_allclose(resolve_bandwidths("median", jnp.asarray(x)), [code_h**2], rtol=1e-12)
    np.testing.assert_allclose(resolve_bandwidths(DEFAULT_BANDWIDTHS, jnp.asarray(x)), DEFAULT_BANDWIDTHS)


@pytest.mark.parametrize("spec, fragment", [
    ((1.0, 0.0), "finite and > 0"),
    ((1.0, -2.0), "finite and > 0"),
    ((float("nan"),), "finite and > 0"),
    ((float("inf"),), "finite and > 0"),
    ((), "empty"),
    ("mean", "'median'"),
    (("a",), "'median'"),
])
def test_bad_bandwidths_give_one_line_errors(spec, fragment):
    with pytest.raises(ValueError) as info:
        check_bandwidth(spec)
    message = str(info.value)
    assert "\n" not in message and message.startswith("bandwidth") and fragment in message


def test_good_bandwidth_specs():
    assert check_bandwidth("median") == "median"
    assert check_bandwidth([1, 2.5]) == (1.0, 2.5)


def test_config_bandwidth_names_map_to_the_median_trick_and_the_codes_summed_list():
    from geobayes.svgd import DEFAULT_BANDWIDTHS, bandwidth_from_name

    assert bandwidth_from_name("median") == "median" and bandwidth_from_name("summed") == DEFAULT_BANDWIDTHS
    with pytest.raises(ValueError, match=r"^bandwidth: expected one of \['median', 'summed'\], got 'mean'$"):
        bandwidth_from_name("mean")
