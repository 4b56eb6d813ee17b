# Approximations: one job per posterior x anchor x method, covering every repetition (seed0 ..
# seed{n-1}: common.smk `per_repetition`), batched over samples.
# The anchor fixes the tangent precision: Hessian at the Euclidean MAP, Fisher at the
# Hausdorff MAP (Yu et al. 2024, Sec. 4.3.1).
rule approximate:
    input:
        data=prepared_data,
        map="results/map/{posterior}/{anchor}.npz",
    output:
        npz=per_repetition("results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.npz"),
        json=per_repetition("results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.json"),
    params:
        approximation=approximation_settings,
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        compile=lambda wildcards: compile_effort(wildcards, "approximate"),
        repetitions=list(repetition_seeds()),
        code=method_code,
    log:
        "logs/approximation/{posterior}/{anchor}/{method}.log",
    benchmark:
        "logs/benchmarks/approximation/{posterior}/{anchor}/{method}.tsv"
    resources:
        mem_mb=4000,
        runtime=120 * len(repetition_seeds()),  # minutes: 120 per repetition, all in one job
        **gpu_resources(),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/approximate.py"
