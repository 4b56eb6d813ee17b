# A second opinion on the references (config reference.crosscheck): each listed posterior's NUTS
# reference by the other backend (NumPyro against Stan), W1 between the two beside each one's Monte
# Carlo floor (geobayes.metrics.reference_agreement). Records: tidy rows of
# results/summary/reference_crosscheck.csv, the table entry reference_crosscheck of
# workflow/resources/tables.yaml, and the flags in every reproduction report. Helpers:
# reference_crosscheck_common.smk (included by reference.smk).


rule reference_crosscheck:
    input:
        primary_npz="results/reference/{posterior}/nuts.npz",
        primary_json="results/reference/{posterior}/nuts.json",
        second_npz=lambda wildcards: f"results/reference/{wildcards.posterior}/{second_opinion(wildcards.posterior)}.npz",
        second_json=lambda wildcards: f"results/reference/{wildcards.posterior}/{second_opinion(wildcards.posterior)}.json",
    output:
        "results/reference_crosscheck/{posterior}.json",
    params:
        max_reference_draws=config["evaluation"]["max_reference_draws"],
        max_floor_ratio=config["reference"]["crosscheck"]["max_floor_ratio"],
        wasserstein=config["evaluation"]["wasserstein"],
        code=script_code("reference_crosscheck.py"),
    log:
        "logs/reference_crosscheck/{posterior}.log",
    benchmark:
        "logs/benchmarks/reference_crosscheck/{posterior}.tsv"
    resources:
        # three exact W1 between chain halves: a float64 cost matrix of (R/2)^2 and the simplex's copies
        mem_mb=lambda wildcards: 1000 + 5 * 8 * (compared_reference_size(wildcards.posterior) // 2) ** 2 // 2**20,
        runtime=60,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/reference_crosscheck.py"
