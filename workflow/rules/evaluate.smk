# Evaluation: exact W1 (POT emd2) against a reference that passed its checks.


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
