# Helpers of workflow/rules/floor.smk (the Monte Carlo floor): which floor files an experiment
# has, and the memory of one floor job.


def floor_sample_count(experiment):
    """The sample count of an experiment's runs: `approximation.samples`, or the experiment's own
    `approximation.samples` override. A method given its own count by `method_samples` (e.g.
    RLA-BLog with a few samples) is shown beside the floor at this count: one floor per
    posterior and repetition keeps the tidy floor rows unique (a second count would need a
    second key)."""
    overrides = EXPERIMENTS[experiment].get("approximation", {})
    return overrides.get("samples", config["approximation"]["samples"])


def floor_files(experiment):
    """Floor files of every posterior of an experiment, one per repetition."""
    samples = floor_sample_count(experiment)
    return [f"results/floor/{posterior}/n{samples}/seed{seed}.json"
            for posterior in experiment_posteriors(experiment) for seed in repetition_seeds()]


def floor_mem_mb(wildcards):
    """Memory for the floor's exact EMD (as `wasserstein_mem_mb`): the float64 cost matrix of the two
    parts, n x (R - n), or R/2 x R/2 when n > R/2, of the R compared draws, plus the simplex's working copies."""
    size = compared_reference_size(wildcards.posterior)
    size_a = min(int(wildcards.samples), size // 2)
    return 1000 + 5 * 8 * size_a * max(size - size_a, 0) // 2**20
