# Bayesian neural-network regression on Snelson's data: Yu et al. (2024) Sec. 5.4 (Tables 3, 5;
# Figs. 6, 10-14), Bergamin et al. (2023) Sec. 5.1 (Figs. 5, D.1-D.4), Hartmann et al. (2026)
# Sec. 5.3.2 (Fig. 5). Posteriors <split>-<network>; MAP, NUTS, approximations and timing are
# the generic rules; this file adds the data split, the network training with the Laplace
# marginal likelihood, the predictive evaluation (tidy rows of results/summary/<experiment>.csv;
# Tables 3 and 5 are the entries yu2024_table3/5 of workflow/resources/tables.yaml) and the figures.


rule prepare_snelson:
    input:
        raw=snelson_raw_files,
    output:
        "data/prepared/{bnn}/{split}.npz",
    params:
        code=script_code("prepare_snelson.py", "data.snelson"),
    log:
        "logs/prepare/{bnn}/{split}.log",
    benchmark:
        "logs/benchmarks/prepare/{bnn}/{split}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    wildcard_constraints:
        bnn="|".join(BNN_EXPERIMENTS),
        split="|".join(SNELSON_SPLIT_FILES),
    conda:
        ENV
    script:
        "../scripts/prepare_snelson.py"


# MAP training as the paper's code does (Optax), then the prior precision and the noise std
# by the Laplace marginal likelihood (laplace-torch's procedure) at the trained weights.
rule train_network:
    input:
        data=network_training_inputs,
    output:
        npz="results/network/{posterior}.npz",
        json="results/network/{posterior}.json",
    params:
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        code=script_code("train_network.py",
                         "optimize.train_network", "laplace.marginal_likelihood", "pipeline.network_posteriors"),
    log:
        "logs/network/{posterior}.log",
    benchmark:
        "logs/benchmarks/network/{posterior}.tsv"
    resources:
        mem_mb=2000,
        runtime=120,
        **gpu_resources(),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/train_network.py"


# Function samples at the test inputs and on the figure grid; MSE and NLL (Yu et al. 2024,
# Sec. 5.4) with the failed solves counted beside them. One job per posterior x anchor x method
# covers every repetition (as the approximation does): the start-up and the compiled network are
# shared; each repetition's files are those of a job of its own.
rule predict_network:
    input:
        data=prepared_data,
        draws=per_repetition("results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.npz"),
        record=per_repetition("results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.json"),
    output:
        npz=per_repetition("results/prediction/{posterior}/{anchor}/{method}/seed{seed}.npz"),
        json=per_repetition("results/prediction/{posterior}/{anchor}/{method}/seed{seed}.json"),
    params:
        model=model_options,
        samples=lambda wildcards: approximation_settings(wildcards)["samples"],
        seed=config["seed"],
        code=lambda wildcards: script_code("predict_network.py",
                                           "networks.predictive", "metrics.predictive", f"methods.{wildcards.method}",
                                           "pipeline.posteriors"),
    log:
        "logs/prediction/{posterior}/{anchor}/{method}.log",
    benchmark:
        "logs/benchmarks/prediction/{posterior}/{anchor}/{method}.tsv"
    resources:
        mem_mb=2000,
        runtime=10 * len(repetition_seeds()),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/predict_network.py"


# The NUTS reference's predictive: metrics over random subsets of as many draws as one
# repetition of the approximations (the paper: 500 of its 20,000 draws, 5 times).
rule predict_network_reference:
    input:
        data=prepared_data,
        draws="results/reference/{posterior}/nuts.npz",
        record="results/reference/{posterior}/nuts.json",
    output:
        npz="results/prediction/{posterior}/nuts.npz",
        json="results/prediction/{posterior}/nuts.json",
    params:
        model=model_options,
        samples=lambda wildcards: {**config["approximation"], **EXPERIMENTS[experiment_of(wildcards.posterior)].get("approximation", {})}["samples"],
        seed=config["seed"],
        code=script_code("predict_network.py", "networks.predictive", "metrics.predictive", "pipeline.posteriors"),
    log:
        "logs/prediction/{posterior}/nuts.log",
    benchmark:
        "logs/benchmarks/prediction/{posterior}/nuts.tsv"
    resources:
        mem_mb=4000,
        runtime=10,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/predict_network.py"


# W2 of one run's push-forward predictive to the NUTS reference's on the grid (Hartmann et al. 2026,
# Fig. 5), for the network experiments whose `wasserstein` lists w2.
rule evaluate_pushforward:
    input:
        run="results/prediction/{posterior}/{anchor}/{method}/seed{seed}.npz",
        record="results/prediction/{posterior}/{anchor}/{method}/seed{seed}.json",
        reference="results/prediction/{posterior}/nuts.npz",
    output:
        "results/pushforward/{posterior}/{anchor}/{method}/seed{seed}.json",
    params:
        code=script_code("evaluate_pushforward.py", "metrics.pushforward_w2"),
    log:
        "logs/pushforward/{posterior}/{anchor}/{method}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/pushforward/{posterior}/{anchor}/{method}/seed{seed}.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/evaluate_pushforward.py"


# Yu et al. (2024), Fig. 6 / Fig. 14 (function samples of RLA-B, RLA-BLog, RLA-F, NUTS on both
# splits), Fig. 10 (ELA) and Figs. 11-13 (each method's worst repetition by test MSE).
rule figure_bnn_yu:
    input:
        unpack(bnn_figure_inputs("bnn_yu", lambda w: f"complete_{w.scaling}")),
        unpack(bnn_figure_inputs("bnn_yu", lambda w: f"gap_{w.scaling}")),
    output:
        main="figures/bnn_yu_{scaling}.pdf",
        ela="figures/bnn_yu_{scaling}_ela.pdf",
        worst="figures/bnn_yu_{scaling}_worst.pdf",
    params:
        options=EXPERIMENTS["bnn_yu"],
        seeds=list(repetition_seeds()),
        code=script_code("figure_bnn_yu.py", "report.bnn_figures"),
    log:
        "logs/report/bnn_yu_{scaling}_figures.log",
    benchmark:
        "logs/benchmarks/report/bnn_yu_{scaling}_figures.tsv"
    wildcard_constraints:
        scaling="raw|standardised",
    conda:
        ENV
    script:
        "../scripts/figure_bnn_yu.py"


# Bergamin et al. (2023), Fig. 5 / D.1-D.4: posterior function samples and predictive bands of
# LA, lin-LA, riem-LA, lin-riem-LA and the mini-batched variants, for both networks.
rule figure_bnn_bergamin:
    input:
        unpack(bnn_figure_inputs("bnn_bergamin", lambda w: w.split)),
    output:
        samples="figures/bnn_bergamin_{split}.pdf",
        predictive="figures/bnn_bergamin_{split}_predictive.pdf",
    params:
        options=EXPERIMENTS["bnn_bergamin"],
        code=script_code("figure_bnn_bergamin.py", "report.bnn_figures"),
    log:
        "logs/report/bnn_bergamin_{split}.log",
    benchmark:
        "logs/benchmarks/report/bnn_bergamin_{split}.tsv"
    wildcard_constraints:
        split="random|between",
    conda:
        ENV
    script:
        "../scripts/figure_bnn_bergamin.py"


# Hartmann et al. (2026), Fig. 5: WG vs LA vs NUTS on the 142-parameter network (the W2 of the
# push-forward predictive on the grid: rule evaluate_pushforward, table bnn_hartmann_pushforward_w2).
rule figure_bnn_hartmann:
    input:
        unpack(bnn_figure_inputs("bnn_hartmann", lambda w: w.split)),
    output:
        figure="figures/bnn_hartmann_{split}.pdf",
    params:
        options=EXPERIMENTS["bnn_hartmann"],
        code=script_code("figure_bnn_hartmann.py", "report.bnn_pushforward_figures"),
    log:
        "logs/report/bnn_hartmann_{split}.log",
    benchmark:
        "logs/benchmarks/report/bnn_hartmann_{split}.tsv"
    wildcard_constraints:
        split="drop23",
    conda:
        ENV
    script:
        "../scripts/figure_bnn_hartmann.py"
