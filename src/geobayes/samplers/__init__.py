"""Reference samplers and their convergence diagnostics.

* :func:`run_nuts` / :class:`NutsConfig` — NumPyro NUTS reference runs (Yu et al. 2024,
  ground truth with posteriordb reference settings).
* :class:`Reference`, :class:`ReferenceChecks`, :func:`evaluate_checks`,
  :func:`save_reference`, :func:`load_reference`, :func:`require_passing` — reference
  draws with posteriordb-style pass/fail checks.
* :mod:`geobayes.samplers.diagnostics` — rank-normalised split R-hat, bulk and tail ESS
  (Vehtari et al. 2021).
"""

from geobayes.samplers import diagnostics
from geobayes.samplers.nuts import INIT_JITTER_SCALE, NutsConfig, run_nuts
from geobayes.samplers.reference import (
    Reference,
    ReferenceCheckError,
    ReferenceChecks,
    describe_failures,
    evaluate_checks,
    load_reference,
    require_passing,
    save_reference,
)

__all__ = [
    "diagnostics",
    "INIT_JITTER_SCALE",
    "NutsConfig",
    "run_nuts",
    "Reference",
    "ReferenceCheckError",
    "ReferenceChecks",
    "describe_failures",
    "evaluate_checks",
    "load_reference",
    "require_passing",
    "save_reference",
]
