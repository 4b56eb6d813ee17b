# Summaries, tables, figures and the reproduction report of Yu et al. (2024).
rule summarise:
    input:
        results=summary_inputs,
    output:
        "results/summary/{experiment}.csv",
    params:
        code=script_code("summarise.py", "report.tidy"),
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


rule summarise_all:
    input:
        summaries=expand("results/summary/{experiment}.csv", experiment=SUMMARISED_EXPERIMENTS),
    output:
        "results/summary/all.csv",
    params:
        code=script_code("concatenate_summaries.py", "report.tidy"),
    log:
        "logs/report/summarise_all.log",
    benchmark:
        "logs/benchmarks/report/summarise_all.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/concatenate_summaries.py"


# Any table of workflow/resources/tables.yaml: tables/<name>.{tex,md,csv}.
rule table:
    input:
        summaries=lambda wildcards: table_summaries(TABLES[wildcards.table]),
        paper=lambda wildcards: table_paper_files(TABLES[wildcards.table]),
        spec=TABLES_FILE,
    output:
        tex="tables/{table}.tex",
        md="tables/{table}.md",
        csv="tables/{table}.csv",
    params:
        scale=lambda wildcards: scale(),
        code=script_code("render_table.py", "report.tables", "report.paper_values"),
    log:
        "logs/report/table_{table}.log",
    benchmark:
        "logs/benchmarks/report/table_{table}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/render_table.py"


# A paper's reproduction report: its tables beside the paper's values, compared.
rule reproduction_report:
    input:
        summaries=lambda wildcards: sorted({s for t in REPORTS[wildcards.report]["tables"]
                                            for s in table_summaries(TABLES[t])}),
        paper=lambda wildcards: sorted({p for t in REPORTS[wildcards.report]["tables"]
                                        for p in table_paper_files(TABLES[t])}),
        deviations=lambda wildcards: str(REPO / "workflow" / "resources" / REPORTS[wildcards.report]["deviations"]),
        spec=TABLES_FILE,
        crosscheck=lambda wildcards: ["results/summary/reference_crosscheck.csv"] if crosscheck_posteriors() else [],
    output:
        "reports/{report}_reproduction.md",
    params:
        scale=lambda wildcards: scale(),
        code=script_code("render_report.py"),
    log:
        "logs/report/reproduction_report_{report}.log",
    benchmark:
        "logs/benchmarks/report/reproduction_report_{report}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/render_report.py"


rule figure_logreg:
    input:
        cells="tables/yu2024_table2.csv",
        spec=TABLES_FILE,
    output:
        pdf=report("figures/logreg.pdf", caption="../report/logreg.rst", category="Logistic regression"),
        png="figures/logreg.png",
    params:
        code=script_code("figure_logreg.py", "report.figures"),
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


rule figure_gaussian:
    input:
        summary="results/summary/gaussian.csv",
        samples=lambda wildcards: first_seed_samples("d2-gaussian", EXPERIMENTS["gaussian"]["anchors"][:1],
                                                     ["ela", "rla_b"]),
    output:
        marginals_pdf="figures/gaussian_2d.pdf",
        marginals_png="figures/gaussian_2d.png",
        bias_pdf="figures/gaussian_bias_vs_dimension.pdf",
        bias_png="figures/gaussian_bias_vs_dimension.png",
    params:
        code=script_code("figure_gaussian.py", "report.gaussian_figures", "report.figures"),
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


# The contours of a 2-D target: its log density on the window of its sample panels
# (geobayes.report.plot_windows), computed once here; the figures only draw.
rule target_density_grid:
    input:
        data=prepared_data,
    output:
        "results/figure_data/log_density_{posterior}.npz",
    params:
        model=model_options,
        code=script_code("target_density_grid.py",
                         "metrics.density_grid", "report.plot_windows", "pipeline.posteriors"),
    log:
        "logs/report/target_density_grid_{posterior}.log",
    benchmark:
        "logs/benchmarks/report/target_density_grid_{posterior}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/target_density_grid.py"


rule figure_target_samples:
    input:
        density="results/figure_data/log_density_{posterior}.npz",
        summary=lambda wildcards: f"results/summary/{experiment_of(wildcards.posterior)}.csv",
        samples=lambda wildcards: first_seed_samples(
            wildcards.posterior, EXPERIMENTS[experiment_of(wildcards.posterior)]["anchors"],
            posterior_methods(wildcards.posterior)),
    output:
        pdf="figures/samples_{posterior}.pdf",
        png="figures/samples_{posterior}.png",
    params:
        anchors=lambda wildcards: EXPERIMENTS[experiment_of(wildcards.posterior)]["anchors"],
        methods=lambda wildcards: posterior_methods(wildcards.posterior),
        code=script_code("figure_target_samples.py", "report.sample_panels", "report.figures", "report.plot_windows"),
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


# What Yu et al.'s (2024) banana Figs. 1 and 5 draw: the metric at the ellipse centres, RLA-F's
# Exp maps of 300 Gaussian points from the Hausdorff MAP, the distinct Euclidean maxima.
rule banana_figure_data:
    input:
        data="data/prepared/banana/yu2024.npz",
        euclidean_map="results/map/yu2024-banana/euclidean.npz",
        hausdorff_map="results/map/yu2024-banana/hausdorff.npz",
    output:
        "results/figure_data/banana_metric.npz",
    params:
        model=EXPERIMENTS["banana"],
        approximation=figure_method_settings("rla_f"),
        seed=config["seed"],
        code=script_code("banana_figure_data.py",
                         "metrics.density_grid", "report.plot_windows", "pipeline.posteriors", "methods.rla_f"),
    log:
        "logs/report/banana_figure_data.log",
    benchmark:
        "logs/benchmarks/report/banana_figure_data.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/banana_figure_data.py"


rule figure_banana:
    input:
        figure_data="results/figure_data/banana_metric.npz",
        density="results/figure_data/log_density_yu2024-banana.npz",
        euclidean_samples="results/approximation/yu2024-banana/euclidean/rla_f/seed0/samples.npz",
        hausdorff_samples="results/approximation/yu2024-banana/hausdorff/rla_f/seed0/samples.npz",
    output:
        metric_pdf="figures/banana_metric.pdf",
        metric_png="figures/banana_metric.png",
        anchors_pdf="figures/banana_map_anchors.pdf",
        anchors_png="figures/banana_map_anchors.png",
    params:
        code=script_code("figure_banana.py", "report.banana_figures", "report.figures", "report.plot_windows"),
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


rule figure_leaderboard:
    input:
        cells="tables/leaderboard.csv",
    output:
        pdf="figures/leaderboard.pdf",
        png="figures/leaderboard.png",
    params:
        code=script_code("figure_leaderboard.py", "report.leaderboard_figure", "report.figures"),
    log:
        "logs/report/figure_leaderboard.log",
    benchmark:
        "logs/benchmarks/report/figure_leaderboard.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_leaderboard.py"
