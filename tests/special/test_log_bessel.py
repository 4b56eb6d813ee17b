"""log I_nu, the ratio I_{nu+1}/I_nu and the vMF normaliser against scipy, mpmath and quadrature."""

import jax
import jax.numpy as jnp
import mpmath
import numpy as np
import pytest
import scipy.integrate
import scipy.special

from geobayes.special import bessel_iv_ratio, log_bessel_iv, log_vmf_normalizer, vmf_mean_resultant

RTOL = 1e-10


def _scipy_reference(nu, x):
    """log I_nu(x) and the ratio from scipy's exponentially scaled ive, where it neither under- nor overflows."""
    nu, x = np.broadcast_arrays(np.asarray(nu, float), np.asarray(x, float))
    low, high = scipy.special.ive(nu, x), scipy.special.ive(nu + 1, x)
    ok = (low > 1e-290) & (high > 1e-290) & np.isfinite(low) & np.isfinite(high)
    return np.log(low) + x, high / low, ok


def _assert_log_close(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    error = np.abs(got - ref) / np.maximum(np.abs(ref), 1.0)
    assert error.max() < RTOL, f"worst relative error {error.max():.3g} at {np.argmax(error)}"


@pytest.mark.parametrize("nu", [2499.0, 2500.0, 2499.5])
def test_sam_regime_against_scipy_ive(nu):
    x = np.geomspace(5e3, 1e5, 40)  # SAM needs 1e4..3e4; ive underflows below ~5e3 at this order
    ref_log, ref_ratio, ok = _scipy_reference(nu, x)
    assert ok.sum() == x.size
    _assert_log_close(jax.jit(log_bessel_iv)(nu, x), ref_log)
    np.testing.assert_allclose(jax.jit(bessel_iv_ratio)(nu, x), ref_ratio, rtol=RTOL)


@pytest.mark.parametrize("x", [100.0, 1000.0, 1e4])
def test_large_order_against_mpmath(x):
    """Where ive(2499, x) underflows (x = 100, 1000), mpmath at 30 digits is the reference."""
    mpmath.mp.dps = 30
    nu = 2499
    low, high = mpmath.besseli(nu, x, maxterms=10**6), mpmath.besseli(nu + 1, x, maxterms=10**6)
    _assert_log_close(log_bessel_iv(float(nu), x), float(mpmath.log(low)))
    np.testing.assert_allclose(float(bessel_iv_ratio(float(nu), x)), float(high / low), rtol=RTOL)


def test_small_regime_against_scipy_ive():
    nu, x = np.meshgrid([0.0, 0.5, 1.0, 2.5, 7.3, 20.0, 50.0], np.geomspace(0.1, 100.0, 25), indexing="ij")
    ref_log, ref_ratio, ok = _scipy_reference(nu, x)
    assert ok.all()
    _assert_log_close(log_bessel_iv(nu, x), ref_log)
    np.testing.assert_allclose(bessel_iv_ratio(nu, x), ref_ratio, rtol=RTOL)


def test_half_order_closed_form():
    """I_{1/2}(x) = sqrt(2 / (pi x)) sinh(x) (DLMF 10.39.1), over a wide range of x."""
    x = np.geomspace(1e-3, 700.0, 50)
    _assert_log_close(log_bessel_iv(0.5, x), np.log(np.sqrt(2.0 / (np.pi * x)) * np.sinh(x)))
    # A(1/2, x) = I_{3/2}/I_{1/2} = coth(x) - 1/x
    np.testing.assert_allclose(bessel_iv_ratio(0.5, x[x > 1e-2]), 1 / np.tanh(x[x > 1e-2]) - 1 / x[x > 1e-2], rtol=1e-9)


def test_derivative_in_x_is_ratio_plus_order_over_x():
    """The custom JVP: d/dx log I_nu(x) = A(nu, x) + nu/x, checked by central differences of scipy."""
    for nu, x in [(2499.0, 2e4), (0.5, 3.0), (10.0, 40.0)]:
        grad = jax.grad(log_bessel_iv, argnums=1)(nu, x)
        h = 1e-4 * x
        fd = (_scipy_reference(nu, x + h)[0] - _scipy_reference(nu, x - h)[0]) / (2 * h)
        np.testing.assert_allclose(float(grad), float(fd), rtol=1e-7)
    # differentiating in the order is not supported: NaN, not a silent zero
    assert np.isnan(jax.grad(log_bessel_iv, argnums=0)(3.0, 2.0))


def test_vmap_and_jit():
    x = jnp.geomspace(0.1, 3e4, 7)
    nus = jnp.array([0.5, 2499.0])
    table = jax.jit(jax.vmap(lambda nu: log_bessel_iv(nu, x)))(nus)
    assert table.shape == (2, 7) and table.dtype == jnp.float64 and bool(jnp.all(jnp.isfinite(table)))


def test_normaliser_on_s2_closed_form():
    """C_3(kappa) = kappa / (4 pi sinh kappa)."""
    kappa = np.array([0.01, 0.5, 3.0, 40.0, 300.0])
    expected = np.log(kappa) - np.log(4 * np.pi) - (kappa + np.log1p(-np.exp(-2 * kappa)) - np.log(2.0))
    np.testing.assert_allclose(log_vmf_normalizer(3, kappa), expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dim", [3, 5, 12])
@pytest.mark.parametrize("kappa", [0.3, 4.0, 60.0])
def test_normaliser_integrates_to_one(dim, kappa):
    """int_{S^{n-1}} C_n(kappa) exp(kappa mu^T x) dx = |S^{n-2}| int_{-1}^{1} C e^{kappa t} (1-t^2)^{(n-3)/2} dt = 1."""
    log_c = float(log_vmf_normalizer(dim, kappa))
    area = 2 * np.pi ** ((dim - 1) / 2) / scipy.special.gamma((dim - 1) / 2)
    integrand = lambda t: np.exp(log_c + kappa * t) * (1 - t * t) ** ((dim - 3) / 2)  # noqa: E731
    total, _ = scipy.integrate.quad(integrand, -1.0, 1.0, epsabs=1e-13, epsrel=1e-12, limit=200)
    assert abs(area * total - 1.0) < 1e-9


def test_mean_resultant_is_minus_derivative_of_log_normaliser():
    for dim, kappa in [(5000, 2.5e4), (3, 2.0)]:
        derivative = jax.grad(lambda k: log_vmf_normalizer(dim, k))(kappa)
        np.testing.assert_allclose(-derivative, vmf_mean_resultant(dim, kappa), rtol=1e-12)


def test_bad_dimension_is_one_line_error():
    with pytest.raises(ValueError, match="dim must be an integer >= 2, got 1"):
        log_vmf_normalizer(1, 2.0)
