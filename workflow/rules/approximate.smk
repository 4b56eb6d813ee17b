# Approximations: one job per posterior x method x repetition, batched over samples.


rule approximate:
    input:
        data=prepared_data,
        map="results/map/{posterior}/map.npz",
        code=method_code,
    output:
        npz="results/approximation/{posterior}/{method}/seed{seed}/samples.npz",
        json="results/approximation/{posterior}/{method}/seed{seed}/samples.json",
    params:
        approximation=config["approximation"],
        model=model_options,
        seed=config["seed"],
        device=config["device"],
    log:
        "logs/approximation/{posterior}/{method}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/approximation/{posterior}/{method}/seed{seed}.tsv"
    resources:
        mem_mb=4000,
        runtime=120,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/approximate.py"
