"""Draw every repetition of one approximation method on one posterior at one MAP anchor.

One job covers the repetitions (``approximation.repetitions``; rule outputs in the order of
``params.repetitions``): the posterior, the imports and the compiled solvers are shared, and each
repetition draws exactly what a job of its own would (its key folds in the repetition index).
The first repetition's sidecar records the job's compile seconds (``compile_s``: JAX tracing,
lowering and compilation of fit and sample; later repetitions reuse them); every repetition
records its seconds per sample without compilation (``seconds_per_sample``).
"""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import jax
import jax.numpy as jnp
import numpy as np

from geobayes.floating_point import floating_point
from geobayes.io import load_npz, save_json, save_npz
from geobayes.methods import evaluations_per_step, get_method, method_config, summarise_draws
from geobayes.optimize import tangent_precision
from geobayes.pipeline.compile_clock import CompileClock
from geobayes.pipeline.compile_effort import use_compile_effort
from geobayes.pipeline.device import use_device
from geobayes.pipeline.posteriors import build_posterior
from geobayes.pipeline.step import Stopwatch, logged_to, sidecar
from geobayes.random import derive_key

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log:
    effort = use_compile_effort(smk.params.compile)  # config fast_compile; before JAX starts
    device = use_device(smk.params.device)
    method, anchor = smk.wildcards.method, smk.wildcards.anchor
    # Hessian precision at the Euclidean MAP, Fisher at the Hausdorff MAP, unless the experiment
    # sets one (the networks: Fisher = GGN + prior precision, laplace-torch's full Laplace).
    cfg = {**smk.params.approximation, "precision": tangent_precision(anchor, smk.params.model)}
    try:
        config = method_config(method, cfg)  # typed: a misspelt or mistyped key fails here, by name
        # T counts solver steps x evaluations per step: 6 for Dopri5, 3 for Bosh3; a method may set its own.
        per_step = evaluations_per_step(get_method(method), config, cfg["evaluations_per_step"])
    except ValueError as error:  # a config error: its one line, no traceback
        raise SystemExit(f"error: {error}") from None
    # approximation.dtype: the posterior, the fit and the draws in float64 or float32 (the papers' code).
    with floating_point(cfg["dtype"]):
        posterior = build_posterior(smk.wildcards.posterior, smk.input.data or None, smk.params.model)
        mode = jnp.asarray(load_npz(smk.input.map)["position"])
        for rep, npz, json in zip(smk.params.repetitions, smk.output.npz, smk.output.json, strict=True):
            # Common random numbers: every method of one repetition draws the same base Gaussian.
            key = derive_key(smk.params.seed, "approximate", posterior.name, rep)
            clock, compile_fit, compile_sample = Stopwatch(), CompileClock(), CompileClock()
            with clock.time("fit"), compile_fit:
                fitted = get_method(method).fit(posterior, config, key, mode=mode)
            with clock.time("sample"), compile_sample:
                draws = jax.block_until_ready(fitted.approximation.sample(key, cfg["samples"]))
            summary = summarise_draws(draws, per_step)
            summary["seconds_per_sample"] = (clock.timings["sample"] - compile_sample.seconds) / cfg["samples"]
            summary["compile_s"] = compile_fit.seconds + compile_sample.seconds if rep == smk.params.repetitions[0] else None
            print(f"{method} at the {anchor} MAP, rep {rep}: {summary}", file=log)
            save_npz(npz, mode=np.asarray(mode), **{k: np.asarray(v) for k, v in draws.arrays().items()})
            save_json(json, sidecar("approximation", {"approximation": cfg, "model": smk.params.model},
                                    device, clock.timings, posterior=posterior.name, anchor=anchor,
                                    method=method, repetition=rep, seed=smk.params.seed, compile_effort=effort,
                                    **summary))
