# Tables and figures of the logistic-regression experiment (Yu et al. 2024, Table 2).


rule summarise_logreg:
    input:
        evaluations=evaluations(logreg_posteriors(), LOGREG["methods"]),
    output:
        "results/summary/logreg.csv",
    log:
        "logs/report/summarise_logreg.log",
    benchmark:
        "logs/benchmarks/report/summarise_logreg.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/summarise_logreg.py"


rule table_logreg:
    input:
        summary="results/summary/logreg.csv",
        paper=str(REPO / "workflow/resources/paper_values/yu2024_table2.csv"),
        code=library_closure("report.logreg_table", "report.paper_values"),
    output:
        tex="tables/logreg.tex",
        csv="tables/logreg.csv",
        comparison_tex="tables/logreg_vs_paper.tex",
        comparison_csv="tables/logreg_vs_paper.csv",
    params:
        methods=LOGREG["methods"],
        scale=lambda wildcards: {
            "samples": config["approximation"]["samples"],
            "repetitions": config["approximation"]["repetitions"],
            "reference_draws": reference_draws(),
        },
    log:
        "logs/report/table_logreg.log",
    benchmark:
        "logs/benchmarks/report/table_logreg.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/table_logreg.py"


rule figure_logreg:
    input:
        summary="results/summary/logreg.csv",
        paper=str(REPO / "workflow/resources/paper_values/yu2024_table2.csv"),
        code=library_closure("report.figures", "report.logreg_table", "report.paper_values"),
    output:
        pdf=report("figures/logreg.pdf", caption="../report/logreg.rst", category="Logistic regression"),
        png="figures/logreg.png",
    params:
        methods=LOGREG["methods"],
    log:
        "logs/report/figure_logreg.log",
    benchmark:
        "logs/benchmarks/report/figure_logreg.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_logreg.py"
