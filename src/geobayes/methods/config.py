"""Typed settings of the approximation methods, built once from the ``approximation`` config slice.

Each method module names its settings class as ``Config`` (a frozen dataclass derived from
:class:`MethodConfig`); ``fit(posterior, config, key, *, mode)`` takes an instance. The classes
are declared beside the methods that read them, so that a job's code (``library_closure``) is
what its method uses: ``LaplaceConfig`` (:mod:`~geobayes.methods.ela`), ``GeodesicConfig``
(:mod:`~geobayes.methods.geodesic_laplace`), ``LogExpConfig`` (:mod:`~geobayes.methods.rla_blog`),
``MinibatchConfig`` (:mod:`~geobayes.methods.minibatch_geodesic`), ``WrappedGaussianConfig``
(:mod:`~geobayes.methods.wg`). They share their sub-settings rather than repeating fields:
:class:`~geobayes.geometry.exponential_map.OdeSettings` (``ode``),
:class:`~geobayes.batching.Schedule` (``schedule``),
:class:`~geobayes.geometry.logarithmic_map.LogMapSettings` (``log_map``) and
:class:`~geobayes.geometry.approximate_exponential_map.ExpMapSettings` (``wrapped_gaussian``,
the least-squares inversion). The defaults are those the methods used when a key was absent.

The ``approximation`` slice a pipeline job receives is shared by every method: besides one
method's own keys it holds the draw counts (:data:`PIPELINE_KEYS`) and the other methods'
keys. :meth:`MethodConfig.from_mapping` accepts and drops those, and rejects any other key (a
typo) with the closest known key as a suggestion.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any

from geobayes.methods.tangent_gaussian import Precision
from geobayes.settings import enum_converter, from_mapping

__all__ = ["PIPELINE_KEYS", "MethodConfig", "approximation_keys", "require_config"]

#: Keys of the ``approximation`` slice read by the pipeline (draw counts, the cost ``T``, the floating-point
#: precision the job computes in: :mod:`geobayes.floating_point`), not by ``fit``.
PIPELINE_KEYS = frozenset({"repetitions", "samples", "method_samples", "posterior_method_samples", "evaluations_per_step",
                           "dtype"})


_precision = enum_converter(Precision, "approximation.precision")


@functools.cache
def approximation_keys() -> frozenset[str]:
    """Every key an ``approximation`` slice may hold: :data:`PIPELINE_KEYS` and the fields of
    every registered method's ``Config``."""
    from geobayes.methods import METHOD_NAMES, get_method

    fields = {f.name for name in METHOD_NAMES for f in dataclasses.fields(get_method(name).Config)}
    return PIPELINE_KEYS | fields


@dataclasses.dataclass(frozen=True)
class MethodConfig:
    """Base of the methods' settings: the tangent Gaussian's precision, shared by all.

    Parameters
    ----------
    precision
        ``hessian`` (negative Hessian of the log posterior at the mode) or ``fisher`` (Yu et
        al. 2024, Sec. 4.3.1). The pipeline sets it from the anchor or the experiment.
    """

    precision: Precision = Precision.HESSIAN

    def __post_init__(self):
        object.__setattr__(self, "precision", _precision(self.precision))

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any] | None = None, path: str = "approximation"):
        """Build from the ``approximation`` config slice (or another slice named by ``path``).

        Raises
        ------
        geobayes.settings.SettingsError
            One line naming the bad key's path: an unknown key (with a suggestion), a wrong
            type, a non-integral integer, a value outside an enum (listing the allowed ones).
        """
        own = {f.name for f in dataclasses.fields(cls)}
        return from_mapping(cls, mapping, path, ignore=approximation_keys() - own)


def require_config(config, cls: type[MethodConfig], method: str):
    """``config`` as a ``cls``: an instance passes; a mapping (a caller that has not built the
    typed object, e.g. a report script) is built by ``cls.from_mapping``, as strictly.

    Raises
    ------
    TypeError
        If ``config`` is neither.
    geobayes.settings.SettingsError
        From :meth:`MethodConfig.from_mapping` for a bad mapping.
    """
    if isinstance(config, cls):
        return config
    if isinstance(config, Mapping):
        return cls.from_mapping(config)
    raise TypeError(f"{method}.fit: expected a {cls.__name__}, got {type(config).__name__}; build it with "
                    f"geobayes.methods.method_config({method!r}, mapping)")
