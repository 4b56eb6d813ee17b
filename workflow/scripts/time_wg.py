"""WG vs LA vs RLA-F vs NUTS on one posterior: seconds per sample at equal sample counts, in
one process (Hartmann et al. 2026 claim WG is orders of magnitude faster than ODE-based
wrapped Gaussians but never measured it)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from functools import partial

import jax.numpy as jnp

from geobayes.floating_point import floating_point
from geobayes.io import load_npz, save_json
from geobayes.methods import get_method, method_config
from geobayes.metrics.equal_count_timing import time_approximations, time_nuts
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    device = use_device(smk.params.device)
    cfg, n = smk.params.timing, int(smk.params.timing["samples"])
    # approximation.dtype (one for every method): float64, or float32 as the papers' code ran; NUTS alike
    dtype = {smk.params.approximation[method]["dtype"] for method in cfg["methods"]}.pop()
    with floating_point(dtype):
        posterior = build_posterior(smk.wildcards.posterior, smk.input.data or None, smk.params.model)
        mode = jnp.asarray(load_npz(smk.input.map)["position"])
        key = derive_key(smk.params.seed, "time_wg", posterior.name)
        fits = {method: partial(get_method(method).fit, posterior,
                                method_config(method, {**smk.params.approximation[method], "precision": "hessian"}),
                                key, mode=mode)
                for method in cfg["methods"]}
        # every method fitted and compiled, then their timed calls interleaved round-robin
        methods = time_approximations(fits, key, n, int(cfg["repeats"])).records
        for method, record in methods.items():
            print(f"{method}: {record}", file=log)
        ref = smk.params.reference
        nuts = time_nuts(posterior, mode, key, warmup=int(cfg["nuts_warmup"]), samples=n,
                         target_accept=ref["target_accept"], max_tree_depth=ref["max_tree_depth"],
                         dense_mass=ref["dense_mass"])
    print(f"nuts: {nuts}", file=log)
    # One tidy record per method (geobayes.report.tidy, stage timing_wg): seconds per sample, and
    # WG's seconds per sample over each other method's (< 1: WG faster).
    per_method = [{"method": m, **record, "n_samples": n} for m, record in methods.items()]
    per_method.append({"method": "nuts", **nuts, "n_samples": n, "n_failed": None})
    if "wg" in methods:
        wg = methods["wg"]["per_sample_s"]
        for record in per_method:
            if record["method"] != "wg":
                record["wg_time_ratio"] = wg / record["per_sample_s"]
    save_json(smk.output[0], sidecar("timing_wg", {"timing": cfg}, device, {}, posterior=posterior.name,
                                     dim=posterior.dim, samples=n, threads=smk.threads, per_method=per_method))
