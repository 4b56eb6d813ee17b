"""Synthetic SAM data drawn from the model itself (small n and P), shared by the SAM tests."""

import numpy as np
import pytest


def sample_vmf(rng, mean, kappa, size):
    """Exact vMF draws on S^{n-1} by Wood's (1994) rejection algorithm (NumPy, test-only)."""
    dim = mean.shape[0]
    b = (-2 * kappa + np.sqrt(4 * kappa**2 + (dim - 1) ** 2)) / (dim - 1)
    x0 = (1 - b) / (1 + b)
    c = kappa * x0 + (dim - 1) * np.log(1 - x0**2)
    out = np.empty((size, dim))
    for i in range(size):
        while True:
            z = rng.beta((dim - 1) / 2, (dim - 1) / 2)
            w = (1 - (1 + b) * z) / (1 - (1 - b) * z)
            if kappa * w + (dim - 1) * np.log(1 - x0 * w) - c >= np.log(rng.uniform()):
                break
        direction = rng.normal(size=dim)
        direction -= (direction @ mean) * mean
        direction /= np.linalg.norm(direction)
        out[i] = w * mean + np.sqrt(1 - w * w) * direction
    return out


@pytest.fixture(scope="session")
def synthetic_sam():
    """n=30, P=3 topics, 200 documents v_d ~ vMF(beta theta_d/|.|, kappa1), theta_d ~ Dir(alpha)."""
    rng = np.random.default_rng(20180201)
    n, p, n_docs, kappa1, alpha = 30, 3, 200, 3000.0, 2.0
    beta = np.abs(rng.normal(size=(n, p))) * (rng.uniform(size=(n, p)) < 0.5) + 0.05
    beta /= np.linalg.norm(beta, axis=0)
    theta = rng.dirichlet(np.full(p, alpha), size=n_docs)
    means = theta @ beta.T
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    docs = np.stack([sample_vmf(rng, mu, kappa1, 1)[0] for mu in means])
    return {"beta": beta, "theta": theta, "documents": docs, "kappa1": kappa1, "alpha": alpha}
