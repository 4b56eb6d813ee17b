# Yu et al. (2023), Sec. 4.3: SGRLD samplers on MNIST with 784-N-N-10 ReLU networks under a Gaussian or a
# horseshoe prior. Per (width, prior) x sampler x grid point (learning rate, Monge's alpha^2) x seed one chain
# (rule yu2023_mnist_chain); per (width, prior) x sampler the selection on validation LP (rule
# yu2023_mnist_select: the tidy rows with anchor "selected"); Tables 1, 2, 4, 8, 10 are entries of
# workflow/resources/tables.yaml over results/summary/yu2023_mnist.csv, Fig. 3 per (width, prior).
# Config: experiments.yu2023_mnist (its `grid` is Table 4's values at the small scales, the paper's grid at
# paper scale).

include: "yu2023_mnist_common.smk"


rule prepare_mnist_yu2023:
    input:
        raw=[f"data/raw/mnist/{name}" for name in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
                                                   "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")],
    output:
        "data/prepared/yu2023_mnist/mnist.npz",
    params:
        data=YU2023_MNIST["data"],
        code=code_digest("data.mnist_yu2023"),
    log:
        "logs/prepare/yu2023_mnist.log",
    benchmark:
        "logs/benchmarks/prepare/yu2023_mnist.tsv"
    resources:
        mem_mb=3000,
        runtime=10,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_mnist_yu2023.py"


rule yu2023_mnist_chain:
    input:
        data="data/prepared/yu2023_mnist/mnist.npz",
    output:
        json="results/yu2023_mnist/chain/{posterior}/{sampler}/{point}/seed{seed}.json",
        npz="results/yu2023_mnist/chain/{posterior}/{sampler}/{point}/seed{seed}.npz",
    params:
        experiment=YU2023_MNIST,
        point=lambda wildcards: YU2023_MNIST_POINTS[wildcards.posterior][wildcards.sampler][wildcards.point],
        seed=config["seed"],
        device=config["device"],
        code=lambda wildcards: code_digest(f"sgmcmc.{wildcards.sampler}", "pipeline.sgmcmc_classifier"),
    log:
        "logs/yu2023_mnist/chain/{posterior}/{sampler}/{point}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/yu2023_mnist/chain/{posterior}/{sampler}/{point}/seed{seed}.tsv"
    resources:
        mem_mb=6000,
        runtime=lambda wildcards: 20 + 3 * YU2023_MNIST["schedule"]["epochs"],
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        posterior=r"n\d+_[a-z]+-mlp",
        sampler="|".join(YU2023_MNIST["samplers"]) or "-",
        point=r"lr[0-9.e+-]+(_a[0-9.e+-]+)?",
        seed=r"\d+",
    conda:
        ENV
    script:
        "../scripts/yu2023_mnist_chain.py"


rule yu2023_mnist_select:
    input:
        records=lambda wildcards: yu2023_mnist_chain_files(wildcards.posterior, wildcards.sampler, "json"),
        curves=lambda wildcards: yu2023_mnist_chain_files(wildcards.posterior, wildcards.sampler, "npz"),
    output:
        json="results/yu2023_mnist/selected/{posterior}/{sampler}.json",
        npz="results/figure_data/yu2023_mnist/{posterior}/{sampler}.npz",
    params:
        code=code_digest("sgmcmc.selection"),
    log:
        "logs/yu2023_mnist/selected/{posterior}/{sampler}.log",
    benchmark:
        "logs/benchmarks/yu2023_mnist/selected/{posterior}/{sampler}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    wildcard_constraints:
        posterior=r"n\d+_[a-z]+-mlp",
        sampler="|".join(YU2023_MNIST["samplers"]) or "-",
    conda:
        ENV
    script:
        "../scripts/yu2023_mnist_select.py"


# Tables 6: equal wall time (App. A.6), every sampler re-selected at the fastest one's whole-run time.
rule yu2023_mnist_equal_time:
    input:
        records=lambda wildcards: yu2023_mnist_posterior_chains(wildcards.posterior, "json"),
        curves=lambda wildcards: yu2023_mnist_posterior_chains(wildcards.posterior, "npz"),
    output:
        "results/yu2023_mnist/equal_time/{posterior}.json",
    params:
        epochs=YU2023_MNIST["schedule"]["epochs"],
        code=code_digest("sgmcmc.equal_time"),
    log:
        "logs/yu2023_mnist/equal_time/{posterior}.log",
    benchmark:
        "logs/benchmarks/yu2023_mnist/equal_time/{posterior}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    wildcard_constraints:
        posterior=r"n\d+_[a-z]+-mlp",
    conda:
        ENV
    script:
        "../scripts/yu2023_mnist_equal_time.py"


rule figure_yu2023_mnist_convergence:
    input:
        curves=lambda wildcards: [f"results/figure_data/yu2023_mnist/{wildcards.posterior}/{sampler}.npz"
                                  for sampler in YU2023_MNIST_POINTS[wildcards.posterior]],
    output:
        pdf="figures/yu2023_convergence_{posterior}.pdf",
        png="figures/yu2023_convergence_{posterior}.png",
    params:
        samplers=lambda wildcards: list(YU2023_MNIST_POINTS[wildcards.posterior]),
        code=code_digest("report.yu2023_mnist_figures", "report.figures"),
    log:
        "logs/report/figure_yu2023_convergence_{posterior}.log",
    benchmark:
        "logs/benchmarks/report/figure_yu2023_convergence_{posterior}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    wildcard_constraints:
        posterior=r"n\d+_[a-z]+-mlp",
    conda:
        ENV
    script:
        "../scripts/figure_yu2023_mnist_convergence.py"


# Fig. 4: Monge's alpha^2 sweep, each alpha^2 at its validation-best learning rate, beside the other samplers.
rule figure_yu2023_alpha_sweep:
    input:
        monge=lambda wildcards: yu2023_mnist_chain_files(wildcards.posterior, "monge", "json"),
        selected=lambda wildcards: [f"results/yu2023_mnist/selected/{wildcards.posterior}/{sampler}.json"
                                    for sampler in YU2023_MNIST_POINTS[wildcards.posterior]],
    output:
        pdf="figures/yu2023_alpha_sweep_{posterior}.pdf",
        png="figures/yu2023_alpha_sweep_{posterior}.png",
    params:
        code=code_digest("sgmcmc.selection", "report.curve_panels", "report.yu2023_mnist_figures", "report.figures"),
    log:
        "logs/report/figure_yu2023_alpha_sweep_{posterior}.log",
    benchmark:
        "logs/benchmarks/report/figure_yu2023_alpha_sweep_{posterior}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    wildcard_constraints:
        posterior=r"n\d+_[a-z]+-mlp",
    conda:
        ENV
    script:
        "../scripts/figure_yu2023_alpha_sweep.py"

