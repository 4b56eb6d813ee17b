# Hartmann et al. (2026), App. D, Figs. 6-7: the regression network of Fig. 5 (experiment
# bnn_hartmann) at several optima (a), (b), ... from random initialisations (config key
# `bnn_hartmann_maps`). Optimum k is the MAP anchor `optimum<k>`: its file has the format of the
# generic MAP files (results/map/<posterior>/optimum<k>.npz), and the generic approximation and
# prediction scripts run from it; only the sample count (the paper's S) differs from Fig. 5's.

include: "bnn_hartmann_maps_common.smk"


# Every optimum in one job: BFGS from each start N(0, init_std^2 I), one run after another (a
# batched run's result depends on the batch size), every run kept (optimum k = run k).
rule map_optima:
    input:
        data=prepared_data,
    output:
        npz=expand("results/map/{{posterior}}/{anchor}.npz", anchor=bnn_hartmann_maps_optima()),
        json=expand("results/map/{{posterior}}/{anchor}.json", anchor=bnn_hartmann_maps_optima()),
    params:
        map=config["map"],
        optima={key: BNN_HARTMANN_MAPS[key] for key in ("optima", "init_std")},
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        code=script_code("map_optima.py", "optimize.map_optima", "optimize.anchors", "pipeline.posteriors"),
    log:
        "logs/map/{posterior}/optima.log",
    benchmark:
        "logs/benchmarks/map/{posterior}/optima.tsv"
    resources:
        mem_mb=2000,
        runtime=60,
        **gpu_resources(),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/map_optima.py"


# The generic approximation script at anchor optimum<k>.
rule approximate_optimum:
    input:
        data=prepared_data,
        map="results/map/{posterior}/{anchor}.npz",
    output:
        # The figures read one repetition per optimum (seed0): one job per requested repetition,
        # as one-element lists, the form approximate.py reads.
        npz=["results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.npz"],
        json=["results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.json"],
    params:
        approximation=bnn_hartmann_maps_approximation,
        model=bnn_hartmann_maps_model,
        seed=config["seed"],
        device=config["device"],
        compile=lambda wildcards: compile_effort(wildcards, "approximate"),
        repetitions=lambda wildcards: [int(wildcards.seed)],
        code=method_code,
    log:
        "logs/approximation/{posterior}/{anchor}/{method}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/approximation/{posterior}/{anchor}/{method}/seed{seed}.tsv"
    wildcard_constraints:
        anchor=r"optimum\d+",
    resources:
        mem_mb=4000,
        runtime=120,
        **gpu_resources(),
    threads: 1
    conda:
        ENV
    script:
        "../scripts/approximate.py"


# The generic prediction script: function samples of one optimum's approximation on the grid.
rule predict_optimum:
    input:
        data=prepared_data,
        draws=["results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.npz"],
        record=["results/approximation/{posterior}/{anchor}/{method}/seed{seed}/samples.json"],
    output:
        npz=["results/prediction/{posterior}/{anchor,optimum\d+}/{method}/seed{seed}.npz"],
        json=["results/prediction/{posterior}/{anchor,optimum\d+}/{method}/seed{seed}.json"],
    params:
        model=model_options,
        samples=BNN_HARTMANN_MAPS["samples"],
        seed=config["seed"],
        code=lambda wildcards: script_code("predict_network.py",
                                           "networks.predictive", "metrics.predictive", f"methods.{wildcards.method}",
                                           "pipeline.posteriors"),
    log:
        "logs/prediction/{posterior}/{anchor}/{method}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/prediction/{posterior}/{anchor}/{method}/seed{seed}.tsv"
    resources:
        mem_mb=2000,
        runtime=10,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/predict_network.py"


# The numbers of Figs. 6-7: per method the pairwise W2 across optima per input x and its summary;
# the optima's objectives and distances (tidy records: results/summary/bnn_hartmann_maps.csv, tables
# bnn_hartmann_map_w2 / bnn_hartmann_map_optima of tables.yaml; arrays for the figures).
rule map_robustness:
    input:
        unpack(bnn_hartmann_maps_inputs),
    output:
        **bnn_hartmann_maps_robustness_files(),
    params:
        options=BNN_HARTMANN_MAPS,
        methods=BNN_HARTMANN_MAPS_METHODS,
        optima=BNN_HARTMANN_MAPS["optima"],
        posterior=bnn_hartmann_maps_posterior(),
        model=EXPERIMENTS["bnn_hartmann"],
        code=script_code("map_robustness.py",
                         "metrics.map_robustness", "metrics.predictive", "networks.predictive", "pipeline.posteriors"),
    log:
        "logs/map_robustness/bnn_hartmann_maps.log",
    benchmark:
        "logs/benchmarks/map_robustness/bnn_hartmann_maps.tsv"
    resources:
        mem_mb=2000,
        runtime=30,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/map_robustness.py"


# Fig. 6 (LA and WG predictive per optimum) and Fig. 7 (pairwise W2 across optima vs x).
rule figure_bnn_hartmann_maps:
    input:
        unpack(bnn_hartmann_maps_inputs),
        **bnn_hartmann_maps_robustness_files(),
    output:
        maps="figures/bnn_hartmann_maps.pdf",
        w2="figures/bnn_hartmann_map_w2.pdf",
    params:
        methods=BNN_HARTMANN_MAPS_METHODS,
        optima=BNN_HARTMANN_MAPS["optima"],
        code=script_code("figure_bnn_hartmann_maps.py",
                         "report.bnn_map_robustness", "report.bnn_pushforward_figures", "report.bnn_panels"),
    log:
        "logs/report/bnn_hartmann_maps.log",
    benchmark:
        "logs/benchmarks/report/bnn_hartmann_maps.tsv"
    conda:
        ENV
    script:
        "../scripts/figure_bnn_hartmann_maps.py"
