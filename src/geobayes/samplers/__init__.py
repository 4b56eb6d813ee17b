"""Reference samplers and their convergence diagnostics.

* :func:`run_nuts` / :class:`NutsConfig` — NumPyro NUTS reference runs (Yu et al. 2024,
  ground truth with posteriordb reference settings).
* :class:`Reference`, :class:`ReferenceChecks`, :func:`evaluate_checks`,
  :func:`save_reference`, :func:`load_reference`, :func:`require_passing` — reference
  draws with posteriordb-style pass/fail checks.
* :mod:`geobayes.samplers.diagnostics` — rank-normalised split R-hat, bulk and tail ESS
  (Vehtari et al. 2021).
"""

import importlib

# Names resolved on first use (PEP 562), so that importing one submodule does not import the
# others: ``geobayes.samplers.reference`` needs NumPy only, while ``nuts`` and ``diagnostics``
# import NumPyro (about 2 s of CPU in every evaluation job of the DAG otherwise).
_SUBMODULE_OF = {
    "diagnostics": None,
    "INIT_JITTER_SCALE": "nuts",
    "NutsConfig": "nuts",
    "run_nuts": "nuts",
    "Reference": "reference",
    "ReferenceCheckError": "reference",
    "ReferenceChecks": "reference",
    "describe_failures": "reference",
    "evaluate_checks": "reference",
    "load_reference": "reference",
    "require_passing": "reference",
    "save_reference": "reference",
}


def __getattr__(name: str):
    """The public name ``name``, imported from its submodule on first use."""
    if name not in _SUBMODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    submodule = _SUBMODULE_OF[name]
    if submodule is None:
        return importlib.import_module(f"{__name__}.{name}")
    return getattr(importlib.import_module(f"{__name__}.{submodule}"), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_SUBMODULE_OF})


__all__ = list(_SUBMODULE_OF)
