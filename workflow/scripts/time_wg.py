"""WG vs LA vs RLA-F vs NUTS on one posterior: seconds per sample at equal sample counts, in
one process (Hartmann et al. 2026 claim WG is orders of magnitude faster than ODE-based
wrapped Gaussians but never measured it)."""

import jax.numpy as jnp

from geobayes.io import load_npz, save_json
from geobayes.methods import get_method, method_config
from geobayes.metrics.equal_count_timing import time_approximation, time_nuts
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    posterior = build_posterior(smk.wildcards.posterior, smk.input.data or None, smk.params.model)
    cfg, n = smk.params.timing, int(smk.params.timing["samples"])
    mode = jnp.asarray(load_npz(smk.input.map)["position"])
    key = derive_key(smk.params.seed, "time_wg", posterior.name)
    methods = {}
    for method in cfg["methods"]:
        settings = method_config(method, {**smk.params.approximation[method], "precision": "hessian"})
        methods[method] = time_approximation(get_method(method).fit, posterior, mode, settings, key, n,
                                             int(cfg["repeats"]))
        print(f"{method}: {methods[method]}", file=log)
    ref = smk.params.reference
    nuts = time_nuts(posterior, mode, key, warmup=int(cfg["nuts_warmup"]), samples=n,
                     target_accept=ref["target_accept"], max_tree_depth=ref["max_tree_depth"],
                     dense_mass=ref["dense_mass"])
    print(f"nuts: {nuts}", file=log)
    ratios = {}
    if "wg" in methods:
        wg = methods["wg"]["per_sample_s"]
        ratios = {f"wg/{m}": wg / methods[m]["per_sample_s"] for m in methods if m != "wg"}
        ratios["wg/nuts"] = wg / nuts["per_sample_s"]
    save_json(smk.output[0], sidecar("timing_wg", {"timing": cfg}, device, {}, posterior=posterior.name,
                                     dim=posterior.dim, samples=n, methods=methods, nuts=nuts, ratios=ratios))
