# MAP: BFGS from random restarts (Yu et al. 2024: 20 restarts, best log posterior).


rule map:
    input:
        data=prepared_data,
        code=library_closure("optimize.map_estimate", "pipeline.posteriors"),
    output:
        npz="results/map/{posterior}/map.npz",
        json="results/map/{posterior}/map.json",
    params:
        map=config["map"],
        model=model_options,
        seed=config["seed"],
        device=config["device"],
    log:
        "logs/map/{posterior}.log",
    benchmark:
        "logs/benchmarks/map/{posterior}.tsv"
    resources:
        mem_mb=2000,
        runtime=30,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/map.py"
