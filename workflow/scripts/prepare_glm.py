"""Table 1 subsets of Hartmann et al. (2026): 30 % of the rows for the regressions (with an
intercept), 100 rows for the latent GPs (no intercept). One subset per data set and kind,
shared by the Bernoulli and Poisson models; the row indices and seed are stored."""

from geobayes.pipeline.warm_start import hand_over

hand_over(snakemake)  # noqa: F821  (in the run's warm process, if one answers: geobayes.pipeline.warm_start)

from geobayes.data.errors import exit_on_data_error
from geobayes.data.verify import verified
from geobayes.data.glm_subsets import prepare_glm_subset, regression_subset_size, subset_indices
from geobayes.data.logreg import load_logreg_raw
from geobayes.data.prepared import save_prepared
from geobayes.pipeline.step import logged_to
from geobayes.random import derive_seed

smk = snakemake  # noqa: F821

with logged_to(smk.log[0]) as log, exit_on_data_error(log):
    cfg, dataset, kind = smk.params.glm, smk.wildcards.dataset, smk.wildcards.kind
    features, labels = load_logreg_raw(verified(smk.input.raw))
    n_total = labels.shape[0]
    if kind == "regression":
        size = regression_subset_size(n_total, float(cfg["regression_fraction"]))
    else:
        size = int(cfg["gp_points"])
    seed = derive_seed(smk.params.seed, "glm_subset", dataset, kind)
    indices = subset_indices(n_total, size, seed)
    subset = prepare_glm_subset(features, labels, indices, standardise=bool(cfg["standardise"]),
                                intercept=kind == "regression")
    save_prepared(smk.output[0], "glm", subset.arrays(), {"seed": seed, "kind": kind})
    print(f"{dataset} {kind}: {size} of {n_total} rows (numpy seed {seed}), X {subset.X.shape}, "
          f"{int(subset.y.sum())} ones; indices {subset.indices.tolist()}", file=log)
