"""Registry of the models and closed-form targets a posterior name ``<dataset>-<model>`` can name.

Each model registers itself where it is defined, with a name and a ``from_options``
constructor (as laplace-torch's backends or BlackJAX's algorithms do)::

    @register_model("logreg")
    def _from_options(options, arrays):
        return LogisticRegression(prior=GaussianPrior.from_options(options))

so that :func:`geobayes.pipeline.posteriors.build_posterior` is a lookup. Two kinds of entry:

* a *model* (``from_options(options, arrays) -> model``): combined with the prepared data
  file's ``X`` and ``y`` into a :class:`~geobayes.posterior.Posterior`; ``arrays`` are that
  file's arrays (GP kernels on ``X``, a stored prior covariance, a trained network's noise);
* a *closed-form target* (``from_options(name, options) -> Target``): no data file, exact
  i.i.d. draws as the pipeline's reference.

``options`` is always the experiment's config slice (``experiments.<experiment>``).

A *model family* serves names the config defines rather than the code (the networks of an
experiment's ``networks`` block): :func:`register_model_family` registers a predicate
``claims(model_name, options)`` with the constructor ``from_options(model_name, options, arrays)``.

This module imports nothing of geobayes, so every model module may register into it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

__all__ = [
    "Entry",
    "closed_form_targets",
    "lookup",
    "register_model",
    "register_model_family",
    "register_target",
    "registered",
]


@dataclass(frozen=True)
class Entry:
    """One registered name.

    Attributes
    ----------
    name
        The model part of a posterior name (``logreg``, ``squiggle``, ``network``).
    from_options
        Constructor: ``(options, arrays)`` for a model, ``(name, options)`` for a closed-form
        target, ``(model_name, options, arrays)`` for a model family.
    closed_form
        Whether the entry builds a closed-form target (no data file; exact reference).
    claims
        For a model family: ``claims(model_name, options)`` says whether it serves the name.
    """

    name: str
    from_options: Callable[..., Any]
    closed_form: bool = False
    claims: Callable[[str, dict], bool] | None = None


_ENTRIES: dict[str, Entry] = {}
_FAMILIES: dict[str, Entry] = {}


def _add(table: dict[str, Entry], entry: Entry) -> None:
    known = _ENTRIES.get(entry.name) or _FAMILIES.get(entry.name)
    if known is not None and known.from_options is not entry.from_options:
        raise ValueError(f"model name {entry.name!r} is registered twice "
                         f"({known.from_options.__module__} and {entry.from_options.__module__})")
    table[entry.name] = entry


def register_model(*names: str):
    """Decorator: register ``from_options(options, arrays) -> model`` under each of ``names``."""
    def decorate(from_options):
        for name in names:
            _add(_ENTRIES, Entry(name, from_options))
        return from_options
    return decorate


def register_target(*names: str):
    """Decorator: register a closed-form target's ``from_options(name, options) -> Target``."""
    def decorate(from_options):
        for name in names:
            _add(_ENTRIES, Entry(name, from_options, closed_form=True))
        return from_options
    return decorate


def register_model_family(name: str, claims: Callable[[str, dict], bool]):
    """Decorator: register ``from_options(model_name, options, arrays)`` for every model name that
    ``claims(model_name, options)`` accepts (config-defined names, e.g. an experiment's networks)."""
    def decorate(from_options):
        _add(_FAMILIES, Entry(name, from_options, claims=claims))
        return from_options
    return decorate


def _load_builtin() -> None:
    """Import the modules that register the built-in models and targets."""
    import geobayes.models  # noqa: F401
    import geobayes.pipeline.network_posteriors  # noqa: F401
    import geobayes.targets  # noqa: F401


def lookup(model_name: str, options: dict | None = None) -> Entry:
    """The entry serving ``model_name`` (a model family if one claims it under ``options``).

    Raises
    ------
    KeyError
        Naming the model and listing the registered names.
    """
    _load_builtin()
    if model_name in _ENTRIES:
        return _ENTRIES[model_name]
    for family in _FAMILIES.values():
        if family.claims(model_name, options or {}):
            return family
    raise KeyError(f"unknown model {model_name!r}; registered: {', '.join(sorted(_ENTRIES))} "
                   f"(or a name claimed by the families {', '.join(sorted(_FAMILIES))}, e.g. a network "
                   "of the experiment's `networks`)")


def registered() -> dict[str, Entry]:
    """Every registered name (models and closed-form targets) -> its entry."""
    _load_builtin()
    return dict(_ENTRIES)


def closed_form_targets() -> tuple[str, ...]:
    """Names of the registered closed-form targets, sorted."""
    return tuple(sorted(name for name, entry in registered().items() if entry.closed_form))


def positive_option(options: dict, key: str, what: str = "option") -> float:
    """``options[key]`` as a float, checked finite and > 0 (noise and prior variances).

    Raises
    ------
    ValueError
        One line naming the key and the value found.
    """
    import math

    value = float(options[key])
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{what} {key!r} must be a finite number > 0, got {options[key]!r}")
    return value
