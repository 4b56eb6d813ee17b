# Summaries, tables, figures and the reproduction report of Yu et al. (2024).
rule summarise:
    input:
        evaluations=summary_inputs,
    output:
        "results/summary/{experiment}.csv",
    log:
        "logs/report/summarise_{experiment}.log",
    benchmark:
        "logs/benchmarks/report/summarise_{experiment}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/summarise.py"


# Table 2 (logistic regression) and Table 6 (empirical Fisher) share one script.
rule table_logreg:
    input:
        summary="results/summary/logreg.csv",
        paper=str(PAPER_VALUES / "yu2024_table2.csv"),
        code=library_closure("report.logreg_table", "report.paper_values"),
    output:
        tex="tables/logreg.tex",
        csv="tables/logreg.csv",
        comparison_tex="tables/logreg_vs_paper.tex",
        comparison_csv="tables/logreg_vs_paper.csv",
    params:
        methods=LOGREG["methods"],
        anchor=LOGREG["anchors"][0],
        scale=lambda wildcards: scale(),
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


rule table_empirical_fisher:
    input:
        summary="results/summary/logreg.csv",
        paper=str(PAPER_VALUES / "yu2024_table6.csv"),
        code=library_closure("report.logreg_table", "report.paper_values"),
    output:
        tex="tables/empirical_fisher.tex",
        csv="tables/empirical_fisher.csv",
        comparison_tex="tables/empirical_fisher_vs_paper.tex",
        comparison_csv="tables/empirical_fisher_vs_paper.csv",
    params:
        methods=["rla_ef"],
        anchor=LOGREG["anchors"][0],
        scale=lambda wildcards: scale(),
    log:
        "logs/report/table_empirical_fisher.log",
    benchmark:
        "logs/benchmarks/report/table_empirical_fisher.tsv"
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
        paper=str(PAPER_VALUES / "yu2024_table2.csv"),
        code=library_closure("report.figures", "report.logreg_table", "report.paper_values"),
    output:
        pdf=report("figures/logreg.pdf", caption="../report/logreg.rst", category="Logistic regression"),
        png="figures/logreg.png",
    params:
        methods=LOGREG["methods"],
        anchor=LOGREG["anchors"][0],
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


rule table_timing:
    input:
        timings=timing_files(),
        paper=str(PAPER_VALUES / "yu2024_table4.csv"),
        code=library_closure("report.timing_table", "report.paper_values"),
    output:
        tex="tables/timing.tex",
        csv="tables/timing.csv",
    log:
        "logs/report/table_timing.log",
    benchmark:
        "logs/benchmarks/report/table_timing.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/table_timing.py"


rule table_banana:
    input:
        summary="results/summary/banana.csv",
        paper=str(PAPER_VALUES / "yu2024_table1.csv"),
        code=library_closure("report.banana_table", "report.paper_values"),
    output:
        tex="tables/banana.tex",
        csv="tables/banana.csv",
    params:
        methods=EXPERIMENTS["banana"]["methods"],
        scale=lambda wildcards: {**scale(), "reference_draws": reference_draws("yu2024-banana")},
    log:
        "logs/report/table_banana.log",
    benchmark:
        "logs/benchmarks/report/table_banana.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/table_banana.py"


rule figure_gaussian:
    input:
        summary="results/summary/gaussian.csv",
        samples=lambda wildcards: first_seed_samples("d2-gaussian", EXPERIMENTS["gaussian"]["anchors"][:1],
                                                     ["ela", "rla_b"]),
        code=library_closure("report.gaussian_figures", "report.figures"),
    output:
        marginals_pdf="figures/gaussian_2d.pdf",
        marginals_png="figures/gaussian_2d.png",
        bias_pdf="figures/gaussian_bias_vs_dimension.pdf",
        bias_png="figures/gaussian_bias_vs_dimension.png",
    log:
        "logs/report/figure_gaussian.log",
    benchmark:
        "logs/benchmarks/report/figure_gaussian.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_gaussian.py"


rule figure_target_samples:
    input:
        data=prepared_data,
        summary=lambda wildcards: f"results/summary/{experiment_of(wildcards.posterior)}.csv",
        samples=lambda wildcards: first_seed_samples(
            wildcards.posterior, EXPERIMENTS[experiment_of(wildcards.posterior)]["anchors"],
            posterior_methods(wildcards.posterior)),
        code=library_closure("report.sample_panels", "report.density_grid", "report.figures",
                             "pipeline.posteriors"),
    output:
        pdf="figures/samples_{posterior}.pdf",
        png="figures/samples_{posterior}.png",
    params:
        model=model_options,
        anchors=lambda wildcards: EXPERIMENTS[experiment_of(wildcards.posterior)]["anchors"],
        methods=lambda wildcards: posterior_methods(wildcards.posterior),
    log:
        "logs/report/figure_samples_{posterior}.log",
    benchmark:
        "logs/benchmarks/report/figure_samples_{posterior}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_target_samples.py"


rule figure_banana:
    input:
        data="data/prepared/banana/yu2024.npz",
        euclidean_map="results/map/yu2024-banana/euclidean.npz",
        hausdorff_map="results/map/yu2024-banana/hausdorff.npz",
        euclidean_samples="results/approximation/yu2024-banana/euclidean/rla_f/seed0/samples.npz",
        hausdorff_samples="results/approximation/yu2024-banana/hausdorff/rla_f/seed0/samples.npz",
        code=library_closure("report.banana_figures", "report.figures", "pipeline.posteriors",
                             "methods.rla_f"),
    output:
        metric_pdf="figures/banana_metric.pdf",
        metric_png="figures/banana_metric.png",
        anchors_pdf="figures/banana_map_anchors.pdf",
        anchors_png="figures/banana_map_anchors.png",
    params:
        model=EXPERIMENTS["banana"],
        approximation=method_settings("rla_f"),
        seed=config["seed"],
    log:
        "logs/report/figure_banana.log",
    benchmark:
        "logs/benchmarks/report/figure_banana.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_banana.py"


rule reproduction_report:
    input:
        unpack(reproduction_inputs),
        code=library_closure("report.reproduction_report", "report.comparison", "report.paper_values"),
    output:
        "reports/yu2024_reproduction.md",
    params:
        scale=lambda wildcards: scale(),
        exact_draws=config["reference"]["exact_draws"],
        logreg_anchor=LOGREG["anchors"][0],
    log:
        "logs/report/reproduction_report.log",
    benchmark:
        "logs/benchmarks/report/reproduction_report.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/reproduction_report.py"
