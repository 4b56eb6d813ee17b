"""The posterior of a network linearised at its MAP (Bergamin et al. 2023, "lin" variants)."""

from __future__ import annotations

import jax

from geobayes.networks.network_models import LinearisedNetworkRegression, NetworkRegression
from geobayes.posterior import Posterior


def linearised_posterior(posterior: Posterior, anchor: jax.Array) -> Posterior:
    """``posterior`` with its network replaced by the linearisation at ``anchor``.

    Bergamin et al. (2023), Sec. 3.2 and Eqs. (B.15)-(B.17): ``f_lin(x) = f_{anchor}(x) +
    J_{anchor}(x)(theta - anchor)``; same data, prior and noise. Its Hessian is the GGN plus the
    prior precision everywhere, so lin-LA's precision is the GGN one.

    Raises
    ------
    TypeError
        If the posterior's model is not a fixed-noise network regression.
    """
    model = posterior.model
    if type(model) is not NetworkRegression:
        raise TypeError(f"{posterior.name}: linearisation needs a NetworkRegression model, got {type(model).__name__}")
    linear = LinearisedNetworkRegression(network=model.network, prior=model.prior, family=model.family, anchor=anchor)
    return Posterior(posterior.name, linear, posterior.data)
