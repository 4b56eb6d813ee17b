# Reference posterior by NUTS with posteriordb acceptance checks, started at the Euclidean MAP:
# nuts = the configured backend (reference.backend: NumPyro, or Stan as the paper), nuts_numpyro /
# nuts_stan = a named one (the cross-check's second opinion, reference_crosscheck.smk).
include: "reference_crosscheck_common.smk"


rule reference:
    input:
        data=prepared_data,
        map="results/map/{posterior}/euclidean.npz",
    output:
        npz=maybe_protected("results/reference/{posterior}/{sampler}.npz"),
        json=maybe_protected("results/reference/{posterior}/{sampler}.json"),
    params:
        reference=reference_job_settings,
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        compile=lambda wildcards: compile_effort(wildcards, "reference"),
        code=reference_code,
    wildcard_constraints:
        sampler="|".join(REFERENCE_SAMPLERS),
    log:
        "logs/reference/{posterior}.{sampler}.log",
    benchmark:
        "logs/benchmarks/reference/{posterior}.{sampler}.tsv"
    resources:
        mem_mb=4000,
        runtime=240,
        **gpu_resources(),
    threads: reference_threads
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
        code=script_code("exact_reference.py", "targets", "samplers.reference", "pipeline.posteriors"),
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
