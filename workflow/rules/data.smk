# Data: registered files from the mirror or their pinned URLs, then model-ready arrays.

from geobayes.data.registry import UNAVAILABLE


def download_patterns():
    """Registered files, and the files of the data sets known to be unavailable: a job asking for
    one of those runs `download`, which ends with the one line saying how to add it."""
    unavailable = [re.escape(f) for item in UNAVAILABLE for f in item.files]
    unavailable += [re.escape(item.dataset) + "/.+" for item in UNAVAILABLE if not item.files]
    return registry_files() + unavailable


rule download:
    output:
        "data/raw/{file}",
    params:
        mirror=config["data"]["mirror"],
        timeout_s=config["data"]["timeout_s"],
    input:
        code=library_closure("data.download"),
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
        code=library_closure("data.logreg"),
    output:
        "data/prepared/logreg/{dataset}_{inputs}.npz",
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
    input:
        code=library_closure("data.banana", "data.logreg"),
    output:
        "data/prepared/banana/yu2024.npz",
    params:
        banana=EXPERIMENTS["banana"],
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
