"""The posterior of a network linearised at its MAP (Bergamin et al. 2023, "lin" variants)."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from geobayes.posterior import Posterior


def linearised_posterior(posterior: Posterior, anchor: jax.Array) -> Posterior:
    """``posterior`` with its network replaced by the linearisation at ``anchor``.

    Bergamin et al. (2023), Sec. 3.2 and Eqs. (B.15)-(B.17): ``f_lin(x) = f_{anchor}(x) +
    J_{anchor}(x)(theta - anchor)``; same data, prior and likelihood. The model builds its own
    linearised counterpart (``model.linearised(anchor)``: :class:`NetworkRegression` and
    :class:`NetworkSoftmaxClassifier`). Its negative Hessian is the GGN plus the prior precision
    (constant for a Gaussian likelihood; at the current linearised logits for a softmax), so
    lin-LA's precision at the anchor is the GGN one.

    Raises
    ------
    TypeError
        If the posterior's model has no linearisation (e.g. an inferred-noise network, a model
        linearised already, a model that is not a network).
    """
    model = posterior.model
    linearise = getattr(model, "linearised", None)
    if linearise is None:
        raise TypeError(f"{posterior.name}: linearisation needs a network model with a linearised(anchor) "
                        f"method (NetworkRegression, NetworkSoftmaxClassifier), got {type(model).__name__}")
    return Posterior(posterior.name, linearise(jnp.asarray(anchor, dtype=jnp.float64)), posterior.data)
