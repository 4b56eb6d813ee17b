# Reference posterior by NUTS with posteriordb acceptance checks (paper: Stan; here NumPyro),
# started at the Euclidean MAP.
rule reference:
    input:
        data=prepared_data,
        map="results/map/{posterior}/euclidean.npz",
    output:
        npz=maybe_protected("results/reference/{posterior}/nuts.npz"),
        json=maybe_protected("results/reference/{posterior}/nuts.json"),
    params:
        reference=reference_settings,
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        code=code_digest("samplers.nuts", "samplers.reference", "pipeline.posteriors", "whitened_target"),
    log:
        "logs/reference/{posterior}.log",
    benchmark:
        "logs/benchmarks/reference/{posterior}.tsv"
    resources:
        mem_mb=4000,
        runtime=240,
        **gpu_resources(),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/reference.py"


# Exact i.i.d. draws of a closed-form target (Yu et al. 2024: Gaussian, squiggle, funnel).
rule exact_reference:
    output:
        npz="results/reference/{posterior}/exact.npz",
        json="results/reference/{posterior}/exact.json",
    params:
        draws=config["reference"]["exact_draws"],
        model=model_options,
        seed=config["seed"],
        code=code_digest("targets", "samplers.reference", "pipeline.posteriors"),
    log:
        "logs/reference/{posterior}.exact.log",
    benchmark:
        "logs/benchmarks/reference/{posterior}.exact.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/exact_reference.py"
