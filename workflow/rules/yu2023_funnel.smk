# Yu et al. (2023), Sec. 4.2 and Figs. 1-2: SGRLD on the softplus funnel with noisy exact gradients.
# Per sampler x repetition one chain (rule yu2023_funnel_chain), its W1 per marginal to exact draws
# (a check the paper lacks; tidy rows in results/summary/yu2023_funnel.csv, table yu2023_funnel in
# workflow/resources/tables.yaml); Fig. 1 (Monge geodesics) and Fig. 2 (the chains' draws).
# Config: experiments.yu2023_funnel.

include: "yu2023_funnel_common.smk"


rule yu2023_funnel_chain:
    output:
        json="results/yu2023_funnel/chain/{sampler}/rep{repetition}.json",
        npz="results/yu2023_funnel/chain/{sampler}/rep{repetition}.npz",
    params:
        experiment=YU2023_FUNNEL,
        seed=config["seed"],
        code=lambda wildcards: script_code("yu2023_funnel_chain.py",
                                           f"sgmcmc.{wildcards.sampler}", "sgmcmc.target_chain", "sgmcmc.registry",
                                           "targets.softplus_funnel", "metrics.wasserstein"),
    log:
        "logs/yu2023_funnel/chain/{sampler}/rep{repetition}.log",
    benchmark:
        "logs/benchmarks/yu2023_funnel/chain/{sampler}/rep{repetition}.tsv"
    resources:
        # every position is kept: (steps x 2) float64 and the exact draws beside it
        mem_mb=lambda wildcards: 1000 + 6 * 16 * int(YU2023_FUNNEL["steps"]) // 2**20,
        runtime=60,
    threads: 1
    wildcard_constraints:
        sampler="|".join(YU2023_FUNNEL["samplers"]) or "-",
        repetition=r"\d+",
    conda:
        ENV
    script:
        "../scripts/yu2023_funnel_chain.py"


rule yu2023_funnel_geodesics:
    output:
        npz="results/figure_data/yu2023_funnel_geodesics.npz",
        json="results/yu2023_funnel/geodesics.json",
    params:
        experiment=YU2023_FUNNEL,
        code=script_code("yu2023_funnel_geodesics.py",
                         "geometry.geodesic_paths", "geometry.monge", "targets.softplus_funnel",
                         "metrics.density_grid", "report.plot_windows"),
    log:
        "logs/yu2023_funnel/geodesics.log",
    benchmark:
        "logs/benchmarks/yu2023_funnel/geodesics.tsv"
    resources:
        mem_mb=1000,
        runtime=30,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/yu2023_funnel_geodesics.py"


rule figure_yu2023_funnel_geodesics:
    input:
        figure_data="results/figure_data/yu2023_funnel_geodesics.npz",
    output:
        pdf="figures/yu2023_funnel_geodesics.pdf",
        png="figures/yu2023_funnel_geodesics.png",
    params:
        code=script_code("figure_yu2023_funnel_geodesics.py",
                         "report.yu2023_funnel_figures", "report.figures", "report.plot_windows"),
    log:
        "logs/report/figure_yu2023_funnel_geodesics.log",
    benchmark:
        "logs/benchmarks/report/figure_yu2023_funnel_geodesics.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_yu2023_funnel_geodesics.py"


# Fig. 2: the paper's four metrics (those configured, in the paper's order), repetition 0.
rule figure_yu2023_funnel_samples:
    input:
        figure_data="results/figure_data/yu2023_funnel_geodesics.npz",
        draws=expand("results/yu2023_funnel/chain/{sampler}/rep0.npz", sampler=list(YU2023_FUNNEL["samplers"])),
        records=expand("results/yu2023_funnel/chain/{sampler}/rep0.json", sampler=list(YU2023_FUNNEL["samplers"])),
    output:
        pdf="figures/yu2023_funnel_samples.pdf",
        png="figures/yu2023_funnel_samples.png",
    params:
        variance=YU2023_FUNNEL["target"]["variance"],
        code=script_code("figure_yu2023_funnel_samples.py",
                         "report.yu2023_funnel_figures", "report.figures", "report.plot_windows"),
    log:
        "logs/report/figure_yu2023_funnel_samples.log",
    benchmark:
        "logs/benchmarks/report/figure_yu2023_funnel_samples.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_yu2023_funnel_samples.py"
