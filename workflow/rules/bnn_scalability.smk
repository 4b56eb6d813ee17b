# Yu et al. (2024), Supp. 16.5.3 and Fig. 15: the BNN scalability study. [1, h, h, 1] tanh
# networks (D = h^2 + 4h + 1) on standardised sine data of N points; per width x size x
# repetition: simulate the data, train the MAP (Adam + the Laplace marginal likelihood, as the
# Snelson networks), time RLA-B and RLA-F (seconds per sample, one at a time as the paper and
# batched as the pipeline samples); their records are tidy rows (results/summary/bnn_scalability.csv),
# the table is the entry yu2024_fig15 of workflow/resources/tables.yaml, then Fig. 15 (median over repetitions).
# Config: experiments.bnn_scalability.

include: "bnn_scalability_common.smk"


# Synthetic sine data of one training-set size and repetition (shared by every width).
rule prepare_sine:
    output:
        "data/prepared/bnn_scalability/n{size}_rep{repetition}.npz",
    params:
        data=SCALABILITY["data"],
        seed=config["seed"],
        code=script_code("prepare_sine_scalability.py", "data.sine_regression"),
    log:
        "logs/prepare/bnn_scalability/n{size}_rep{repetition}.log",
    benchmark:
        "logs/benchmarks/prepare/bnn_scalability/n{size}_rep{repetition}.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    wildcard_constraints:
        size=r"\d+",
        repetition=r"\d+",
    conda:
        ENV
    script:
        "../scripts/prepare_sine_scalability.py"


# The MAP as the paper's code trains it (Adam, torch-style weight decay, MSE), then the prior
# precision and noise std by the Laplace marginal likelihood at the trained weights.
rule train_scalability_network:
    input:
        data="data/prepared/bnn_scalability/n{size}_rep{repetition}.npz",
    output:
        npz="results/bnn_scalability/network/h{width}_n{size}_rep{repetition}.npz",
        json="results/bnn_scalability/network/h{width}_n{size}_rep{repetition}.json",
    params:
        activation=SCALABILITY["activation"],
        training=SCALABILITY["training"],
        marginal_likelihood=SCALABILITY["marginal_likelihood"],
        seed=config["seed"],
        device=config["device"],
        code=script_code("train_scalability_network.py",
                         "optimize.train_network", "laplace.marginal_likelihood", "networks.mlp"),
    log:
        "logs/bnn_scalability/network/h{width}_n{size}_rep{repetition}.log",
    benchmark:
        "logs/benchmarks/bnn_scalability/network/h{width}_n{size}_rep{repetition}.tsv"
    resources:
        mem_mb=lambda wildcards: 2000 + 3 * 8 * int(wildcards.size) * scalability_parameters(wildcards.width) // 2**20,
        runtime=240,
        **gpu_resources(),
    threads: 1
    wildcard_constraints:
        width=r"\d+",
        size=r"\d+",
        repetition=r"\d+",
    conda:
        ENV
    script:
        "../scripts/train_scalability_network.py"


# Seconds per sample of one method at the trained weights: one sample at a time (the paper's
# protocol) and one batched call (how the pipeline samples), with failures and mean ODE steps.
# Two threads, like the paper's two cores and the Table 4 timings.
rule time_bnn_scalability:
    input:
        network="results/bnn_scalability/network/h{width}_n{size}_rep{repetition}.npz",
    output:
        "results/bnn_scalability/timing/h{width}_n{size}_rep{repetition}/{method}.json",
    params:
        approximation=lambda wildcards: method_settings(wildcards.method),
        precision=SCALABILITY["precision"],
        activation=SCALABILITY["activation"],
        timing=SCALABILITY["timing"],
        seed=config["seed"],
        device=config["device"],
        code=lambda wildcards: script_code("time_bnn_scalability.py",
                                           f"methods.{wildcards.method}", "metrics.sampling_time",
                                           "networks.network_models", "posterior"),
    log:
        "logs/bnn_scalability/timing/h{width}_n{size}_rep{repetition}/{method}.log",
    benchmark:
        "logs/benchmarks/bnn_scalability/timing/h{width}_n{size}_rep{repetition}/{method}.tsv"
    resources:
        mem_mb=scalability_timing_mem_mb,
        runtime=1440,
        **gpu_resources(),
    threads: config["timing_threads"]
    wildcard_constraints:
        width=r"\d+",
        size=r"\d+",
        repetition=r"\d+",
    conda:
        ENV
    script:
        "../scripts/time_bnn_scalability.py"


# Fig. 15: an example data set (left); seconds per sample vs N (log x), one line per
# (#parameters, method) (right).
rule figure_bnn_scalability:
    input:
        summary="results/summary/bnn_scalability.csv",
        # The paper's example plot draws 500 training points; else the smallest configured size.
        example=f"data/prepared/bnn_scalability/n{500 if 500 in SCALABILITY['sizes'] else min(SCALABILITY['sizes'])}_rep0.npz",
    output:
        pdf="figures/bnn_scalability.pdf",
        png="figures/bnn_scalability.png",
    params:
        code=script_code("figure_bnn_scalability.py", "report.bnn_scalability", "report.figures", "report.tidy"),
    log:
        "logs/report/bnn_scalability_figure.log",
    benchmark:
        "logs/benchmarks/report/bnn_scalability_figure.tsv"
    resources:
        mem_mb=500,
        runtime=5,
    threads: 1
    conda:
        ENV
    script:
        "../scripts/figure_bnn_scalability.py"
