"""Stochastic-gradient Riemannian Langevin dynamics in (non-)diagonal metrics (Yu et al. 2023).

One Euler-Maruyama step (:mod:`~geobayes.sgmcmc.sgrld`, Eq. 3) shared by five metrics:

* :class:`IdentityPreconditioner` — SGLD (Welling & Teh 2011; Eq. 4);
* :class:`RMSpropPreconditioner` — pSGLD (Li et al. 2016);
* :class:`WenzelPreconditioner` — layer-wise scaling (Wenzel et al. 2020);
* :class:`MongePreconditioner` — rank-one Monge metric (Sec. 3.1, Eq. 5);
* :class:`ShampooPreconditioner` — Kronecker-factored Shampoo metric (Sec. 3.2).

plus stochastic-gradient estimators (:mod:`~geobayes.sgmcmc.gradient_estimators`), a
``lax.scan`` driver (:func:`run_chain`, which also threads a model's own state such as
BatchNorm statistics) and a registry (:data:`PRECONDITIONERS`,
:func:`build_preconditioner`).
"""

from geobayes.sgmcmc.driver import kept_steps, run_chain
from geobayes.sgmcmc.gradient_estimators import (MiniBatch, minibatch_potential_gradient, noisy_gradient,
                                                 stateful_minibatch_potential_gradient)
from geobayes.sgmcmc.identity import IdentityPreconditioner
from geobayes.sgmcmc.matrix_roots import RootMethod
from geobayes.sgmcmc.monge import MongePreconditioner
from geobayes.sgmcmc.preconditioner import Preconditioner
from geobayes.sgmcmc.registry import PRECONDITIONERS, build_preconditioner
from geobayes.sgmcmc.rmsprop import RMSpropPreconditioner
from geobayes.sgmcmc.sgrld import SGRLDAlgorithm, SGRLDInfo, SGRLDState, build_kernel, init, sgrld
from geobayes.sgmcmc.shampoo import ShampooPreconditioner
from geobayes.sgmcmc.wenzel import WenzelPreconditioner

__all__ = [
    "PRECONDITIONERS", "IdentityPreconditioner", "MiniBatch", "MongePreconditioner", "Preconditioner",
    "RMSpropPreconditioner", "RootMethod", "SGRLDAlgorithm", "SGRLDInfo", "SGRLDState",
    "ShampooPreconditioner", "WenzelPreconditioner", "build_kernel", "build_preconditioner", "init",
    "kept_steps", "minibatch_potential_gradient", "noisy_gradient", "run_chain", "sgrld",
    "stateful_minibatch_potential_gradient",
]
