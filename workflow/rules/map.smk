# MAP: BFGS from random restarts (Yu et al. 2024: 20 restarts, best objective). The anchor is
# the Euclidean MAP (log posterior) or the Hausdorff MAP (log posterior - 1/2 log det Fisher).
rule map:
    input:
        data=prepared_data,
    output:
        npz="results/map/{posterior}/{anchor}.npz",
        json="results/map/{posterior}/{anchor}.json",
    params:
        map=config["map"],
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        compile=lambda wildcards: compile_effort(wildcards, "map"),
        code=script_code("map.py",
                         "optimize.map_estimate", "optimize.anchors", "pipeline.posteriors", "whitened_target"),
    log:
        "logs/map/{posterior}/{anchor}.log",
    benchmark:
        "logs/benchmarks/map/{posterior}/{anchor}.tsv"
    resources:
        mem_mb=2000,
        runtime=30,
        **gpu_resources(),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/map.py"
