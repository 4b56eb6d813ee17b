"""Sine data of the BNN scalability study (Yu et al. 2024, Supp. 16.5.3; notes Sec. 2.7)."""

from __future__ import annotations

import numpy as np
import pytest

from geobayes.data.sine_regression import SineRegression, simulate_sine_regression


def raw(data: SineRegression, which: str = "train") -> tuple[np.ndarray, np.ndarray]:
    X, y = (data.X, data.y) if which == "train" else (data.X_test, data.y_test)
    return X[:, 0] * data.x_std + data.x_mean, y * data.y_std + data.y_mean


def test_shapes_split_and_reproducibility():
    a = simulate_sine_regression(500, 100, seed=3)
    b = simulate_sine_regression(500, 100, seed=3)
    c = simulate_sine_regression(500, 100, seed=4)
    assert a.X.shape == (500, 1) and a.y.shape == (500,)
    assert a.X_test.shape == (100, 1) and a.y_test.shape == (100,)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a.X, c.X)
    assert all(v.dtype == np.float64 for v in a.arrays().values())


def test_draws_are_the_documented_stream():
    """x ~ U(0, 8) for train then test, then the noise of both: y = sin x + 0.3 eps."""
    data = simulate_sine_regression(50, 20, seed=11)
    rng = np.random.default_rng(11)
    x = rng.uniform(0.0, 8.0, size=70)
    y = np.sin(x) + 0.3 * rng.standard_normal(70)
    x_train, y_train = raw(data)
    x_test, y_test = raw(data, "test")
    np.testing.assert_allclose(x_train, x[:50], rtol=1e-13)
    np.testing.assert_allclose(y_train, y[:50], rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(x_test, x[50:], rtol=1e-13)
    np.testing.assert_allclose(y_test, y[50:], rtol=1e-12, atol=1e-13)


def test_standardised_with_training_mean_and_unbiased_std():
    data = simulate_sine_regression(200, 100, seed=5)
    assert np.mean(data.X) == pytest.approx(0.0, abs=1e-12)
    assert np.std(data.X, ddof=1) == pytest.approx(1.0, rel=1e-12)  # torch.std: unbiased
    assert np.mean(data.y) == pytest.approx(0.0, abs=1e-12)
    assert np.std(data.y, ddof=1) == pytest.approx(1.0, rel=1e-12)
    # the test set uses the training statistics, so it is not exactly standardised itself
    assert np.mean(data.X_test) != pytest.approx(0.0, abs=1e-6)


def test_the_data_follow_the_sine_with_the_stated_noise():
    data = simulate_sine_regression(20000, 0, seed=2)
    x, y = raw(data)
    assert x.min() >= 0.0 and x.max() < 8.0
    residual = y - np.sin(x)
    assert np.mean(residual) == pytest.approx(0.0, abs=0.01)
    assert np.std(residual) == pytest.approx(0.3, rel=0.03)
    assert data.X_test.shape == (0, 1)


def test_options_change_the_draws():
    narrow = simulate_sine_regression(1000, 0, seed=1, input_range=(2.0, 3.0), noise_std=0.0)
    x, y = raw(narrow)
    assert x.min() >= 2.0 and x.max() < 3.0
    np.testing.assert_allclose(y, np.sin(x), atol=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"n_train": 1}, "n_train"), ({"n_train": 10.0}, "n_train"), ({"n_test": -1}, "n_test"),
     ({"input_range": (1.0, 1.0)}, "input_range"), ({"noise_std": -0.1}, "noise_std"),
     ({"noise_std": float("nan")}, "noise_std")],
)
def test_bad_arguments_are_named(kwargs, message):
    arguments = {"n_train": 10, "n_test": 5, "seed": 0, **kwargs}
    with pytest.raises(ValueError, match=message):
        simulate_sine_regression(arguments.pop("n_train"), arguments.pop("n_test"), **arguments)
