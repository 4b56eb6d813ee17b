# Bergamin et al. (2023), Sec. 5.2 and App. D.2-D.6: softmax network classifiers (banana, pinwheel,
# UCI, the CNN on MNIST/FashionMNIST). Posteriors <dataset>_<prior>_seed<k>-<network>; the MAP,
# approximations (map, LA, lin-LA, riem-LA, lin-riem-LA and the mini-batched-metric variants) are the
# generic rules; this file adds the data splits, the training with both prior precisions, the
# predictive metrics (tidy rows of results/summary/<experiment>.csv; the tables are entries
# bergamin2023_* of workflow/resources/tables.yaml) and the confidence maps.

include: "classifiers_common.smk"


# One prepared split: banana / pinwheel as the paper's code splits them, a UCI set per seed
# (70/15/15, standardised on train), an image set's balanced training subset per seed.
rule prepare_classification:
    input:
        raw=classification_raw_files,
    output:
        "data/prepared/classification/{stem}.npz",
    params:
        options=classification_stem_options,
        code=script_code("prepare_classification.py", "data.classification_sources"),
    log:
        "logs/prepare/classification/{stem}.log",
    benchmark:
        "logs/benchmarks/prepare/classification/{stem}.tsv"
    resources:
        mem_mb=2000,
        runtime=10,
    threads: 1
    wildcard_constraints:
        stem=r"(" + "|".join(SOURCES) + r")(_seed\d+)?",
    conda:
        ENV
    script:
        "../scripts/prepare_classification.py"


# An out-of-distribution test set: the official test images, scaled to [0, 1] (Tables 9, 10).
rule prepare_image_test_set:
    input:
        raw=lambda wildcards: [f"data/raw/{f}" for f in IMAGE_TEST_SETS[wildcards.dataset]],
    output:
        "data/prepared/image_test/{dataset}.npz",
    params:
        code=script_code("prepare_image_test_set.py", "data.classification_sources"),
    log:
        "logs/prepare/image_test/{dataset}.log",
    benchmark:
        "logs/benchmarks/prepare/image_test/{dataset}.tsv"
    resources:
        mem_mb=2000,
        runtime=10,
    threads: 1
    wildcard_constraints:
        dataset="|".join(IMAGE_TEST_SETS),
    conda:
        ENV
    script:
        "../scripts/prepare_image_test_set.py"


# The MAP as the paper's code trains it, then both prior precisions of the tables: the Laplace
# marginal likelihood's (laplace-torch's optimize_prior_precision) and the fixed 2 x weight decay.
# Each becomes one posterior's network file (data + weights + prior variance).
rule train_classifier:
    input:
        data=classifier_split_file,
    output:
        optimised="results/network/{dataset}_optimised_seed{seed}-{model}.npz",
        fixed="results/network/{dataset}_fixed_seed{seed}-{model}.npz",
        json="results/network/{dataset}_seed{seed}-{model}.json",
    params:
        model=classifier_model_options,
        seed=config["seed"],
        device=config["device"],
        code=script_code("train_classifier.py",
                         "optimize.train_classifier", "laplace.classification_evidence", "pipeline.network_posteriors"),
    log:
        "logs/network/{dataset}_seed{seed}-{model}.log",
    benchmark:
        "logs/benchmarks/network/{dataset}_seed{seed}-{model}.tsv"
    resources:
        mem_mb=4000,
        runtime=240,
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        dataset="|".join(SOURCES),
        model="|".join(CLASSIFIER_MODELS) or "(?!)",
    conda:
        ENV
    script:
        "../scripts/train_classifier.py"


ruleorder: train_classifier > train_network


# The Monte Carlo predictive of each repetition's draws on the test split: accuracy, NLL, Brier,
# ECE, MCE (the paper's definitions, geobayes.metrics.classification), the OOD AUROCs, and the
# confidence on the 2-D grid of the figures. One job per posterior x anchor x method.
rule predict_classifier:
    input:
        unpack(classification_prediction_inputs),
    output:
        npz=per_repetition("results/classification/{posterior}/{anchor}/{method}/seed{seed}.npz"),
        json=per_repetition("results/classification/{posterior}/{anchor}/{method}/seed{seed}.json"),
    params:
        model=model_options,
        classification=lambda wildcards: EXPERIMENTS[experiment_of(wildcards.posterior)]["classification"],
        ood=lambda wildcards: ood_sets(wildcards.posterior),
        code=lambda wildcards: script_code("predict_classifier.py",
                                           "networks.classifier_predictive", "metrics.classification",
                                           f"methods.{wildcards.method}", "pipeline.posteriors"),
    log:
        "logs/classification/{posterior}/{anchor}/{method}.log",
    benchmark:
        "logs/benchmarks/classification/{posterior}/{anchor}/{method}.tsv"
    resources:
        mem_mb=4000,
        runtime=10 * len(repetition_seeds()),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/predict_classifier.py"


# Figs. 6, D.5 and D.6: the confidence max_c p(c | x) on the grid, one panel per method (rows) and
# prior setting (columns), the training points over it and the decision boundary.
rule figure_confidence_maps:
    input:
        unpack(confidence_map_inputs),
    output:
        "figures/confidence_{experiment}_{dataset}.pdf",
    params:
        methods=lambda wildcards: EXPERIMENTS[wildcards.experiment]["methods"],
        priors=lambda wildcards: EXPERIMENTS[wildcards.experiment]["priors"],
        code=script_code("figure_confidence_maps.py", "report.confidence_maps"),
    log:
        "logs/figures/confidence_{experiment}_{dataset}.log",
    benchmark:
        "logs/benchmarks/figures/confidence_{experiment}_{dataset}.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    threads: 1
    wildcard_constraints:
        experiment="|".join(CLASSIFIER_EXPERIMENTS) or "(?!)",
    conda:
        ENV
    script:
        "../scripts/figure_confidence_maps.py"
