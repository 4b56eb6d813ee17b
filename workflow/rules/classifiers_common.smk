# Helpers of workflow/rules/classifiers.smk (Bergamin et al. 2023, Sec. 5.2 and App. D.2-D.6): the
# classifier experiments' data, trained networks, prediction records and targets. Functions only.

from types import SimpleNamespace

from geobayes.data.classification_sources import IMAGE_TEST_SETS, SOURCES

#: Network names of the classifier experiments (wildcard constraint of train_classifier).
CLASSIFIER_MODELS = sorted({m for e in CLASSIFIER_EXPERIMENTS for m in EXPERIMENTS[e]["models"]})
#: Prior settings of Bergamin et al.'s tables: optimised by the marginal likelihood, or fixed.
CLASSIFIER_PRIORS = ("optimised", "fixed")


def classifier_posterior(dataset, prior, seed, model):
    """The posterior name <dataset>_<prior>_seed<k>-<network> of the classifier experiments."""
    return f"{dataset}_{prior}_seed{seed}-{model}"


def classifier_split_file(wildcards):
    """The prepared split a classifier is trained on (its declaration's `data`, any prior)."""
    return _declared_data(classifier_posterior(wildcards.dataset, CLASSIFIER_PRIORS[0], wildcards.seed, wildcards.model))


def classifier_model_options(wildcards):
    """`model_options` of the posteriors one trained classifier serves (either prior: they share them)."""
    posterior = classifier_posterior(wildcards.dataset, CLASSIFIER_PRIORS[0], wildcards.seed, wildcards.model)
    return model_options(SimpleNamespace(posterior=posterior))


def classification_raw_files(wildcards):
    """Registered raw files of the data set a prepared split reads."""
    dataset = re.sub(r"_seed\d+$", "", wildcards.stem)
    return [f"data/raw/{f}" for f in SOURCES[dataset].files]


def classification_stem_options(wildcards):
    """What one prepared split depends on: its data set, seed (where it draws one) and subset size."""
    dataset = re.sub(r"_seed\d+$", "", wildcards.stem)
    match = re.search(r"_seed(\d+)$", wildcards.stem)
    owners = [e for e in CLASSIFIER_EXPERIMENTS if dataset in EXPERIMENTS[e]["datasets"]]
    per_class = EXPERIMENTS[owners[0]].get("subset_per_class") if owners else None
    return {"dataset": dataset, "seed": int(match.group(1)) if match else None, "per_class": per_class}


def ood_sets(posterior):
    """Out-of-distribution test sets of a classifier posterior: its experiment's `ood` list less its own
    data set and the sets unavailable offline (EMNIST from a mirror without it: its cells print --)."""
    options = EXPERIMENTS[experiment_of(posterior)]
    dataset = posterior.split("_seed")[0].rsplit("_", 1)[0]
    return [s for s in options["classification"]["ood"] if s != dataset and not unavailable_offline(IMAGE_TEST_SETS[s])]


def classification_prediction_inputs(wildcards):
    """A classifier prediction job's inputs: the trained network (data and test split), each repetition's
    draws and records, and its out-of-distribution test sets."""
    files = {"data": posterior_data_file(wildcards.posterior)}
    for k in repetition_seeds():
        stem = f"results/approximation/{wildcards.posterior}/{wildcards.anchor}/{wildcards.method}/seed{k}/samples"
        files[f"draws{k}"], files[f"record{k}"] = f"{stem}.npz", f"{stem}.json"
    for name in ood_sets(wildcards.posterior):
        files[f"ood_{name}"] = f"data/prepared/image_test/{name}.npz"
    return files


def classification_records(experiment):
    """A classifier experiment's summarised records: every run's predictive metrics, and each
    network's training record (the prior precisions the tables' captions quote)."""
    return [f"results/classification/{p}/{a}/{m}/seed{k}.json" for p in experiment_posteriors(experiment)
            for a in EXPERIMENTS[experiment]["anchors"] for m in posterior_methods(p) for k in repetition_seeds()]


for _experiment in CLASSIFIER_EXPERIMENTS:
    SUMMARY_RECORDS[_experiment] = lambda experiment=_experiment: classification_records(experiment)


def confidence_map_inputs(wildcards):
    """Repetition-0 prediction files (with the confidence grid) of one seed-0 classifier per prior and method."""
    experiment = wildcards.experiment
    options = EXPERIMENTS[experiment]
    files = {}
    for prior in options["priors"]:
        posterior = classifier_posterior(wildcards.dataset, prior, options["seeds"][0], options["models"][0])
        for method in options["methods"]:
            files[f"{prior}:{method}"] = f"results/classification/{posterior}/euclidean/{method}/seed0.npz"
        files[f"{prior}:data"] = posterior_data_file(posterior)
    return files


def classifier_targets():
    """Tables, confidence maps and the reproduction report of the classifier experiments."""
    targets = [f"figures/confidence_{e}_{d}.pdf" for e in CLASSIFIER_EXPERIMENTS
               if EXPERIMENTS[e]["classification"]["grid"] is not None for d in EXPERIMENTS[e]["datasets"]]
    for name, spec in TABLES.items():
        if not (spec.experiments and set(spec.experiments) <= set(CLASSIFIER_EXPERIMENTS)):
            continue
        # a table whose selected data sets or priors this scale does not run is left out
        run = {key: {v for e in spec.experiments for v in EXPERIMENTS[e][f"{key}s"]} for key in ("dataset", "prior")}
        if all(run[key] & set(dict(spec.select).get(key, run[key])) for key in run):
            targets.append(f"tables/{name}.tex")
    if "bergamin2023" in REPORTS:
        targets.append("reports/bergamin2023_reproduction.md")
    return targets
