# Helpers of workflow/rules/floor.smk (the Monte Carlo floor): which floor files an experiment
# has, and the memory of one floor job.

from types import SimpleNamespace


def floor_sample_counts(posterior):
    """The distinct sample counts of a posterior's methods (`approximation_settings`: an
    experiment's `approximation.samples` and `method_samples` apply)."""
    return sorted({approximation_settings(SimpleNamespace(posterior=posterior, method=method))["samples"]
                   for method in posterior_methods(posterior)})


def floor_files(experiment):
    """Floor files of every posterior of an experiment: sample count x repetition."""
    return [f"results/floor/{posterior}/n{samples}/seed{seed}.json"
            for posterior in experiment_posteriors(experiment)
            for samples in floor_sample_counts(posterior) for seed in repetition_seeds()]


def floor_mem_mb(wildcards):
    """Memory for the floor's exact EMD (as `wasserstein_mem_mb`): the float64 cost matrix of the two
    parts, n x (R - n), or R/2 x R/2 when n > R/2, plus the simplex's working copies."""
    size = reference_size(wildcards.posterior)
    size_a = min(int(wildcards.samples), size // 2)
    return 1000 + 5 * 8 * size_a * max(size - size_a, 0) // 2**20
