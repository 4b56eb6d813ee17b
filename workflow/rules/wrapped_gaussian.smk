# Hartmann et al. (2026), closed-form wrapped Gaussians: data, timing and figures. MAP, NUTS
# reference, approximations and evaluation are the shared rules; the tables and the reproduction
# report are entries of workflow/resources/tables.yaml (rules `table` and `reproduction_report`).

rule prepare_glm:
    input:
        raw="data/raw/logreg/{dataset}.npy",
    output:
        "data/prepared/glm/{dataset}_{kind}.npz",
    params:
        glm=GLM,
        seed=config["seed"],
        code=script_code("prepare_glm.py", "data.glm_subsets", "data.logreg", "random"),
    wildcard_constraints:
        kind="regression|gp",
    log:
        "logs/prepare/glm/{dataset}_{kind}.log",
    benchmark:
        "logs/benchmarks/prepare/glm/{dataset}_{kind}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_glm.py"


rule prepare_synthetic:
    output:
        "data/prepared/synthetic/n{n}_{model}.npz",
    params:
        synthetic=EXPERIMENTS["synthetic"],
        seed=config["seed"],
        code=script_code("prepare_synthetic.py", "data.synthetic_regression", "random"),
    wildcard_constraints:
        n=r"\d+",
        model="synthbern|synthpois",
    log:
        "logs/prepare/synthetic/n{n}_{model}.log",
    benchmark:
        "logs/benchmarks/prepare/synthetic/n{n}_{model}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_synthetic.py"


rule prepare_usps:
    input:
        raw="data/raw/usps/zip.train.gz",
    output:
        f"data/prepared/usps/{usps_posterior().split('-')[0]}.npz",
    params:
        usps=EXPERIMENTS["usps"],
        seed=config["seed"],
        code=script_code("prepare_usps.py", "data.usps", "random"),
    log:
        "logs/prepare/usps.log",
    benchmark:
        "logs/benchmarks/prepare/usps.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_usps.py"


rule prepare_growth:
    input:
        raw=hartmann_data_file,
    output:
        "data/prepared/growth/sharp2022.npz",
    params:
        file=EXPERIMENTS["growth"]["file"],
        code=script_code("prepare_growth.py", "data.logistic_growth"),
    log:
        "logs/prepare/growth.log",
    benchmark:
        "logs/benchmarks/prepare/growth.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_growth.py"


rule prepare_lingauss:
    output:
        "data/prepared/lingauss/hartmann.npz",
    params:
        lingauss=EXPERIMENTS["lingauss"],
        seed=config["seed"],
        code=script_code("prepare_lingauss.py", "data.linear_gaussian", "random"),
    log:
        "logs/prepare/lingauss.log",
    benchmark:
        "logs/benchmarks/prepare/lingauss.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_lingauss.py"


# WG vs LA vs RLA-F vs NUTS at equal sample counts, in one process (the paper's speed claim).
rule time_wg:
    input:
        data=prepared_data,
        map="results/map/{posterior}/euclidean.npz",
    output:
        "results/timing_wg/{posterior}.json",
    params:
        timing=WG_TIMING,
        approximation=lambda wildcards: {m: method_settings(m) for m in WG_TIMING["methods"]},
        reference=reference_settings,
        model=model_options,
        seed=config["seed"],
        device=config["device"],
        code=script_code("time_wg.py", *[f"methods.{m}" for m in WG_TIMING["methods"]]),
    log:
        "logs/timing_wg/{posterior}.log",
    benchmark:
        "logs/benchmarks/timing_wg/{posterior}.tsv"
    resources:
        mem_mb=4000,
        runtime=240,
        **gpu_resources(),
    threads: config["timing_threads"]
    conda:
        ENV
    script:
        "../scripts/time_wg.py"


# Figs. 1 and 3: contours of the true posterior, WG and LA on a grid.
rule contour_grids:
    input:
        unpack(lambda wildcards: contour_inputs(synthetic_posteriors if wildcards.figure == "synthetic"
                                                else shape_posteriors)(wildcards)),
    output:
        "results/figure_data/wg_{figure}.npz",
    params:
        posteriors=lambda wildcards: synthetic_posteriors() if wildcards.figure == "synthetic" else shape_posteriors(),
        options=lambda wildcards: {p: EXPERIMENTS[experiment_of(p)] for p in
                                   (synthetic_posteriors() if wildcards.figure == "synthetic" else shape_posteriors())},
        approximation={"ela": figure_method_settings("ela"), "wg": figure_method_settings("wg")},
        code=script_code("contour_grids.py",
                         "metrics.contour_grids", "methods.wg", "methods.ela", "pipeline.posteriors",
                         "report.wg_contours"),
    wildcard_constraints:
        figure="synthetic|shapes",
    log:
        "logs/report/contour_grids_{figure}.log",
    benchmark:
        "logs/benchmarks/report/contour_grids_{figure}.tsv"
    resources:
        mem_mb=2000,
        runtime=30,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/contour_grids.py"


rule figure_wg_contours:
    input:
        grids="results/figure_data/wg_{figure}.npz",
    output:
        pdf="figures/wg_{figure}.pdf",
        png="figures/wg_{figure}.png",
    params:
        code=script_code("figure_wg_contours.py", "report.wg_contours", "metrics.contour_grids"),
    wildcard_constraints:
        figure="synthetic|shapes",
    log:
        "logs/report/figure_wg_{figure}.log",
    benchmark:
        "logs/benchmarks/report/figure_wg_{figure}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_wg_contours.py"


# Figs. 2 and 4: scatter panels of WG, NUTS and LA samples with the MAP.
rule figure_wg_scatter:
    input:
        wg=lambda wildcards: f"results/approximation/{scatter_posterior(wildcards.figure)}/euclidean/wg/seed0/samples.npz",
        la=lambda wildcards: f"results/approximation/{scatter_posterior(wildcards.figure)}/euclidean/ela/seed0/samples.npz",
        reference=lambda wildcards: f"results/reference/{scatter_posterior(wildcards.figure)}/nuts.npz",
        summary=lambda wildcards: f"results/summary/{experiment_of(scatter_posterior(wildcards.figure))}.csv",
    output:
        pdf="figures/wg_{figure}.pdf",
        png="figures/wg_{figure}.png",
    params:
        posterior=lambda wildcards: scatter_posterior(wildcards.figure),
        code=script_code("figure_wg_scatter.py", "report.wg_scatter", "report.tidy"),
    wildcard_constraints:
        figure="usps|growth",
    log:
        "logs/report/figure_wg_{figure}.log",
    benchmark:
        "logs/benchmarks/report/figure_wg_{figure}.tsv"
    resources:
        mem_mb=1000,
        runtime=10,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_wg_scatter.py"
