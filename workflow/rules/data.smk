# Data: registered files from the mirror or their pinned URLs, then model-ready arrays.

rule download:
    output:
        "data/raw/{file}",
    params:
        mirror=config["data"]["mirror"],
        timeout_s=config["data"]["timeout_s"],
        code=script_code("download.py", "data.download"),
    log:
        "logs/download/{file}.log",
    benchmark:
        "logs/benchmarks/download/{file}.tsv"
    resources:
        mem_mb=500,
        runtime=30,
    threads: 1
    wildcard_constraints:
        file="|".join(download_patterns()),
    conda:
        ENV
    script:
        "../scripts/download.py"


rule prepare_logreg:
    input:
        raw="data/raw/logreg/{dataset}.npy",
    output:
        "data/prepared/logreg/{dataset}_{inputs}.npz",
    params:
        code=script_code("prepare_logreg.py", "data.logreg"),
    log:
        "logs/prepare/logreg/{dataset}_{inputs}.log",
    benchmark:
        "logs/benchmarks/prepare/logreg/{dataset}_{inputs}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_logreg.py"


# Banana data (Yu et al. 2024, Sec. 5.2), generated exactly as the paper's code does.
rule prepare_banana:
    output:
        "data/prepared/banana/yu2024.npz",
    params:
        banana=EXPERIMENTS["banana"],
        code=script_code("prepare_banana.py", "data.banana", "data.logreg"),
    log:
        "logs/prepare/banana/yu2024.log",
    benchmark:
        "logs/benchmarks/prepare/banana/yu2024.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_banana.py"
