# Helpers of workflow/rules/bnn_scalability.smk (Yu et al. 2024, Supp. 16.5.3, Fig. 15): the
# grid of the scalability study from config key experiments.bnn_scalability.

SCALABILITY = EXPERIMENTS["bnn_scalability"]


def scalability_parameters(width):
    """Parameters of the [1, h, h, 1] network: h^2 + 4h + 1 (Yu et al. 2024, Supp. 16.5.3)."""
    width = int(width)
    return width * width + 4 * width + 1


def scalability_timing_files():
    """Every timing record of the grid: width x size x repetition x method."""
    return expand("results/bnn_scalability/timing/h{width}_n{size}_rep{repetition}/{method}.json",
                  width=SCALABILITY["widths"], size=SCALABILITY["sizes"],
                  repetition=range(SCALABILITY["repetitions"]), method=SCALABILITY["methods"])


SUMMARY_RECORDS["bnn_scalability"] = scalability_timing_files


def scalability_timing_mem_mb(wildcards):
    """Memory of one timing job: the batched RLA-F holds a (N x D) Jacobian and a D x D metric
    per sample of the batch (float64), plus a margin for the compiled solve."""
    samples, size = SCALABILITY["timing"]["batched_samples"], int(wildcards.size)
    dim = scalability_parameters(wildcards.width)
    return 2000 + 3 * 8 * samples * (size * dim + dim * dim) // 2**20


def bnn_scalability_targets():
    """The table and figure of Fig. 15 (rule all)."""
    return ["tables/yu2024_fig15.tex", "tables/yu2024_fig15.csv", "figures/bnn_scalability.pdf"]
