"""Special functions in JAX float64: log Bessel I, its order ratio, the vMF normaliser."""

from geobayes.special.log_bessel import bessel_iv_ratio, log_bessel_iv, log_vmf_normalizer, vmf_mean_resultant

__all__ = ["bessel_iv_ratio", "log_bessel_iv", "log_vmf_normalizer", "vmf_mean_resultant"]
