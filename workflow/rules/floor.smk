# Monte Carlo floor of the evaluations: the same distances between two disjoint random parts of
# a posterior's reference (n draws against the other R - n, or R/2 against R/2 when n > R/2), one
# file per posterior x evaluated sample count x repetition, one job per posterior x sample count
# covering the repetitions (as the evaluations). What an exact sampler would score;
# the results layer reads `floor_files(experiment)` (see docs/experiments.md).

include: "floor_common.smk"


rule floor:
    input:
        unpack(reference_files),
    output:
        floors=per_repetition("results/floor/{posterior}/n{samples}/seed{seed}.json"),
    params:
        max_reference_draws=config["evaluation"]["max_reference_draws"],
        wasserstein=config["evaluation"]["wasserstein"],
        distances=lambda wildcards: EXPERIMENTS[experiment_of(wildcards.posterior)]["wasserstein"],
        seed=config["seed"],
        repetitions=list(repetition_seeds()),
        code=script_code("floor.py"),
    wildcard_constraints:
        samples=r"\d+",
    log:
        "logs/floor/{posterior}/n{samples}.log",
    benchmark:
        "logs/benchmarks/floor/{posterior}/n{samples}.tsv"
    resources:
        mem_mb=floor_mem_mb,
        runtime=120 * len(repetition_seeds()),  # minutes: 120 per repetition, all in one job
    threads: 1
    conda:
        ENV
    script:
        "../scripts/floor.py"
