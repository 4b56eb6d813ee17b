# Helpers of workflow/rules/bnn_hartmann_maps.smk (Hartmann et al. 2026, App. D, Figs. 6-7): the
# config slice, the optima, inputs, parameters and targets. Functions only (no rules), so that the
# rules file stays lint-clean.

BNN_HARTMANN_MAPS = config["bnn_hartmann_maps"]
# The paper compares LA and WG (App. D).
BNN_HARTMANN_MAPS_METHODS = ["ela", "wg"]


def bnn_hartmann_maps_posterior():
    """The network posterior of Fig. 5 (first split x first network of bnn_hartmann)."""
    options = EXPERIMENTS["bnn_hartmann"]
    return f"{options['splits'][0]}-{options['models'][0]}"


def bnn_hartmann_maps_optima():
    """Anchor names optimum0 .. optimum{optima - 1} ((a), (b), ...)."""
    return [f"optimum{k}" for k in range(BNN_HARTMANN_MAPS["optima"])]


def bnn_hartmann_maps_inputs(wildcards):
    """Every optimum's MAP record and its LA and WG predictions."""
    posterior = bnn_hartmann_maps_posterior()
    files = {"data": posterior_data_file(posterior)}
    for k, anchor in enumerate(bnn_hartmann_maps_optima()):
        files[f"map{k}"] = f"results/map/{posterior}/{anchor}.npz"
        files[f"map{k}_json"] = f"results/map/{posterior}/{anchor}.json"
        for method in BNN_HARTMANN_MAPS_METHODS:
            files[f"{method}{k}"] = f"results/prediction/{posterior}/{anchor}/{method}/seed0.npz"
            files[f"{method}{k}_json"] = f"results/prediction/{posterior}/{anchor}/{method}/seed0.json"
    return files


def bnn_hartmann_maps_robustness_files():
    """Outputs of the map_robustness step: per method a record and the per-input W2 arrays, and the optima's."""
    base = f"results/map_robustness/{bnn_hartmann_maps_posterior()}"
    files = {f"{m}_{kind}": f"{base}/{m}.{kind}" for m in BNN_HARTMANN_MAPS_METHODS for kind in ("json", "npz")}
    return {**files, "optima_json": f"{base}/optima.json", "optima_npz": f"{base}/optima.npz"}


def bnn_hartmann_maps_records():
    """The records of the map_robustness step (tidy rows of results/summary/bnn_hartmann_maps.csv)."""
    return [f for key, f in bnn_hartmann_maps_robustness_files().items() if key.endswith("_json")]


SUMMARY_RECORDS["bnn_hartmann_maps"] = bnn_hartmann_maps_records


def bnn_hartmann_maps_approximation(wildcards):
    """Fig. 5's approximation settings (WG by BFGS, its residual tolerance) with the sample
    count of App. D (rule parameter)."""
    return {**approximation_settings(wildcards), "samples": BNN_HARTMANN_MAPS["samples"]}


def bnn_hartmann_maps_model(wildcards):
    """The experiment slice; each optimum is a local Euclidean MAP, so the tangent precision is
    the negative Hessian (the paper's Sigma_bar, as Fig. 5's LA) unless the experiment sets one."""
    options = model_options(wildcards)
    return {**options, "precision": options.get("precision") or "hessian"}


def bnn_hartmann_maps_targets():
    """Figs. 6 and 7 and their tables (entries of tables.yaml)."""
    return ["figures/bnn_hartmann_maps.pdf", "figures/bnn_hartmann_map_w2.pdf", "tables/bnn_hartmann_map_w2.tex",
            "tables/bnn_hartmann_map_optima.tex"]
