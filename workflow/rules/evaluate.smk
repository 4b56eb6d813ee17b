# Evaluation: exact W1 (POT emd2) against a reference that passed its checks.


def wasserstein_mem_mb(wildcards):
    """Memory for exact EMD: the float64 cost matrix plus the simplex's working copies."""
    reference = config["reference"]
    n_reference = reference["chains"] * (reference["samples"] // reference["thin"])
    return 1000 + 5 * 8 * n_reference * config["approximation"]["samples"] // 2**20


rule evaluate:
    input:
        samples_npz="results/approximation/{posterior}/{method}/seed{seed}/samples.npz",
        samples_json="results/approximation/{posterior}/{method}/seed{seed}/samples.json",
        reference_npz="results/reference/{posterior}/nuts.npz",
        reference_json="results/reference/{posterior}/nuts.json",
        code=library_closure("metrics.wasserstein", "samplers.reference"),
    output:
        "results/evaluation/{posterior}/{method}/seed{seed}/metrics.json",
    params:
        wasserstein=config["evaluation"]["wasserstein"],
    log:
        "logs/evaluation/{posterior}/{method}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/evaluation/{posterior}/{method}/seed{seed}.tsv"
    resources:
        mem_mb=wasserstein_mem_mb,
        runtime=120,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/evaluate.py"
