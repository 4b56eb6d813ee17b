"""NUTS reference sampling through NumPyro (the one adapter that flips the sign).

Yu et al. (2024), Sec. 5 and Supp. 15 compute ground truth with Stan NUTS using the
posteriordb reference settings (10 chains, 10,000 warm-up and 20,000 sampling iterations
per chain, thin 10; ``adapt_delta=0.95`` for the banana). CmdStan cannot be installed here,
so the reference uses NumPyro's NUTS (Hoffman & Gelman 2014, with Stan's multinomial
trajectory sampling and windowed adaptation of step size and diagonal mass matrix;
Phan et al. 2019) on the posterior's log density. ``target_accept`` plays the role of
Stan's ``adapt_delta``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np

from geobayes.samplers.diagnostics import summarize
from geobayes.samplers.reference import Reference, ReferenceChecks, evaluate_checks, is_integer

__all__ = ["NutsConfig", "nuts_mcmc", "run_nuts", "trajectory_lengths", "INIT_JITTER_SCALE", "checked_start", "chain_starts",
           "nuts_reference"]

#: Standard deviation of the Gaussian jitter added to ``init_position`` for each chain.
INIT_JITTER_SCALE = 0.1


@dataclass(frozen=True)
class NutsConfig:
    """Settings of a NUTS reference run (posteriordb / Stan names in brackets).

    Parameters
    ----------
    chains : int
        Number of chains (``chains``), run vectorised on one device. At least 1; use
        4 or more for a trustworthy R-hat.
    warmup : int
        Warm-up (adaptation) iterations per chain (``iter_warmup``); 0 or more.
    samples : int
        Post-warm-up iterations per chain *before* thinning (``iter_sampling``).
    thin : int
        Keep every ``thin``-th iteration (``thin``); each chain yields
        ``samples // thin`` draws, which must be at least 4 (split R-hat).
    target_accept : float, default 0.8
        Target mean acceptance statistic of step-size adaptation (``adapt_delta``),
        in (0, 1).
    max_tree_depth : int, default 10
        Maximum tree depth (``max_depth``); at most ``2**max_tree_depth`` leapfrog
        steps per iteration.
    dense_mass : bool, default False
        Adapt a dense mass matrix (Stan's ``metric=dense_e``) instead of a diagonal one
        (``diag_e``, Stan's default). Dense adaptation removes the divergences that
        badly scaled, correlated posteriors (raw-input logistic regression) produce with
        short warm-ups.

    Raises
    ------
    ValueError
        At construction, naming the field and the value, if a setting is invalid.
    """

    chains: int
    warmup: int
    samples: int
    thin: int
    target_accept: float = 0.8
    max_tree_depth: int = 10
    dense_mass: bool = False

    def __post_init__(self) -> None:
        for name, minimum in (("chains", 1), ("warmup", 0), ("samples", 1), ("thin", 1),
                              ("max_tree_depth", 1)):
            value = getattr(self, name)
            if not is_integer(value):
                raise ValueError(f"NutsConfig.{name} must be an integer; got {value!r}")
            if value < minimum:
                raise ValueError(f"NutsConfig.{name} must be >= {minimum}; got {value!r}")
        if self.samples // self.thin < 4:
            raise ValueError(
                f"NutsConfig.samples // NutsConfig.thin must be >= 4 draws per chain "
                f"(split R-hat); got samples={self.samples}, thin={self.thin}"
            )
        ta = self.target_accept
        if isinstance(ta, bool) or not isinstance(ta, (int, float, np.integer, np.floating)):
            raise ValueError(f"NutsConfig.target_accept must be a number; got {ta!r}")
        if not (0.0 < float(ta) < 1.0):
            raise ValueError(f"NutsConfig.target_accept must lie in (0, 1); got {ta!r}")
        if not isinstance(self.dense_mass, (bool, np.bool_)):
            raise ValueError(f"NutsConfig.dense_mass must be true or false; got {self.dense_mass!r}")

    @property
    def draws_per_chain(self) -> int:
        """Number of kept draws per chain, ``samples // thin``."""
        return self.samples // self.thin

    def to_dict(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict."""
        return dataclasses.asdict(self)


def trajectory_lengths(num_steps: np.ndarray, max_tree_depth: int) -> dict[str, Any]:
    """Leapfrog steps per NUTS iteration and how often the tree depth limit stopped it.

    A NUTS trajectory of tree depth ``j`` takes ``2**j - 1`` leapfrog steps (Hoffman &
    Gelman 2014, Alg. 3; NumPyro's ``num_steps``), one gradient of the log density each, so
    the mean step count converts wall time into time per gradient evaluation, and an
    iteration with ``2**max_tree_depth - 1`` steps hit the depth limit (Hartmann et al.
    2026, Sec. 5.3.2, raised the limit to 13 because theirs "frequently" did).

    Parameters
    ----------
    num_steps : ndarray of int
        Leapfrog steps of each kept (thinned) post-warm-up iteration, any shape.
    max_tree_depth : int
        The run's tree depth limit.

    Returns
    -------
    dict
        ``leapfrog_steps_mean`` (float), ``leapfrog_steps_max`` (int),
        ``leapfrog_steps_total`` (int, over the kept iterations) and
        ``tree_depth_hits`` (int, kept iterations stopped by the depth limit).
    """
    steps = np.asarray(num_steps, dtype=np.int64).ravel()
    if steps.size == 0:
        raise ValueError("num_steps is empty: no kept NUTS iteration to summarise")
    return {
        "leapfrog_steps_mean": float(steps.mean()),
        "leapfrog_steps_max": int(steps.max()),
        "leapfrog_steps_total": int(steps.sum()),
        "tree_depth_hits": int(np.count_nonzero(steps >= 2**int(max_tree_depth) - 1)),
    }


def _raw_key(key: Any) -> jax.Array:
    """Accept both typed (``jax.random.key``) and raw uint32 (``PRNGKey``) keys."""
    key = jnp.asarray(key) if not isinstance(key, jax.Array) else key
    if jnp.issubdtype(key.dtype, jax.dtypes.prng_key):
        return jax.random.key_data(key)
    if key.dtype != jnp.uint32 or key.shape != (2,):
        raise ValueError(f"key must be a JAX PRNG key; got dtype {key.dtype}, shape {key.shape}")
    return key


def _argument_potential_nuts(static: Any, **settings: Any) -> Any:
    """NumPyro's NUTS whose potential takes the posterior's arrays as an argument.

    NumPyro's ``NUTS(potential_fn=...)`` closes over the posterior, so its data are constants
    of the compiled warm-up and sampling loop: two posteriors of equal shapes (raw against
    standardised inputs) compiled apart, and JAX's persistent cache, keyed by the program,
    could not share them. This kernel builds NumPyro's sampler from a ``potential_fn_gen``
    (NumPyro's own route for "the same model with changing data", used with
    ``MCMC(jit_model_args=True)``): the arrays of ``eqx.partition(posterior, eqx.is_array)``
    are the run's model argument, the rest (``static``) is closed over. The potential is the
    same function, ``-posterior.logdensity(theta)``.
    """
    from numpyro.infer import NUTS
    from numpyro.infer.hmc import hmc

    def potential_fn_gen(arrays: Any) -> Any:
        posterior = eqx.combine(arrays, static)
        return lambda theta: -posterior.logdensity(theta)

    class ArgumentPotentialNUTS(NUTS):
        def _init_state(self, rng_key, model_args, model_kwargs, init_params):  # NumPyro's hook, 0.22
            if self._init_fn is None:
                self._init_fn, self._sample_fn = hmc(potential_fn_gen=potential_fn_gen, kinetic_fn=self._kinetic_fn,
                                                     algo=self._algo)
                self._potential_fn_gen = potential_fn_gen
            return init_params

    def replaced_at_init(theta):  # NUTS requires a model or a potential; init installs potential_fn_gen
        raise RuntimeError("ArgumentPotentialNUTS evaluates potential_fn_gen(arrays), never this placeholder")

    return ArgumentPotentialNUTS(potential_fn=replaced_at_init, **settings)


def nuts_mcmc(posterior: Any, config: NutsConfig) -> tuple[Any, tuple]:
    """NumPyro's NUTS sampler of a reference run, built but not run, and the arguments of its runs.

    The potential is ``-posterior.logdensity(theta)``; step size and (diagonal or dense) mass
    matrix are adapted over ``config.warmup`` iterations, chains run vectorised on one device.
    The posterior's arrays are an argument of the compiled loop, not constants in it, so
    posteriors of equal shapes share one program (in a process and through JAX's persistent
    cache). :func:`run_nuts` runs it; ``benchmarks/bench_bnn_nuts.py`` times its phases apart.

    Parameters
    ----------
    posterior
        Object with a jittable ``logdensity(theta) -> scalar`` (positive log density), a pytree
        (an equinox Module) whose arrays are its data.
    config : NutsConfig
        Chains, warm-up, samples, thinning and NUTS settings.

    Returns
    -------
    mcmc : numpyro.infer.MCMC
    args : tuple
        Positional arguments of ``mcmc.run`` and ``mcmc.warmup`` after the key
        (``mcmc.run(key, *args, init_params=...)``).
    """
    from numpyro.infer import MCMC

    arrays, static = eqx.partition(posterior, eqx.is_array)
    kernel = _argument_potential_nuts(
        static,
        target_accept_prob=float(config.target_accept),
        max_tree_depth=int(config.max_tree_depth),
        dense_mass=bool(config.dense_mass),
    )
    mcmc = MCMC(
        kernel,
        num_warmup=config.warmup,
        num_samples=config.samples,
        num_chains=config.chains,
        chain_method="vectorized",
        thinning=config.thin,
        progress_bar=False,
        jit_model_args=True,
    )
    return mcmc, (arrays,)


@eqx.filter_jit
def _logdensity(posterior: Any, theta: jax.Array) -> jax.Array:
    """``posterior.logdensity(theta)`` as one compiled program (op by op it compiled some twenty
    one-operation programs, about 0.5 s of a reference job)."""
    return posterior.logdensity(theta)


def run_nuts(
    posterior: Any,
    config: NutsConfig,
    key: jax.Array,
    init_position: Any,
    *,
    checks: ReferenceChecks | None = None,
    seed: int | None = None,
) -> Reference:
    """Sample a posterior with NumPyro NUTS and return a checked :class:`Reference`.

    The potential is ``-posterior.logdensity(theta)``. Chain ``c`` starts at
    ``init_position + 0.1 * eps_c`` with ``eps_c ~ N(0, I)`` drawn from
    ``fold_in(key, 0)``: chains must start dispersed for R-hat to mean anything
    (Vehtari et al. 2021, Sec. 2; Stan's own inits are uniform on (-2, 2) in the
    unconstrained space). The jitter scale is :data:`INIT_JITTER_SCALE` and is recorded
    in ``method_args``. The sampler key is ``fold_in(key, 1)``.

    Parameters
    ----------
    posterior
        Object with ``dim: int`` and a jittable ``logdensity(theta) -> scalar``
        (positive log density), e.g. an equinox Module.
    config : NutsConfig
        Chains, warm-up, samples, thinning and NUTS settings.
    key : jax.Array
        PRNG key (typed or raw).
    init_position : array_like
        Centre of the initial positions, shape ``(dim,)`` (typically the MAP).
    checks : ReferenceChecks, optional
        Thresholds of the acceptance checks; defaults to ``ReferenceChecks()``
        (R-hat <= 1.01, bulk and tail ESS >= 400, no divergences).
    seed : int, optional
        The configured seed ``key`` was derived from; recorded only.

    Returns
    -------
    Reference
        ``chains * (samples // thin)`` draws, shape ``(n, dim)`` float64 (chain-major);
        ``diagnostics`` (per-parameter R-hat, bulk/tail ESS from the draws grouped by
        chain; ``divergences``, the number of divergent transitions among the kept
        (thinned) post-warm-up iterations, as CmdStan's output CSV and posteriordb count
        them; ``n_draws``; the leapfrog steps of the kept iterations and how many hit
        the tree depth limit, :func:`trajectory_lengths`); the ``checks``.

    Raises
    ------
    ValueError
        If ``config`` is not a :class:`NutsConfig`, or ``init_position`` has the wrong
        shape or is not finite, or its log density is not finite.
    """
    if not isinstance(config, NutsConfig):
        raise ValueError(f"config must be a NutsConfig; got {type(config).__name__}")
    checks = ReferenceChecks() if checks is None else checks
    x0 = checked_start(posterior, init_position)
    raw = _raw_key(key)
    init_params = chain_starts(x0, raw, config.chains)
    run_key = jax.random.fold_in(raw, 1)

    mcmc, args = nuts_mcmc(posterior, config)
    # NumPyro reads a leading chain axis only when there are several chains.
    start = init_params[0] if config.chains == 1 else init_params
    mcmc.run(run_key, *args, init_params=start, extra_fields=("diverging", "num_steps"))
    grouped = np.asarray(mcmc.get_samples(group_by_chain=True), dtype=np.float64)
    grouped = grouped.reshape(config.chains, -1, int(posterior.dim))
    extra = mcmc.get_extra_fields(group_by_chain=True)
    return nuts_reference(grouped, np.asarray(extra["diverging"]), np.asarray(extra["num_steps"]), config, checks,
                          {"backend": "numpyro", "chain_method": "vectorized"}, x0, raw, seed)


def checked_start(posterior: Any, init_position: Any) -> jax.Array:
    """``init_position`` as float64 after checking its shape, that it is finite and that its log density is.

    Raises
    ------
    ValueError
        Naming what is wrong (shape against ``posterior.dim``, non-finite entries or log density).
    """
    dim = int(posterior.dim)
    x0 = jnp.asarray(init_position, dtype=jnp.float64)
    if x0.shape != (dim,):
        raise ValueError(f"init_position must have shape ({dim},) (posterior.dim); got {x0.shape}")
    if not bool(jnp.all(jnp.isfinite(x0))):
        raise ValueError(f"init_position must be finite; got {np.asarray(x0)}")
    lp0 = float(_logdensity(posterior, x0))
    if not math.isfinite(lp0):
        raise ValueError(f"posterior.logdensity(init_position) is not finite ({lp0})")
    return x0


def chain_starts(x0: jax.Array, raw_key: jax.Array, chains: int) -> jax.Array:
    """Initial points of the chains, ``x0 + 0.1 * eps_c`` with ``eps_c ~ N(0, I)`` from ``fold_in(key, 0)``:
    the same for every backend, so two references of one posterior start alike."""
    noise = jax.random.normal(jax.random.fold_in(raw_key, 0), (chains, x0.shape[0]), dtype=jnp.float64)
    return x0 + INIT_JITTER_SCALE * noise


def nuts_reference(grouped: np.ndarray, diverging: np.ndarray, num_steps: np.ndarray, config: NutsConfig,
                   checks: ReferenceChecks, backend_args: dict[str, Any], x0: jax.Array, raw_key: jax.Array,
                   seed: int | None) -> Reference:
    """The checked :class:`Reference` of a NUTS run, whichever backend ran it.

    Parameters
    ----------
    grouped : numpy.ndarray
        Kept draws by chain, shape (chains, draws, D).
    diverging, num_steps : numpy.ndarray
        Divergence flag and leapfrog steps of each kept iteration, shape (chains, draws).
    config, checks
        The run's settings and thresholds.
    backend_args : dict
        What the backend adds to ``method_args`` (``backend`` and its own record).
    x0, raw_key, seed
        The start, the key and the configured seed, recorded.
    """
    diagnostics: dict[str, Any] = summarize(grouped)
    diagnostics["divergences"] = int(np.asarray(diverging).sum())
    diagnostics.update(trajectory_lengths(num_steps, config.max_tree_depth))
    diagnostics["n_draws"] = int(grouped.shape[0] * grouped.shape[1])
    diagnostics["draws_per_chain"] = int(grouped.shape[1])
    return Reference(
        draws=grouped.reshape(-1, grouped.shape[2]),
        chain_index=np.repeat(np.arange(config.chains, dtype=np.int64), grouped.shape[1]),
        diagnostics=diagnostics,
        checks=evaluate_checks(diagnostics, checks),
        thresholds=checks.to_dict(),
        method="nuts",
        method_args={
            **config.to_dict(),
            **backend_args,
            "init_jitter_scale": INIT_JITTER_SCALE,
            "init_position": np.asarray(x0).tolist(),
        },
        seed=seed,
        key_data=np.asarray(raw_key).astype(np.int64).tolist(),
    )
