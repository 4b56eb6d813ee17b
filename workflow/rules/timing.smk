# Yu et al. (2024), Table 4: seconds per sample, one sample at a time and batched, measured in
# one process on the same machine (2 threads, like the paper's 2 cores).
rule time_sampling:
    input:
        data=prepared_data,
        map="results/map/{posterior}/euclidean.npz",
    output:
        "results/timing/{posterior}/{method}.json",
    params:
        approximation=timing_settings,
        timing=TIMING,
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        code=lambda wildcards: script_code("time_sampling.py", f"methods.{wildcards.method}", "pipeline.posteriors",
                                           "metrics.sampling_time"),
    log:
        "logs/timing/{posterior}/{method}.log",
    benchmark:
        "logs/benchmarks/timing/{posterior}/{method}.tsv"
    resources:
        mem_mb=4000,
        runtime=240,
        **gpu_resources(),
    threads: config["timing_threads"]
    conda:
        ENV
    script:
        "../scripts/time_sampling.py"
