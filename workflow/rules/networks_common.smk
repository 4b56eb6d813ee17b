# Helpers of workflow/rules/networks.smk (included by common.smk): Bayesian neural networks on
# Snelson's data (Yu et al. 2024; Bergamin et al. 2023; Hartmann et al. 2026). Functions only.

def split_of(posterior):
    """The Snelson split of a network posterior <split>-<network>."""
    return posterior.split("-")[0]


def snelson_raw_files(wildcards):
    """Registered files a Snelson split reads."""
    return [f"data/raw/{f}" for f in SNELSON_SPLIT_FILES[wildcards.split]]


def network_training_inputs(wildcards):
    """The prepared split a network is trained on (its declaration's `data`)."""
    return _declared_data(wildcards.posterior)


def prediction_files(posterior, methods=None):
    """Per-repetition prediction files of a network posterior's methods, and the NUTS one."""
    options = EXPERIMENTS[experiment_of(posterior)]
    files = {f"{m}_seed{k}": f"results/prediction/{posterior}/{a}/{m}/seed{k}.npz"
             for a in options["anchors"] for m in (methods or options["methods"]) for k in repetition_seeds()}
    files["nuts"] = f"results/prediction/{posterior}/nuts.npz"
    return files


def network_records(experiment):
    """A network experiment's summarised records: its predictions (MSE, NLL, T; NUTS subsets), the
    timings of its timed methods (timing.methods; Yu et al.'s "time") and, where its `wasserstein`
    lists w2, each run's push-forward W2 to NUTS (Hartmann et al.'s Fig. 5)."""
    files = []
    for posterior in experiment_posteriors(experiment):
        predictions = prediction_files(posterior)
        files += [f.replace(".npz", ".json") for f in predictions.values()]
        files += [f"results/timing/{posterior}/{m}.json" for m in posterior_methods(posterior) if m in TIMING["methods"]]
        if "w2" in EXPERIMENTS[experiment]["wasserstein"]:
            files += [f.replace("results/prediction/", "results/pushforward/").replace(".npz", ".json")
                      for key, f in predictions.items() if key != "nuts"]
    return files


for _experiment in BNN_EXPERIMENTS:
    SUMMARY_RECORDS[_experiment] = lambda experiment=_experiment: network_records(experiment)


def bnn_figure_inputs(experiment, split):
    """Prediction files of every network of one split of a network experiment."""
    def inputs(wildcards):
        files = {}
        for model in EXPERIMENTS[experiment]["models"]:
            posterior = f"{split(wildcards)}-{model}"
            files.update({f"{posterior}:{k}": v for k, v in prediction_files(posterior).items()})
            files[f"{posterior}:data"] = posterior_data_file(posterior)
        return files
    return inputs


def bnn_targets():
    """Tables and figures of the network experiments (Hartmann's Fig. 5 table where bnn_hartmann runs)."""
    targets = []
    yu_splits = set(EXPERIMENTS["bnn_yu"]["splits"])
    for scaling in ("raw", "standardised"):
        if {f"complete_{scaling}", f"gap_{scaling}"} <= yu_splits:
            targets += [f"tables/yu2024_table{3 if scaling == 'raw' else 5}.tex", f"figures/bnn_yu_{scaling}.pdf"]
    targets += [f"figures/bnn_bergamin_{s}.pdf" for s in EXPERIMENTS["bnn_bergamin"]["splits"]]
    targets += [f"figures/bnn_hartmann_{s}.pdf" for s in EXPERIMENTS["bnn_hartmann"]["splits"]]
    targets += ["tables/bnn_hartmann_pushforward_w2.tex"]
    return targets
