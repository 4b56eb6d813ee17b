"""Display labels of the approximation methods, next to their registry names."""

from __future__ import annotations

__all__ = ["FLOOR_METHOD", "METHOD_LABELS", "method_label"]

#: Method name of the Monte Carlo floor rows (a reference against itself), beside the methods'
#: names; the floor job and the results layer (``geobayes.report.tidy``) read it from here.
FLOOR_METHOD = "floor"

#: Registry name -> label as the papers print it (Yu et al. 2024; Bergamin et al. 2023;
#: Hartmann et al. 2026; Yu et al. 2023's SGRLD metrics, :mod:`geobayes.sgmcmc`); ``floor`` is the
#: Monte Carlo floor of a reference against itself.
METHOD_LABELS = {
    "map": "MAP", "ela": "ELA", "rla_b": "RLA-B", "rla_blog": "RLA-BLog", "rla_f": "RLA-F", "rla_ef": "RLA-EF", "wg": "WG",
    "lin_ela": "lin-LA", "lin_rla_b": "lin-riem-LA", "rla_b_batched": "riem-LA (batch)",
    "lin_rla_b_batched": "lin-riem-LA (batch)", "nuts": "NUTS", "floor": "MC floor",
    "identity": "Identity", "rmsprop": "RMSprop", "wenzel": "Wenzel", "monge": "Monge", "shampoo": "Shampoo",
    # Liu & Zhu (2018): particle methods (geobayes.svgd, geobayes.spheres) and the sphere samplers' modes
    "svgd": "SVGD", "rsvgd": "RSVGD", "svgd_median": "SVGD (median)", "rsvgd_paper_density": "RSVGD (paper density)",
    "gmc_seq": "GMC-seq", "gmc_par": "GMC-par", "sggmcf_seq": "SGGMCf-seq", "sggmcf_par": "SGGMCf-par",
    "sggmcb_seq": "SGGMCb-seq", "sggmcb_par": "SGGMCb-par",
}


def method_label(method: str) -> str:
    """Display label of a method (``rla_blog`` -> ``RLA-BLog``); unknown names upper-cased."""
    return METHOD_LABELS.get(method, method.upper().replace("_", "-"))
