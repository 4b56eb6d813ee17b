# Evaluation: exact W1 (POT emd2) and/or the 1-D W1 of the first coordinate against a
# reference that passed its checks (NUTS) or is exact; one job per posterior x anchor x method,
# covering every repetition (as its approximation job).
rule evaluate:
    input:
        unpack(reference_files),
        samples_npz=per_repetition("results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.npz"),
        samples_json=per_repetition("results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.json"),
    output:
        metrics=per_repetition("results/evaluation/{posterior}/{anchor}/{method}/seed{seed}/metrics.json"),
    params:
        max_reference_draws=config["evaluation"]["max_reference_draws"],
        wasserstein=config["evaluation"]["wasserstein"],
        distances=lambda wildcards: EXPERIMENTS[experiment_of(wildcards.posterior)]["wasserstein"],
        code=script_code("evaluate.py", "metrics.wasserstein", "samplers.reference", "samplers.thinning"),
    log:
        "logs/evaluation/{posterior}/{anchor}/{method}.log",
    benchmark:
        "logs/benchmarks/evaluation/{posterior}/{anchor}/{method}.tsv"
    resources:
        mem_mb=wasserstein_mem_mb,
        runtime=120 * len(repetition_seeds()),  # minutes: 120 per repetition, all in one job
    threads: 1
    conda:
        ENV
    script:
        "../scripts/evaluate.py"
