"""Snakemake script: one SGRLD chain of Yu et al.'s (2023) funnel experiment (Sec. 4.2, Fig. 2) and
the check the paper lacks: W1 of each marginal of all its positions to the same number of exact
draws, beside the floor (W1 between two independent exact sets of that size)."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import time

import jax
import numpy as np

from geobayes.io import save_json, save_npz
from geobayes.metrics.wasserstein import wasserstein1_1d
from geobayes.pipeline.compile_clock import CompileClock
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_key
from geobayes.registry import lookup
from geobayes.sgmcmc.registry import build_preconditioner
from geobayes.sgmcmc.target_chain import run_target_chain

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    settings, sampler, repetition = smk.params.experiment, smk.wildcards.sampler, int(smk.wildcards.repetition)
    target = lookup("softplus_funnel").from_options("yu2023_funnel", settings["target"])
    options = dict(settings["samplers"][sampler])
    if "learning_rate" not in options:
        raise SystemExit(f"experiments.yu2023_funnel.samplers.{sampler}: learning_rate is required (the step size eta)")
    learning_rate = float(options.pop("learning_rate"))
    preconditioner = build_preconditioner(sampler, options, f"experiments.yu2023_funnel.samplers.{sampler}")
    steps = int(settings["steps"])
    start = time.perf_counter()
    with CompileClock() as clock:
        chain = run_target_chain(derive_key(smk.params.seed, "yu2023_funnel", sampler, repetition), target,
                                 preconditioner, learning_rate=learning_rate, start=settings["start"],
                                 num_steps=steps, noise_std=float(settings["gradient_noise_std"]))
    seconds = time.perf_counter() - start
    kept = chain.positions[chain.finite]
    exact = [np.asarray(target.sample_exact(derive_key(smk.params.seed, "yu2023_funnel", "exact", repetition, part),
                                            max(len(kept), 1))) for part in (0, 1)]
    record = {"stage": "yu2023_funnel_chain", "posterior": "yu2023_funnel", "method": sampler,
              "repetition": repetition, "n_samples": steps, "n_failed": int((~chain.finite).sum()),
              "fallback_fraction": float(chain.fallback.mean()), "seconds_per_step": (seconds - clock.seconds) / steps,
              "compile_s": clock.seconds, "learning_rate": learning_rate, "settings": options}
    for k in range(target.dim):
        name = f"theta{k + 1}"
        record[f"w1_{name}"] = wasserstein1_1d(kept[:, k], exact[0][:, k]) if len(kept) else None
        record[f"floor_w1_{name}"] = wasserstein1_1d(exact[1][:, k], exact[0][:, k])
    rng = np.random.default_rng(np.asarray(jax.random.key_data(derive_key(smk.params.seed, "plot", sampler))).tolist())
    shown = kept[rng.choice(len(kept), size=min(int(settings["plot_samples"]), len(kept)), replace=False)]
    stride = max(1, len(kept) // int(settings["histogram_samples"]))
    save_npz(smk.output.npz, plot_points=shown, theta_last=kept[::stride, -1])
    save_json(smk.output.json, record)
    print(f"{sampler} rep {repetition}: {steps} steps in {seconds:.1f} s ({clock.seconds:.1f} s compiling), "
          f"{record['n_failed']} non-finite, fallback {record['fallback_fraction']:.2e}, "
          f"W1 {[record[f'w1_theta{k + 1}'] for k in range(target.dim)]}", file=log)
