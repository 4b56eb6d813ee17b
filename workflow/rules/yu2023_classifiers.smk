# Yu et al. (2023), Secs. 4.3-4.4: SGRLD samplers on two classifier studies, {study} = yu2023_mnist (784-N-N-10
# ReLU networks under a Gaussian or a horseshoe prior) and yu2023_cifar (the Google ResNet-20 under an independent
# Gaussian or a correlated normal conv prior, its BatchNorm statistics trained along each chain). Per posterior
# x sampler x grid point (learning rate, Monge's alpha^2) x seed one chain (rule yu2023_chain); per posterior x
# sampler the selection on validation LP (rule yu2023_select: the tidy rows with anchor "selected"); per posterior
# the equal-time comparison (rule yu2023_equal_time). Tables 1, 2, 4, 6, 8, 10 (MNIST) and 3, 5, 7, 9 (CIFAR-10)
# are entries of workflow/resources/tables.yaml over results/summary/{study}.csv; Figs. 3-4 per MNIST posterior.
# Config: experiments.yu2023_mnist and experiments.yu2023_cifar (their `grid`: the tables' learning rates at the
# small scales, the paper's grids at paper scale).

include: "yu2023_classifiers_common.smk"


rule prepare_mnist_yu2023:
    input:
        raw=[f"data/raw/mnist/{name}" for name in ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
                                                   "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz")],
    output:
        "data/prepared/yu2023_mnist/mnist.npz",
    params:
        data=YU2023_MNIST["data"],
        code=script_code("prepare_mnist_yu2023.py", "data.mnist_yu2023"),
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


rule prepare_cifar10_yu2023:
    input:
        raw=f"data/raw/{CIFAR10_FILE}",
    output:
        "data/prepared/yu2023_cifar/cifar10.npz",
    params:
        data=EXPERIMENTS["yu2023_cifar"]["data"],
        code=script_code("prepare_cifar10_yu2023.py", "data.cifar10_yu2023"),
    log:
        "logs/prepare/yu2023_cifar.log",
    benchmark:
        "logs/benchmarks/prepare/yu2023_cifar.tsv"
    resources:
        mem_mb=8000,
        runtime=20,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/prepare_cifar10_yu2023.py"


rule yu2023_chain:
    input:
        data=lambda wildcards: YU2023_STUDIES[wildcards.study]["data"],
    output:
        json="results/{study}/chain/{posterior}/{sampler}/{point}/seed{seed}.json",
        npz="results/{study}/chain/{posterior}/{sampler}/{point}/seed{seed}.npz",
    params:
        experiment=lambda wildcards: EXPERIMENTS[wildcards.study],
        study=lambda wildcards: YU2023_STUDIES[wildcards.study],
        point=lambda wildcards: YU2023_POINTS[wildcards.study][wildcards.posterior][wildcards.sampler][wildcards.point],
        seed=config["seed"],
        device=config["device"],
        code=lambda wildcards: script_code("yu2023_classifier_chain.py",
                                           f"sgmcmc.{wildcards.sampler}", "pipeline.sgmcmc_classifier"),
    log:
        "logs/{study}/chain/{posterior}/{sampler}/{point}/seed{seed}.log",
    benchmark:
        "logs/benchmarks/{study}/chain/{posterior}/{sampler}/{point}/seed{seed}.tsv"
    resources:
        mem_mb=lambda wildcards: YU2023_STUDIES[wildcards.study]["mem_mb"],
        runtime=lambda wildcards: 20 + 3 * EXPERIMENTS[wildcards.study]["schedule"]["epochs"],
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        study="|".join(YU2023_STUDIES),
        posterior="|".join(options["pattern"] for options in YU2023_STUDIES.values()),
        sampler=YU2023_SAMPLERS,
        point=r"lr[0-9.e+-]+(_a[0-9.e+-]+)?",
        seed=r"\d+",
    conda:
        ENV
    script:
        "../scripts/yu2023_classifier_chain.py"


rule yu2023_select:
    input:
        records=lambda wildcards: yu2023_chain_files(wildcards.study, wildcards.posterior, wildcards.sampler, "json"),
        curves=lambda wildcards: yu2023_chain_files(wildcards.study, wildcards.posterior, wildcards.sampler, "npz"),
    output:
        json="results/{study}/selected/{posterior}/{sampler}.json",
        npz="results/figure_data/{study}/{posterior}/{sampler}.npz",
    params:
        code=script_code("yu2023_classifier_select.py", "sgmcmc.selection"),
    log:
        "logs/{study}/selected/{posterior}/{sampler}.log",
    benchmark:
        "logs/benchmarks/{study}/selected/{posterior}/{sampler}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    wildcard_constraints:
        study="|".join(YU2023_STUDIES),
        posterior="|".join(options["pattern"] for options in YU2023_STUDIES.values()),
        sampler=YU2023_SAMPLERS,
    conda:
        ENV
    script:
        "../scripts/yu2023_classifier_select.py"


# Tables 6 and 7: equal wall time (App. A.6), every sampler re-selected at the fastest one's whole-run time.
rule yu2023_equal_time:
    input:
        records=lambda wildcards: yu2023_posterior_chains(wildcards.study, wildcards.posterior, "json"),
        curves=lambda wildcards: yu2023_posterior_chains(wildcards.study, wildcards.posterior, "npz"),
    output:
        "results/{study}/equal_time/{posterior}.json",
    params:
        epochs=lambda wildcards: EXPERIMENTS[wildcards.study]["schedule"]["epochs"],
        code=script_code("yu2023_classifier_equal_time.py", "sgmcmc.equal_time"),
    log:
        "logs/{study}/equal_time/{posterior}.log",
    benchmark:
        "logs/benchmarks/{study}/equal_time/{posterior}.tsv"
    resources:
        mem_mb=1000,
        runtime=5,
    threads: 1
    wildcard_constraints:
        study="|".join(YU2023_STUDIES),
        posterior="|".join(options["pattern"] for options in YU2023_STUDIES.values()),
    conda:
        ENV
    script:
        "../scripts/yu2023_classifier_equal_time.py"


rule figure_yu2023_mnist_convergence:
    input:
        curves=lambda wildcards: [f"results/figure_data/yu2023_mnist/{wildcards.posterior}/{sampler}.npz"
                                  for sampler in YU2023_MNIST_POINTS[wildcards.posterior]],
    output:
        pdf="figures/yu2023_convergence_{posterior}.pdf",
        png="figures/yu2023_convergence_{posterior}.png",
    params:
        samplers=lambda wildcards: list(YU2023_MNIST_POINTS[wildcards.posterior]),
        code=script_code("figure_yu2023_mnist_convergence.py", "report.yu2023_mnist_figures", "report.figures"),
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
        monge=lambda wildcards: yu2023_chain_files("yu2023_mnist", wildcards.posterior, "monge", "json"),
        selected=lambda wildcards: [f"results/yu2023_mnist/selected/{wildcards.posterior}/{sampler}.json"
                                    for sampler in YU2023_MNIST_POINTS[wildcards.posterior]],
    output:
        pdf="figures/yu2023_alpha_sweep_{posterior}.pdf",
        png="figures/yu2023_alpha_sweep_{posterior}.png",
    params:
        code=script_code("figure_yu2023_alpha_sweep.py",
                         "sgmcmc.selection", "report.curve_panels", "report.yu2023_mnist_figures", "report.figures"),
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

