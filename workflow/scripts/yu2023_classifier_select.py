"""Snakemake script: Yu et al.'s (2023) selection of one sampler's learning rate (and Monge's alpha^2) for
one posterior (MNIST: width and prior; CIFAR-10: prior): the grid point with the highest mean validation
LP at the last epoch over its seeds, a point with any diverged seed excluded (App. A.5; notes Sec. 3.1).
Its per-seed test metrics become the tidy rows with anchor ``selected`` (Tables 1-5, 8-10); its curves
the figure data of Fig. 3."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

import numpy as np

from geobayes.io import load_json, load_npz, save_json, save_npz
from geobayes.pipeline.step import logged_to
from geobayes.sgmcmc.selection import select_grid_point

smk = snakemake  # noqa: F821
with logged_to(smk.log[0]) as log:
    records = [load_json(path) for path in smk.input.records]
    choice = select_grid_point(records)
    chosen = sorted((r for r in records if r["anchor"] == choice.point), key=lambda r: r["repetition"])
    record = {"stage": f"{smk.wildcards.study}_selected", "posterior": smk.wildcards.posterior, "anchor": "selected",
              "method": smk.wildcards.sampler, "selected_point": choice.point, "learning_rate": chosen[0]["learning_rate"],
              "alpha2": chosen[0]["alpha2"], "points": choice.scores, "excluded": choice.excluded,
              "n_samples": sum(r["n_samples"] for r in chosen), "n_failed": sum(r["n_failed"] for r in chosen)}
    for field in ("lp", "accuracy", "ece", "confidence", "curvature", "seconds_per_epoch"):
        record[field] = [r[field] for r in chosen]
    curves = {path: load_npz(path) for path in smk.input.curves}
    selected = [curves[p] for p, r in zip(smk.input.curves, records) if r["anchor"] == choice.point]
    save_npz(smk.output.npz, **{name: np.stack([c[name] for c in selected]) for name in selected[0]})
    save_json(smk.output.json, record)
    print(f"selected {choice.point} (mean validation LP {choice.scores[choice.point]:.4f}); "
          f"excluded (a seed diverged): {choice.excluded}", file=log)
