"""Hyperparameters of the Spherical Admixture Model and of its inner topic-proportion sampler.

Defaults are those of Liu & Zhu (2018), Sec. 5.2 ("default hyperparameters as the same as
Liu, Zhu & Song (2016)"), with the values read from the authors' ``SAM/codes/*/settings*.txt``
(Riem-SVGD repository): ``K=20, sig=1e4, kp0=1e4, kp1=3e4, aph=10, thL=10, thEps=1e-6,
thBnin=15, thN=10`` (RSVGD and GMC; SGGMC uses ``thBnin=40, thN=20``).
"""

from __future__ import annotations

import dataclasses
import math
import numbers

__all__ = ["SamSettings"]


@dataclasses.dataclass(frozen=True)
class SamSettings:
    """SAM model and inner-sampler hyperparameters (Reisinger et al. (2010); Liu & Zhu (2018), Sec. 5.2).

    Parameters
    ----------
    n_topics : int
        Number of topics ``P`` (``K`` in the code).
    sigma : float
        Concentration of each topic ``beta_k ~ vMF(mu, sigma)``.
    kappa0 : float
        Concentration of the corpus mean ``mu ~ vMF(m, kappa0)``.
    kappa1 : float
        Concentration of each document ``v_d ~ vMF(beta theta_d / |beta theta_d|, kappa1)``.
    alpha : float
        Symmetric Dirichlet parameter of ``theta_d ~ Dir(alpha)``.
    inner_leapfrog_steps : int
        Leapfrog steps ``L`` per geodesic Monte Carlo proposal of ``theta_d`` (``thL``).
    inner_step_size : float
        Leapfrog step size of the inner sampler (``thEps``).
    inner_burn_in : int
        Inner MH iterations discarded (``thBnin``).
    inner_kept : int
        Inner samples averaged in Fisher's identity (``thN``).
    """

    n_topics: int = 20
    sigma: float = 1e4
    kappa0: float = 1e4
    kappa1: float = 3e4
    alpha: float = 10.0
    inner_leapfrog_steps: int = 10
    inner_step_size: float = 1e-6
    inner_burn_in: int = 15
    inner_kept: int = 10

    def __post_init__(self) -> None:
        for name in ("n_topics", "inner_leapfrog_steps", "inner_burn_in", "inner_kept"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise ValueError(f"SamSettings.{name}: expected an integer, got {value!r}")
        for name in ("sigma", "kappa0", "kappa1", "alpha", "inner_step_size"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                raise ValueError(f"SamSettings.{name}: expected a finite number, got {value!r}")
            if value <= 0:
                raise ValueError(f"SamSettings.{name}: must be > 0, got {value!r}")
        if self.n_topics < 2:
            raise ValueError(f"SamSettings.n_topics: need at least 2 topics, got {self.n_topics}")
        if self.inner_leapfrog_steps < 1:
            raise ValueError(f"SamSettings.inner_leapfrog_steps: must be >= 1, got {self.inner_leapfrog_steps}")
        if self.inner_burn_in < 0:
            raise ValueError(f"SamSettings.inner_burn_in: must be >= 0, got {self.inner_burn_in}")
        if self.inner_kept < 1:
            raise ValueError(f"SamSettings.inner_kept: must be >= 1, got {self.inner_kept}")
        if self.alpha < 1:
            # the inner potential has -(alpha-1) sum log theta; alpha < 1 makes it unbounded below at the faces
            raise ValueError(f"SamSettings.alpha: the simplex sampler needs alpha >= 1, got {self.alpha!r}")
