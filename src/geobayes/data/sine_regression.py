"""Synthetic sine regression of the BNN scalability study (Yu et al. 2024, Supp. 16.5.3, Fig. 15).

Yu et al. (2024), Supp. 16.5.3 (file ``../shared/papers/yu2024-rla-fisher-metric.txt``, lines
1036-1043) "generate synthetic regression datasets with varying numbers of data points with
the data generation mechanism based on Daxberger et al. (2021) before applying
standardizations". The reproduction notes (Sec. 2.7) read the authors' ``regression_size.py``:
it follows laplace-torch's regression example (``get_sinusoid_example``),

* ``x ~ U(0, 8)``, ``y = sin(x) + 0.3 * eps``, ``eps ~ N(0, 1)``;
* ``num_train + num_test`` points are drawn; the first ``num_train`` are the training set and
  the next ``num_test`` (100) the test set;
* ``x`` and ``y`` are standardised with the training mean and the *unbiased* training standard
  deviation (``torch.std``), the test set with the same statistics.

What is ours: the random numbers. The paper's code uses torch's global generator
(``torch.rand`` then ``torch.randn_like``); here one ``numpy.random.default_rng(seed)`` draws all
inputs, then all noises, with the seed derived from the config seed by
:func:`geobayes.random.derive_seed` (one per training-set size and repetition). The draw order
(inputs of train and test, then noise of train and test) mirrors the example's (all ``x`` first,
then the noise). The data only sets the problem size of the timing, so the stream does not have
to match torch's.
"""

from __future__ import annotations

import numbers
from typing import NamedTuple

import numpy as np

from geobayes.data.prepared import register_dataset

__all__ = ["SineRegression", "simulate_sine_regression"]


class SineRegression(NamedTuple):
    """One standardised sine data set (Yu et al. 2024, Supp. 16.5.3).

    Attributes
    ----------
    X, y : numpy.ndarray, shapes (n_train, 1) and (n_train,)
        Standardised training inputs and targets.
    X_test, y_test : numpy.ndarray, shapes (n_test, 1) and (n_test,)
        Test inputs and targets, standardised with the training statistics.
    x_mean, x_std, y_mean, y_std : float
        The training statistics (``std`` unbiased, as ``torch.std``); raw = standardised * std
        + mean.
    """

    X: np.ndarray
    y: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    x_mean: float
    x_std: float
    y_mean: float
    y_std: float

    def arrays(self) -> dict[str, np.ndarray]:
        """The fields as arrays for :func:`geobayes.data.prepared.save_prepared` (``X``/``y``
        are what the network posteriors read)."""
        return {name: np.asarray(value, dtype=np.float64) for name, value in self._asdict().items()}


def _count(name: str, value, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def simulate_sine_regression(
    n_train: int,
    n_test: int,
    *,
    seed: int,
    input_range: tuple[float, float] = (0.0, 8.0),
    noise_std: float = 0.3,
) -> SineRegression:
    """Draw ``y = sin(x) + noise_std * eps``, ``x ~ U(input_range)``, and standardise it.

    Yu et al. (2024), Supp. 16.5.3 with laplace-torch's sinusoid example (Daxberger et al.
    2021): ``x ~ U(0, 8)``, noise std 0.3; see the module docstring for the split and the
    standardisation.

    Parameters
    ----------
    n_train : int
        Training points (the paper's grid: 100 ... 5000), >= 2 (the unbiased std needs two).
    n_test : int
        Test points drawn after the training points (the paper: 100), >= 0.
    seed : int
        Seed of ``numpy.random.default_rng`` (e.g. ``derive_seed(config_seed, ...)``).
    input_range : (float, float), optional
        ``(low, high)`` of the uniform inputs, ``low < high``.
    noise_std : float, optional
        Standard deviation of the Gaussian noise, >= 0.

    Returns
    -------
    SineRegression

    Raises
    ------
    ValueError
        If a count is not an integer in range, the input range is empty or the noise std is
        negative or not finite.
    """
    n_train = _count("n_train", n_train, 2)
    n_test = _count("n_test", n_test, 0)
    low, high = (float(v) for v in input_range)
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise ValueError(f"input_range must be finite with low < high; got {input_range!r}")
    if not (np.isfinite(noise_std) and noise_std >= 0):
        raise ValueError(f"noise_std must be finite and >= 0; got {noise_std!r}")
    rng = np.random.default_rng(seed)
    n = n_train + n_test
    x = rng.uniform(low, high, size=n)
    y = np.sin(x) + float(noise_std) * rng.standard_normal(n)
    x_train, y_train = x[:n_train], y[:n_train]
    x_mean, x_std = float(np.mean(x_train)), float(np.std(x_train, ddof=1))
    y_mean, y_std = float(np.mean(y_train)), float(np.std(y_train, ddof=1))
    X = ((x - x_mean) / x_std)[:, None]
    Y = (y - y_mean) / y_std
    return SineRegression(X=X[:n_train], y=Y[:n_train], X_test=X[n_train:], y_test=Y[n_train:],
                          x_mean=x_mean, x_std=x_std, y_mean=y_mean, y_std=y_std)


#: Sine data of the BNN scalability study (Yu et al. 2024, Supp. 16.5.3): data/prepared/sine/.
SINE_DATASET = register_dataset("sine", tuple(SineRegression._fields), "standardised sine data with its test split")
