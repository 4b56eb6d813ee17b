# Liu & Zhu (2018), Sec. 5.2 and Fig. 2: the spherical admixture model on 20News-different, RSVGD on the product of
# spheres vs geodesic Monte Carlo (GMC) and stochastic-gradient GMC (SGGMC, full batch f and mini-batch b), each
# MCMC in -seq and -par modes; test log-perplexity along epochs. One job per method x particle count x seed (rule
# liu2018_sam_run); tidy rows in results/summary/liu2018_sam.csv (table liu2018_sam); Fig. 2a (curves at
# figure_particles) and 2b (the last epoch against the particle count). Config: experiments.liu2018_sam.

include: "liu2018_sam_common.smk"


rule prepare_liu2018_sam:
    input:
        train="data/raw/20news_diff/diff.train.tfidf1.data",
        test="data/raw/20news_diff/diff.test.tfidf1.data",
    output:
        "data/prepared/liu2018_sam/news20_diff.npz",
    params:
        documents=LIU2018_SAM["documents"],
        seed=config["seed"],
        code=script_code("prepare_liu2018_sam.py", "data.news20_tfidf"),
    log:
        "logs/prepare/liu2018_sam/news20_diff.log",
    benchmark:
        "logs/benchmarks/prepare/liu2018_sam/news20_diff.tsv"
    resources:
        mem_mb=2000,
        runtime=10,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_liu2018_sam.py"


rule liu2018_sam_run:
    input:
        data="data/prepared/liu2018_sam/news20_diff.npz",
    output:
        json="results/liu2018_sam/{method}/n{particles}/seed{seed}.json",
        npz="results/liu2018_sam/{method}/n{particles}/seed{seed}.npz",
    params:
        experiment=LIU2018_SAM,
        seed=config["seed"],
        device=config["device"],
        code=script_code("liu2018_sam_run.py", "sam", "spheres", "pipeline.liu2018_sam_run"),
    log:
        "logs/liu2018_sam/{method}/n{particles}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/liu2018_sam/{method}/n{particles}/seed{seed}.tsv"
    resources:
        mem_mb=lambda wildcards: 2000 + 2 * int(wildcards.particles) * 5000 * LIU2018_SAM["topics"] * 8 // 2**20,
        runtime=lambda wildcards: 10 + LIU2018_SAM["epochs"] * max(1, int(wildcards.particles) // 10),
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        method="|".join(LIU2018_SAM_RUN),
        particles=r"\d+",
        seed=r"\d+",
    conda:
        ENV
    script:
        "../scripts/liu2018_sam_run.py"


rule figure_liu2018_fig2:
    input:
        records=liu2018_sam_run_files("json"),
        curves=liu2018_sam_run_files("npz"),
    output:
        pdf="figures/liu2018_fig2.pdf",
        png="figures/liu2018_fig2.png",
    params:
        figure_particles=LIU2018_SAM["figure_particles"],
        code=script_code("figure_liu2018_fig2.py", "report.curve_panels", "report.figures", "methods.labels"),
    log:
        "logs/report/figure_liu2018_fig2.log",
    benchmark:
        "logs/benchmarks/report/figure_liu2018_fig2.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_liu2018_fig2.py"
