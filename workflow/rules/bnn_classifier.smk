# Hartmann et al. (2026), App. D, Figs. 8-9: the 2-15-15-1 SiLU network classifier (d = 301) on
# n = 200 points of Bergamin et al.'s banana set, at several optima (a)-(e) from random
# initialisations; per optimum LA and WG, their predictive variance over the input plane and
# the Fisher spectrum. Self-contained (config key `bnn_classifier`): the generic MAP rule keeps
# one mode per posterior, here every optimum is its own job.

include: "bnn_classifier_common.smk"


# n random rows of the banana data (indices and seed stored with them).
rule prepare_bnn_classifier:
    input:
        raw="data/raw/banana/banana.csv",
    output:
        "data/prepared/bnn_classifier/{dataset}.npz",
    params:
        options=bnn_classifier_subset_options(),
        seed=config["seed"],
        code=script_code("prepare_bnn_classifier.py", "data.banana_classification"),
    log:
        "logs/prepare/bnn_classifier/{dataset}.log",
    benchmark:
        "logs/benchmarks/prepare/bnn_classifier/{dataset}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    wildcard_constraints:
        dataset="banana",
    conda:
        ENV
    script:
        "../scripts/prepare_bnn_classifier.py"


# One optimum: BFGS from initialisation {optimum}, training fit, Fisher eigenvalues, MAP on the grid.
rule bnn_classifier_map:
    input:
        data=f"data/prepared/bnn_classifier/{BNN_CLASSIFIER['dataset']}.npz",
    output:
        npz="results/bnn_classifier/optimum{optimum}/map.npz",
        json="results/bnn_classifier/optimum{optimum}/map.json",
    params:
        options=bnn_classifier_map_options(),
        seed=config["seed"],
        device=config["device"],
        code=script_code("bnn_classifier_map.py",
                         "data.banana_classification", "networks.classifier_posterior", "metrics.fisher_spectrum",
                         "metrics.classifier_variance", "optimize.map_estimate", "optimize.anchors"),
    log:
        "logs/bnn_classifier/optimum{optimum}/map.log",
    benchmark:
        "logs/benchmarks/bnn_classifier/optimum{optimum}/map.tsv"
    resources:
        mem_mb=2000,
        runtime=60,
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        optimum=r"\d+",
    conda:
        ENV
    script:
        "../scripts/bnn_classifier_map.py"


# LA (ela) or WG at one optimum, and the Monte-Carlo predictive variance on the grid.
rule bnn_classifier_approximate:
    input:
        data=f"data/prepared/bnn_classifier/{BNN_CLASSIFIER['dataset']}.npz",
        map="results/bnn_classifier/optimum{optimum}/map.npz",
    output:
        npz="results/bnn_classifier/optimum{optimum}/{method}.npz",
        json="results/bnn_classifier/optimum{optimum}/{method}.json",
    params:
        options=bnn_classifier_approximation_options,
        seed=config["seed"],
        device=config["device"],
        code=lambda wildcards: script_code("bnn_classifier_approximate.py",
                                           "data.banana_classification", "networks.classifier_posterior",
                                           "metrics.classifier_variance", f"methods.{wildcards.method}"),
    log:
        "logs/bnn_classifier/optimum{optimum}/{method}.log",
    benchmark:
        "logs/benchmarks/bnn_classifier/optimum{optimum}/{method}.tsv"
    resources:
        mem_mb=bnn_classifier_mem_mb,
        runtime=600,
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        optimum=r"\d+",
        method="|".join(BNN_CLASSIFIER_METHODS),
    conda:
        ENV
    script:
        "../scripts/bnn_classifier_approximate.py"


# Fig. 8 and Fig. 9 (their tables: entries bnn_classifier_optima/_variance of tables.yaml over
# results/summary/bnn_classifier.csv).
rule report_bnn_classifier:
    input:
        unpack(bnn_classifier_report_inputs),
    output:
        variance="figures/bnn_classifier_variance.pdf",
        spectra="figures/bnn_classifier_fisher_spectra.pdf",
    params:
        optima=bnn_classifier_optima(),
        methods=BNN_CLASSIFIER_METHODS,
        code=script_code("report_bnn_classifier.py",
                         "report.bnn_classifier", "report.figures", "data.banana_classification"),
    log:
        "logs/report/bnn_classifier.log",
    benchmark:
        "logs/benchmarks/report/bnn_classifier.tsv"
    conda:
        ENV
    script:
        "../scripts/report_bnn_classifier.py"
