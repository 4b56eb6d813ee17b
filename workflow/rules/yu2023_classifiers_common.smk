# Helpers of workflow/rules/yu2023_classifiers.smk (functions and config slices only, no rules): Yu et al.'s (2023)
# two classifier studies, MNIST (Sec. 4.3, experiments.yu2023_mnist) and CIFAR-10 (Sec. 4.4,
# experiments.yu2023_cifar), one chain/selection/equal-time shape over both.

from geobayes.data.cifar10_yu2023 import CIFAR10_FILE, CIFAR10_YU2023
from geobayes.data.mnist_yu2023 import MNIST_YU2023
from geobayes.pipeline.sgmcmc_grid import grid_point_label

#: Per study: its network (geobayes.pipeline.sgmcmc_networks), prepared file and data set, the posterior name of a
#: grid entry, the posterior wildcard's pattern, the raw files it needs (a study whose files a mirror lacks runs
#: nothing and its tables are listed as not run), its tables and a chain's memory.
YU2023_STUDIES = {
    "yu2023_mnist": {"network": "mlp", "data": "data/prepared/yu2023_mnist/mnist.npz", "dataset": MNIST_YU2023.name,
                     "posterior": "n{width}_{prior}-mlp", "pattern": r"n\d+_[a-z]+-mlp", "raw": [],
                     "tables": ["yu2023_table1", "yu2023_table2", "yu2023_table4", "yu2023_table6", "yu2023_table8"],
                     "mem_mb": 6000},
    "yu2023_cifar": {"network": "resnet20", "data": "data/prepared/yu2023_cifar/cifar10.npz",
                     "dataset": CIFAR10_YU2023.name, "posterior": "{prior}-resnet20", "pattern": r"[a-z]+-resnet20",
                     "raw": [CIFAR10_FILE],
                     "tables": ["yu2023_table3", "yu2023_table5", "yu2023_table7", "yu2023_table9"],
                     "mem_mb": 16000},
}
YU2023_MNIST = EXPERIMENTS["yu2023_mnist"]
#: The samplers of either study (the chain rules' wildcard pattern).
YU2023_SAMPLERS = "|".join(sorted({s for study in YU2023_STUDIES for s in EXPERIMENTS[study]["samplers"]})) or "-"


def yu2023_points(study):
    """posterior -> sampler -> grid point label -> the point (width, prior, learning rate, alpha2) of one study;
    none where the study's raw files are unavailable offline."""
    experiment, options = EXPERIMENTS[study], YU2023_STUDIES[study]
    if unavailable_offline(options["raw"]):
        return {}
    points = {}
    for entry in experiment["grid"]:
        # an entry of a width (MNIST) or prior this configuration does not run is ignored
        if any(f"{key}s" in experiment and entry[key] not in experiment[f"{key}s"] for key in ("width", "prior")):
            continue
        posterior = options["posterior"].format(**entry)
        for learning_rate in entry["learning_rate"]:
            for alpha2 in entry["alpha2"] or [None]:
                label = grid_point_label(learning_rate, alpha2)
                points.setdefault(posterior, {}).setdefault(entry["sampler"], {})[label] = {
                    "width": entry.get("width"), "prior": entry["prior"], "learning_rate": learning_rate,
                    "alpha2": alpha2}
    return points


YU2023_POINTS = {study: yu2023_points(study) for study in YU2023_STUDIES}
YU2023_MNIST_POINTS = YU2023_POINTS["yu2023_mnist"]


def yu2023_chain_files(study, posterior, sampler, suffix):
    """Every chain output of one (posterior, sampler): grid point x seed, in a fixed order."""
    return [f"results/{study}/chain/{posterior}/{sampler}/{point}/seed{seed}.{suffix}"
            for point in YU2023_POINTS[study][posterior][sampler] for seed in range(EXPERIMENTS[study]["seeds"])]


def yu2023_records(study):
    """The records of a study's tidy summary: every chain and every selection."""
    files = []
    for posterior, samplers in YU2023_POINTS[study].items():
        for sampler in samplers:
            files += yu2023_chain_files(study, posterior, sampler, "json")
            files.append(f"results/{study}/selected/{posterior}/{sampler}.json")
        files.append(f"results/{study}/equal_time/{posterior}.json")
    return files


def yu2023_posterior_chains(study, posterior, suffix):
    """Every chain output of one posterior: sampler x grid point x seed."""
    return [f for sampler in YU2023_POINTS[study][posterior]
            for f in yu2023_chain_files(study, posterior, sampler, suffix)]


for _study in YU2023_STUDIES:
    SUMMARY_RECORDS[_study] = functools.partial(yu2023_records, _study)


def yu2023_classifier_targets():
    """The tables of every study that runs, the report, a Fig. 3 and a Fig. 4 per MNIST (width, prior) (rule all)."""
    tables = [name for study, options in YU2023_STUDIES.items() if YU2023_POINTS[study] for name in options["tables"]]
    if "n400_horseshoe-mlp" in YU2023_MNIST_POINTS:  # Table 10 is MNIST-400 with the horseshoe only
        tables.append("yu2023_table10")
    return ([f"tables/{name}.tex" for name in tables] + ["reports/yu2023_reproduction.md"]
            + [f"figures/yu2023_convergence_{posterior}.pdf" for posterior in YU2023_MNIST_POINTS]
            # Fig. 4 (the paper's: N = 400, horseshoe) wherever Monge runs
            + [f"figures/yu2023_alpha_sweep_{posterior}.pdf" for posterior, samplers in YU2023_MNIST_POINTS.items()
               if "monge" in samplers])
