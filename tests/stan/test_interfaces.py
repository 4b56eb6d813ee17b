"""Which Stan installation runs: CmdStanPy where CmdStan is installed, else PyStan; clear errors otherwise."""

import pytest

from geobayes.stan import interfaces
from geobayes.stan.interfaces import StanUnavailableError, available_interfaces, choose_interface


def test_this_machine_runs_pystan_and_says_why_not_cmdstanpy():
    reasons = available_interfaces()
    assert reasons["pystan"] is None  # make venv installs it (the tested path)
    if reasons["cmdstanpy"] is not None:  # no CmdStan here (it needs a download): the message says how to get it
        assert "install_cmdstan" in reasons["cmdstanpy"] or "pip install cmdstanpy" in reasons["cmdstanpy"]
        assert choose_interface("auto") == "pystan"
        with pytest.raises(StanUnavailableError, match=r"reference.backend stan: no Stan installation: cmdstanpy: "):
            choose_interface("cmdstanpy")
    assert choose_interface("pystan") == "pystan"


@pytest.mark.parametrize("cmdstan, pystan, expected", [(True, True, "cmdstanpy"), (False, True, "pystan"),
                                                        (True, False, "cmdstanpy")])
def test_auto_prefers_cmdstan_where_installed(monkeypatch, cmdstan, pystan, expected):
    monkeypatch.setitem(interfaces.CHECKS, "cmdstanpy", lambda: None if cmdstan else "no CmdStan")
    monkeypatch.setitem(interfaces.CHECKS, "pystan", lambda: None if pystan else "no PyStan")
    assert choose_interface("auto") == expected


def test_no_installation_and_unknown_names_are_errors(monkeypatch):
    monkeypatch.setitem(interfaces.CHECKS, "cmdstanpy", lambda: "cmdstanpy is not installed")
    monkeypatch.setitem(interfaces.CHECKS, "pystan", lambda: "PyStan is not installed")
    with pytest.raises(StanUnavailableError, match="cmdstanpy: cmdstanpy is not installed; pystan: PyStan is not installed"):
        choose_interface("auto")
    with pytest.raises(ValueError, match="reference.stan.interface must be one of auto, cmdstanpy, pystan; got 'stan'"):
        choose_interface("stan")
