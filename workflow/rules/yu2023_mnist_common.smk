# Helpers of workflow/rules/yu2023_mnist.smk (functions and config slices only, no rules).

from geobayes.pipeline.sgmcmc_grid import grid_point_label

YU2023_MNIST = EXPERIMENTS["yu2023_mnist"]


def yu2023_mnist_points():
    """posterior -> sampler -> grid point label -> the point (width, prior, learning rate, alpha2)."""
    points = {}
    for entry in YU2023_MNIST["grid"]:
        if entry["width"] not in YU2023_MNIST["widths"] or entry["prior"] not in YU2023_MNIST["priors"]:
            continue
        posterior = f"n{entry['width']}_{entry['prior']}-mlp"
        for learning_rate in entry["learning_rate"]:
            for alpha2 in entry["alpha2"] or [None]:
                label = grid_point_label(learning_rate, alpha2)
                points.setdefault(posterior, {}).setdefault(entry["sampler"], {})[label] = {
                    "width": entry["width"], "prior": entry["prior"], "learning_rate": learning_rate, "alpha2": alpha2}
    return points


YU2023_MNIST_POINTS = yu2023_mnist_points()


def yu2023_mnist_chain_files(posterior, sampler, suffix):
    """Every chain output of one (posterior, sampler): grid point x seed, in a fixed order."""
    return [f"results/yu2023_mnist/chain/{posterior}/{sampler}/{point}/seed{seed}.{suffix}"
            for point in YU2023_MNIST_POINTS[posterior][sampler] for seed in range(YU2023_MNIST["seeds"])]


def yu2023_mnist_records():
    """The records of the tidy summary: every chain and every selection."""
    files = []
    for posterior, samplers in YU2023_MNIST_POINTS.items():
        for sampler in samplers:
            files += yu2023_mnist_chain_files(posterior, sampler, "json")
            files.append(f"results/yu2023_mnist/selected/{posterior}/{sampler}.json")
        files.append(f"results/yu2023_mnist/equal_time/{posterior}.json")
    return files


def yu2023_mnist_posterior_chains(posterior, suffix):
    """Every chain output of one (width, prior): sampler x grid point x seed."""
    return [f for sampler in YU2023_MNIST_POINTS[posterior] for f in yu2023_mnist_chain_files(posterior, sampler, suffix)]


SUMMARY_RECORDS["yu2023_mnist"] = yu2023_mnist_records


def yu2023_mnist_targets():
    """Its tables, a Fig. 3 and a Fig. 4 per (width, prior) (rule all)."""
    tables = ["yu2023_table1", "yu2023_table2", "yu2023_table4", "yu2023_table6", "yu2023_table8"]
    if "n400_horseshoe-mlp" in YU2023_MNIST_POINTS:  # Table 10 is MNIST-400 with the horseshoe only
        tables.append("yu2023_table10")
    return ([f"tables/{name}.tex" for name in tables] + ["reports/yu2023_reproduction.md"]
            + [f"figures/yu2023_convergence_{posterior}.pdf" for posterior in YU2023_MNIST_POINTS]
            # Fig. 4 (the paper's: N = 400, horseshoe) wherever Monge runs
            + [f"figures/yu2023_alpha_sweep_{posterior}.pdf" for posterior, samplers in YU2023_MNIST_POINTS.items()
               if "monge" in samplers])
