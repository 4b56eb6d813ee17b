# Liu & Zhu (2018), Sec. 5.1 and Fig. 1: Bayesian logistic regression, RSVGD with the Fisher metric vs SVGD,
# test accuracy along iterations. One job per panel x method x run (rule liu2018_blr_run); tidy rows in
# results/summary/liu2018_blr.csv (table liu2018_blr of workflow/resources/tables.yaml); Fig. 1 from the curves.
# Config: experiments.liu2018_blr.

include: "liu2018_blr_common.smk"


rule prepare_liu2018_blr:
    input:
        raw=lambda wildcards: f"data/raw/{liu2018_blr_raw(wildcards.data)}",
    output:
        "data/prepared/liu2018_blr/{data}_split{split}.npz",
    params:
        test_fraction=LIU2018_BLR["test_fraction"],
        code=script_code("prepare_liu2018_blr.py", "data.liu2018_blr"),
    log:
        "logs/prepare/liu2018_blr/{data}_split{split}.log",
    benchmark:
        "logs/benchmarks/prepare/liu2018_blr/{data}_split{split}.tsv"
    resources:
        mem_mb=4000,
        runtime=10,
    threads: 1
    wildcard_constraints:
        split=r"\d+",
    conda:
        ENV
    script:
        "../scripts/prepare_liu2018_blr.py"


rule liu2018_blr_run:
    input:
        data=lambda wildcards: liu2018_blr_split(wildcards.panel, int(wildcards.run)),
    output:
        json="results/liu2018_blr/{panel}/{method}/run{run}.json",
        npz="results/liu2018_blr/{panel}/{method}/run{run}.npz",
    params:
        experiment=LIU2018_BLR,
        data=lambda wildcards: liu2018_blr_panel_data(wildcards.panel),
        seed=config["seed"],
        device=config["device"],
        code=script_code("liu2018_blr_run.py", "svgd", "pipeline.liu2018_blr_run"),
    log:
        "logs/liu2018_blr/{panel}/{method}/run{run}.log",
    benchmark:
        "logs/benchmarks/liu2018_blr/{panel}/{method}/run{run}.tsv"
    resources:
        mem_mb=4000,
        runtime=120,
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        panel="|".join(LIU2018_BLR["panels"]) or "-",
        # the panels' named particle methods, not the registered approximation methods of the global constraint
        method="|".join(sorted({m for p in LIU2018_BLR["panels"].values() for m in p["methods"]})) or "-",
        run=r"\d+",
    conda:
        ENV
    script:
        "../scripts/liu2018_blr_run.py"


rule figure_liu2018_fig1:
    input:
        records=liu2018_blr_run_files("json"),
        curves=liu2018_blr_run_files("npz"),
    output:
        pdf="figures/liu2018_fig1.pdf",
        png="figures/liu2018_fig1.png",
    params:
        code=script_code("figure_liu2018_fig1.py", "report.curve_panels", "report.figures", "methods.labels"),
    log:
        "logs/report/figure_liu2018_fig1.log",
    benchmark:
        "logs/benchmarks/report/figure_liu2018_fig1.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_liu2018_fig1.py"
