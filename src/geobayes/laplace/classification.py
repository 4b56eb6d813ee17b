"""Laplace approximation of a softmax network classifier, as laplace-torch computes it: the
posterior precision (the chunked GGN plus the prior precision) and the input checks. Its evidence
and the prior-precision fit are :mod:`geobayes.laplace.classification_evidence`.

The model is ``y_n ~ Categorical(softmax(f_theta(x_n)))`` with ``C`` logits and an isotropic
prior ``N(mu_0, I / alpha)``; ``network(theta, X) -> logits (N, C)`` may be any JAX callable
of one flat weight vector (an MLP or the CNN), with ``theta`` in torch's
``parameters_to_vector`` order so that weights move to and from laplace-torch unchanged.

Posterior precision (Bergamin et al. 2023, Sec. 5.2 and App. A, Eq. A.4; Daxberger et al.
2021, "Laplace Redux", Sec. 2; notes ``bergamin2023-riemannian-laplace-bnn.md`` Secs. 1.1, 1.6
and 6.1 item 3)::

    P = G + alpha I,   G = sum_n J_n^T (diag p_n - p_n p_n^T) J_n,   p_n = softmax(f_theta(x_n)),

with ``J_n`` the (C, D) Jacobian of the logits at ``x_n``: the generalised Gauss-Newton matrix
of ``sum_n CE(f_theta(x_n), y_n)`` (cross-entropy, sum reduction), which is laplace-torch's
``la.H`` for ``likelihood="classification"`` with its default GGN backend (``CurvlinopsGGN``
in 0.3; ``BackPackGGN`` in the paper's 0.1a2, both exact, both tested) and
``la.posterior_precision = la.H + alpha I``.
"""

from __future__ import annotations

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from geobayes.laplace.posterior_precision import check_positive



# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------

def _concrete(value) -> bool:
    return not isinstance(value, jax.core.Tracer)


def check_batch_size(batch_size, num_observations: int) -> int:
    """``batch_size`` as an int in ``[1, N]`` (None: ``N``, one chunk); ``ValueError`` otherwise."""
    if batch_size is None:
        return int(num_observations)
    if isinstance(batch_size, (bool, np.bool_)) or not isinstance(batch_size, (int, np.integer)) or batch_size < 1:
        raise ValueError(f"batch_size must be None or an integer >= 1, got {batch_size!r}")
    return int(min(int(batch_size), num_observations))


def check_classification_data(network, theta, X, y=None) -> tuple[jax.Array, jax.Array, jax.Array | None, int]:
    """Validate a classifier's inputs; return ``(theta, X, y, C)``.

    ``theta`` and ``X`` as float64 arrays, ``y`` as int32 labels of shape (N,) (None when ``y``
    is None) and ``C`` the number of logits of ``network(theta, X)``, read from its output shape
    (no evaluation).

    Raises
    ------
    ValueError
        If ``network`` is not callable, ``theta`` is not a non-empty finite vector, ``X`` has no
        leading observation axis or no rows, the network's output is not (N, C) with C >= 2, or
        ``y`` is not a vector of N integer labels in ``[0, C)``.
    """
    if not callable(network):
        raise ValueError(f"network must be a callable network(theta, X) -> logits, got {type(network).__name__}")
    theta = jnp.asarray(theta, dtype=jnp.float64)
    if theta.ndim != 1 or theta.shape[0] == 0:
        raise ValueError(f"theta must be a non-empty flat vector (D,), got shape {theta.shape}")
    if _concrete(theta) and not bool(jnp.all(jnp.isfinite(theta))):
        raise ValueError("theta must be finite, got NaN or inf entries")
    X = jnp.asarray(X, dtype=jnp.float64)
    if X.ndim < 1 or X.shape[0] == 0:
        raise ValueError(f"X must have a leading observation axis with N >= 1 rows, got shape {X.shape}")
    num_observations = X.shape[0]
    out = jax.eval_shape(network, theta, X)
    if len(out.shape) != 2 or out.shape[0] != num_observations:
        raise ValueError(f"network(theta, X) must return logits of shape ({num_observations}, C), got {out.shape}")
    num_classes = int(out.shape[1])
    if num_classes < 2:
        raise ValueError(f"a softmax classifier needs C >= 2 logits, got C = {num_classes}")
    if y is None:
        return theta, X, None, num_classes
    if not _concrete(y):
        raise ValueError("y must be concrete integer labels, not a traced array")
    labels = np.asarray(y)
    if labels.ndim != 1 or labels.shape[0] != num_observations:
        raise ValueError(f"y must have shape ({num_observations},) to match X {tuple(X.shape)}, got {labels.shape}")
    if labels.dtype == np.bool_ or not (np.issubdtype(labels.dtype, np.integer)
                                        or np.issubdtype(labels.dtype, np.floating)):
        raise ValueError(f"y must hold integer class labels, got dtype {labels.dtype}")
    if np.issubdtype(labels.dtype, np.floating):
        if not np.all(np.isfinite(labels)) or not np.all(labels == np.round(labels)):
            raise ValueError("y must hold integer class labels, got non-integer values")
    if labels.size and (labels.min() < 0 or labels.max() >= num_classes):
        raise ValueError(f"labels must lie in [0, {num_classes}) for C = {num_classes} logits, "
                         f"got range [{labels.min()}, {labels.max()}]")
    return theta, X, jnp.asarray(labels.astype(np.int64), dtype=jnp.int32), num_classes


def check_prior_mean(prior_mean, theta: jax.Array) -> jax.Array:
    prior_mean = jnp.asarray(prior_mean, dtype=jnp.float64)
    if prior_mean.shape not in ((), theta.shape):
        raise ValueError(f"prior_mean must be a scalar or have shape {theta.shape}, got {prior_mean.shape}")
    if _concrete(prior_mean) and not bool(jnp.all(jnp.isfinite(prior_mean))):
        raise ValueError("prior_mean must be finite")
    return prior_mean


def check_square(name: str, matrix, dim: int) -> jax.Array:
    matrix = jnp.asarray(matrix, dtype=jnp.float64)
    if matrix.shape != (dim, dim):
        raise ValueError(f"{name} must have shape ({dim}, {dim}), got {matrix.shape}")
    return matrix


# --------------------------------------------------------------------------------------------
# Chunked per-example Jacobians
# --------------------------------------------------------------------------------------------

def _chunks(X: jax.Array, batch_size: int, *extra: jax.Array):
    """``X`` (and ``extra`` arrays of the same length) padded to a multiple of ``batch_size`` with
    copies of row 0 and reshaped to (num_chunks, batch_size, ...), plus a 0/1 row mask."""
    num = X.shape[0]
    num_chunks = -(-num // batch_size)
    pad = num_chunks * batch_size - num

    def pad_reshape(a):
        if pad:
            a = jnp.concatenate([a, jnp.repeat(a[:1], pad, axis=0)])
        return a.reshape(num_chunks, batch_size, *a.shape[1:])

    mask = jnp.concatenate([jnp.ones(num), jnp.zeros(pad)]).reshape(num_chunks, batch_size)
    return pad_reshape(X), tuple(pad_reshape(a) for a in extra), mask


def _logits_and_jacobians(network, theta: jax.Array, X: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Logits (B, C) and per-example Jacobians (B, C, D), one example at a time (``lax.map``),
    each by reverse mode (``C`` backward passes, vmapped over the cotangents).

    Not vmapped over the examples: with both the inputs and the cotangents batched, a
    convolution's weight gradient becomes a grouped convolution, which XLA's CPU backend runs in
    time superlinear in the batch (a 1,828-weight MNIST CNN: 0.14 s for 64 examples one at a
    time, 4.8 s vmapped). A chunk's live memory is its (B, C, D) Jacobians."""
    def one(x):
        def logits_twice(w):
            logits = network(w, x[None])[0]
            return logits, logits
        jac, logits = jax.jacrev(logits_twice, has_aux=True)(theta)
        return logits, jac
    return jax.lax.map(one, X)


@eqx.filter_jit
def _ggn_scan(network, theta: jax.Array, X: jax.Array, y: jax.Array, batch_size: int):
    Xc, (yc,), mask = _chunks(X, batch_size, y)
    dim = theta.shape[0]

    def step(carry, chunk):
        ggn, log_likelihood = carry
        Xb, yb, mb = chunk
        logits, jac = _logits_and_jacobians(network, theta, Xb)
        log_p = jax.nn.log_softmax(logits, axis=-1)
        p = jnp.exp(log_p)
        # J^T (diag p - p p^T) J = sum_c p_c (J_c - Jbar)(J_c - Jbar)^T with Jbar = sum_c p_c J_c
        # (sum_c p_c = 1): positive semi-definite by construction, no cancellation near one-hot p.
        centred = jac - jnp.einsum("bc,bcd->bd", p, jac)[:, None, :]
        weighted = (jnp.sqrt(p * mb[:, None])[:, :, None] * centred).reshape(-1, dim)
        picked = jnp.take_along_axis(log_p, yb[:, None], axis=1)[:, 0]
        return (ggn + weighted.T @ weighted, log_likelihood + jnp.sum(mb * picked)), None

    init = (jnp.zeros((dim, dim)), jnp.zeros(()))
    (ggn, log_likelihood), _ = jax.lax.scan(step, init, (Xc, yc, mask))
    return 0.5 * (ggn + ggn.T), log_likelihood


# --------------------------------------------------------------------------------------------
# GGN, posterior precision and scale
# --------------------------------------------------------------------------------------------

def classification_ggn_traceable(network, theta: jax.Array, X: jax.Array, y: jax.Array, batch_size: int):
    """:func:`classification_ggn` without its input checks, callable under ``jit`` with traced
    labels: for callers whose inputs were checked where they were built (a softmax-classifier
    posterior's Fisher metric, ``NetworkSoftmaxClassifier.fisher``). ``y`` integer labels,
    ``batch_size`` a Python int >= 1. Returns ``(ggn, log_likelihood)``."""
    return _ggn_scan(network, theta, X, y, batch_size)


def classification_ggn(network, theta, X, y, *, batch_size: int | None = None) -> tuple[jax.Array, jax.Array]:
    """Data GGN of softmax cross-entropy and the log likelihood at ``theta``.

    ``G = sum_n J_n^T (diag p_n - p_n p_n^T) J_n`` over the ``C`` logits, laplace-torch's
    ``la.H`` for ``Laplace(model, "classification", subset_of_weights="all",
    hessian_structure="full")`` with its default GGN backend (Daxberger et al. 2021; Bergamin
    et al. 2023, Sec. 5.2 and App. A; notes Secs. 1.6 and 6.1 item 3). Accumulated over chunks of
    ``batch_size`` observations (one ``lax.scan``): at most ``batch_size`` per-example Jacobians
    (``batch_size * C * D`` floats) exist at a time, and the result does not depend on
    ``batch_size`` (up to rounding). Each chunk adds ``W^T W`` with rows
    ``sqrt(p_nc) (J_nc - sum_k p_nk J_nk)``, so ``G`` is positive semi-definite by construction.

    Parameters
    ----------
    network
        ``network(theta, X) -> logits (N, C)``; rows must not interact (no batch statistics),
        as the per-example Jacobians are taken one row at a time.
    theta
        Weights, shape (D,), torch ``parameters_to_vector`` order.
    X, y
        Inputs (N, ...) and integer labels (N,) in ``[0, C)``.
    batch_size
        Observations per chunk; None: all N in one chunk. The MNIST CNN (N = 5,000, D = 1,828,
        C = 10) needs ~73 MB of Jacobians per 500-row chunk; with a stand-in of that CNN,
        ``batch_size=500`` took 37 s on two shared CPU cores.

    Returns
    -------
    ggn : jax.Array
        Symmetric (D, D) matrix.
    log_likelihood : jax.Array
        ``sum_n log softmax(f_theta(x_n))_{y_n}`` = ``-la.loss`` (cross-entropy, sum reduction).

    Raises
    ------
    ValueError
        For invalid inputs (:func:`check_classification_data`) or ``batch_size``.
    """
    theta, X, y, _ = check_classification_data(network, theta, X, y)
    return _ggn_scan(network, theta, X, y, check_batch_size(batch_size, X.shape[0]))


def classification_posterior_precision(network, theta, X, y, *, prior_precision, batch_size: int | None = None,
                                       ggn: jax.Array | None = None) -> jax.Array:
    """Laplace posterior precision ``G + alpha I`` of a softmax classifier, shape (D, D).

    laplace-torch's ``la.posterior_precision`` after ``la.fit(train_loader)`` for
    ``Laplace(model, "classification", subset_of_weights="all", hessian_structure="full",
    prior_precision=alpha)`` (Bergamin et al. 2023, Sec. 5.2 and App. A, Eq. A.4, where the
    code passes ``alpha = 2 wd``, notes Sec. 5.1; Daxberger et al. 2021).

    Parameters
    ----------
    network, theta, X, y, batch_size
        As in :func:`classification_ggn`.
    prior_precision
        Scalar ``alpha > 0``.
    ggn
        Optional precomputed :func:`classification_ggn` matrix (then not recomputed).

    Raises
    ------
    ValueError
        For a non-positive or non-finite ``alpha`` and for invalid data.
    """
    check_positive("prior_precision", prior_precision)
    theta, X, y, _ = check_classification_data(network, theta, X, y)
    if ggn is None:
        ggn, _ = _ggn_scan(network, theta, X, y, check_batch_size(batch_size, X.shape[0]))
    else:
        ggn = check_square("ggn", ggn, theta.shape[0])
    precision = ggn + jnp.asarray(prior_precision, dtype=jnp.float64) * jnp.eye(theta.shape[0])
    return 0.5 * (precision + precision.T)


@jax.jit
def precision_to_scale_tril(precision) -> jax.Array:
    """Lower-triangular ``L`` with ``L L^T = P^{-1}`` (the Cholesky factor of the covariance),
    without forming ``P^{-1}``: torch's ``_precision_to_scale_tril``, i.e. laplace-torch's
    ``la.posterior_scale``, used for ``theta_s = theta + L eps`` (``la.sample``) and for the
    velocities ``v_s ~ N(0, Sigma)`` of Bergamin et al. (notes Sec. 1.6 step 4). NaN if ``P`` is
    not positive definite."""
    precision = jnp.asarray(precision, dtype=jnp.float64)
    flipped = jnp.linalg.cholesky(jnp.flip(precision, (-2, -1)))
    inverse_scale = jnp.swapaxes(jnp.flip(flipped, (-2, -1)), -2, -1)
    identity = jnp.eye(precision.shape[-1], dtype=precision.dtype)
    return jax.scipy.linalg.solve_triangular(inverse_scale, identity, lower=True)


# --------------------------------------------------------------------------------------------
# Log marginal likelihood and the prior-precision fit
# --------------------------------------------------------------------------------------------
@eqx.filter_jit
def _glm_moments(network, theta: jax.Array, covariance: jax.Array, X: jax.Array, batch_size: int):
    Xc, _, _ = _chunks(X, batch_size)

    def one_chunk(Xb):
        logits, jac = _logits_and_jacobians(network, theta, Xb)
        return logits, jnp.einsum("ncp,pq,nkq->nck", jac, covariance, jac)

    mean, var = jax.lax.map(one_chunk, Xc)
    num = X.shape[0]
    return mean.reshape(-1, mean.shape[-1])[:num], var.reshape(-1, *var.shape[-2:])[:num]


def glm_predictive_moments(network, theta, covariance, X, *, batch_size: int | None = None):
    """Mean and covariance of the linearised (GLM) logits ``f_theta(x) + J(x)(theta' - theta)``
    under ``theta' ~ N(theta, Sigma)``: ``(f_theta(x_m), J_m Sigma J_m^T)``, shapes (M, C) and
    (M, C, C). laplace-torch's ``la._glm_predictive_distribution(X)`` (``functional_variance``);
    its ``link_approx="mc"`` predictive samples ``N(f_mu, f_var)`` per input with one shared
    standard-normal draw of shape (C, S) (``normal_samples``).

    Raises
    ------
    ValueError
        For invalid inputs, a covariance that is not (D, D) or a bad ``batch_size``.
    """
    theta, X, _, _ = check_classification_data(network, theta, X)
    covariance = check_square("covariance", covariance, theta.shape[0])
    return _glm_moments(network, theta, covariance, X, check_batch_size(batch_size, X.shape[0]))
