# Reference posterior by NUTS with posteriordb acceptance checks (paper: Stan; here NumPyro).


rule reference:
    input:
        data=prepared_data,
        map="results/map/{posterior}/map.npz",
        code=library_closure("samplers.nuts", "samplers.reference", "pipeline.posteriors"),
    output:
        npz=maybe_protected("results/reference/{posterior}/nuts.npz"),
        json=maybe_protected("results/reference/{posterior}/nuts.json"),
    params:
        reference=reference_settings,
        model=model_options,
        seed=config["seed"],
        device=config["device"],
    log:
        "logs/reference/{posterior}.log",
    benchmark:
        "logs/benchmarks/reference/{posterior}.tsv"
    resources:
        mem_mb=4000,
        runtime=240,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/reference.py"
