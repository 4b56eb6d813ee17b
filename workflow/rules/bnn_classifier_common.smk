# Helpers of workflow/rules/bnn_classifier.smk (Hartmann et al. 2026, App. D classifier): the
# config slice, the optima, inputs and targets. Functions only (no rules), so that the rules file
# stays lint-clean.

BNN_CLASSIFIER = config["bnn_classifier"]
BNN_CLASSIFIER_METHODS = ["ela", "wg"]
# The keys only the approximations (and their predictive summaries) read: the data subset and the
# optima do not depend on them, so a change of, say, the WG solver settings reruns only the
# approximations (rule parameters `options` of prepare_bnn_classifier and bnn_classifier_map).
BNN_CLASSIFIER_APPROXIMATION_KEYS = ("precision", "samples", "wrapped_gaussian", "schedule", "chunk", "off_data_distance")


def bnn_classifier_subset_options():
    """What the banana subset depends on: the data set and its size."""
    return {key: BNN_CLASSIFIER[key] for key in ("dataset", "n")}


def bnn_classifier_map_options():
    """The `bnn_classifier` block less the approximations' keys: what an optimum depends on."""
    return {key: value for key, value in BNN_CLASSIFIER.items() if key not in BNN_CLASSIFIER_APPROXIMATION_KEYS}


#: Keys of the block that one method alone reads: another method's approximation jobs leave them out.
BNN_CLASSIFIER_METHOD_KEYS = {"wrapped_gaussian": "wg"}


def bnn_classifier_approximation_options(wildcards):
    """The `bnn_classifier` block less the keys of the other methods: an LA job does not rerun when
    WG's solver settings change."""
    return {key: value for key, value in BNN_CLASSIFIER.items()
            if BNN_CLASSIFIER_METHOD_KEYS.get(key, wildcards.method) == wildcards.method}


def bnn_classifier_optima():
    """Optimum indices 0 .. optima - 1 ((a), (b), ...)."""
    return list(range(BNN_CLASSIFIER["optima"]))


def bnn_classifier_report_inputs(wildcards):
    """Every optimum's MAP and approximation files."""
    files = {"data": f"data/prepared/bnn_classifier/{BNN_CLASSIFIER['dataset']}.npz"}
    for k in bnn_classifier_optima():
        files[f"map{k}"] = f"results/bnn_classifier/optimum{k}/map.npz"
        files[f"map{k}_json"] = f"results/bnn_classifier/optimum{k}/map.json"
        for m in BNN_CLASSIFIER_METHODS:
            files[f"{m}{k}"] = f"results/bnn_classifier/optimum{k}/{m}.npz"
            files[f"{m}{k}_json"] = f"results/bnn_classifier/optimum{k}/{m}.json"
    return files


def bnn_classifier_records():
    """Every optimum's MAP and approximation records (tidy rows of results/summary/bnn_classifier.csv)."""
    return [f"results/bnn_classifier/optimum{k}/{name}.json" for k in bnn_classifier_optima()
            for name in ("map", *BNN_CLASSIFIER_METHODS)]


SUMMARY_RECORDS["bnn_classifier"] = bnn_classifier_records


def bnn_classifier_dim():
    """Number of network weights d (301 for 2-15-15-1)."""
    sizes = [2, *BNN_CLASSIFIER["hidden"], 1]
    return sum((a + 1) * b for a, b in zip(sizes[:-1], sizes[1:]))


def bnn_classifier_mem_mb(wildcards):
    """Memory of one approximation job: WG's batched BFGS keeps a d x d inverse Hessian per
    sample (with working copies), plus one chunk of grid predictions."""
    per_sample = 3 * bnn_classifier_dim() ** 2 if wildcards.method == "wg" else bnn_classifier_dim()
    grid = BNN_CLASSIFIER["chunk"] * BNN_CLASSIFIER["grid"]["points"] ** 2
    return 2000 + 8 * (BNN_CLASSIFIER["samples"] * per_sample + 4 * grid) // 2**20


def bnn_classifier_targets():
    """Fig. 8, Fig. 9 and their tables (entries bnn_classifier_optima/_variance of tables.yaml)."""
    return ["figures/bnn_classifier_variance.pdf", "figures/bnn_classifier_fisher_spectra.pdf",
            "tables/bnn_classifier_optima.tex", "tables/bnn_classifier_variance.tex"]
