"""Which Stan installation runs a reference: CmdStanPy on CmdStan where one is installed, else PyStan 3.

Yu et al. (2024, Sec. 5) computed their references with Stan through CmdStanPy. CmdStan is
downloaded by ``cmdstanpy.install_cmdstan()`` (internet needed); PyStan 3's wheels bring their own
Stan and compile with the system C++ compiler, so they also work offline. Both run the same Stan
NUTS; the one chosen is recorded in the reference's sidecar.
"""

from __future__ import annotations

import importlib.util

__all__ = ["INTERFACES", "StanUnavailableError", "available_interfaces", "choose_interface"]

#: Interfaces in the order ``auto`` prefers them.
INTERFACES = ("cmdstanpy", "pystan")


class StanUnavailableError(RuntimeError):
    """No usable Stan installation for the interface asked for."""


def _cmdstan_installed() -> str | None:
    """Why CmdStanPy cannot run (None when it can)."""
    if importlib.util.find_spec("cmdstanpy") is None:
        return "cmdstanpy is not installed (pip install cmdstanpy)"
    import cmdstanpy

    try:
        cmdstanpy.cmdstan_path()
    except ValueError:
        return "cmdstanpy finds no CmdStan (python -c 'import cmdstanpy; cmdstanpy.install_cmdstan()')"
    return None


def _pystan_installed() -> str | None:
    """Why PyStan cannot run (None when it can)."""
    if importlib.util.find_spec("stan") is None or importlib.util.find_spec("httpstan") is None:
        return "PyStan is not installed (pip install pystan, or make venv)"
    return None


CHECKS = {"cmdstanpy": _cmdstan_installed, "pystan": _pystan_installed}


def available_interfaces() -> dict[str, str | None]:
    """Each interface with the reason it cannot run, or None where it can."""
    return {name: CHECKS[name]() for name in INTERFACES}


def choose_interface(preference: str = "auto") -> str:
    """The interface a reference runs with.

    Parameters
    ----------
    preference : {"auto", "cmdstanpy", "pystan"}
        ``auto`` takes CmdStanPy where CmdStan is installed, else PyStan (config key
        ``reference.stan.interface``).

    Raises
    ------
    ValueError
        For an unknown preference (naming the config key and the choices).
    StanUnavailableError
        If the interface asked for (or, for ``auto``, every interface) cannot run; the message says
        how to install one.
    """
    if preference not in ("auto", *INTERFACES):
        raise ValueError(f"reference.stan.interface must be one of auto, {', '.join(INTERFACES)}; got {preference!r}")
    reasons = available_interfaces()
    candidates = INTERFACES if preference == "auto" else (preference,)
    for name in candidates:
        if reasons[name] is None:
            return name
    raise StanUnavailableError("reference.backend stan: no Stan installation: "
                               + "; ".join(f"{name}: {reasons[name]}" for name in candidates))
