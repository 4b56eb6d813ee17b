# Shared helpers of the geobayes rules: the config slices, the posteriors, wildcard constraints and the library
# modules each step depends on. No science here: the logic lives in src/geobayes.

import functools
import os
import re
from pathlib import Path

import yaml

from geobayes.samplers.thinning import thinning_stride

REPO = Path(workflow.basedir)
LIBRARY = REPO / "src" / "geobayes"
#: Each experiment's posterior declaration (its `posteriors` key): name and data-file templates.
POSTERIOR_DECLARATIONS = {e: options["posteriors"] for e, options in config["experiments"].items()
                          if "posteriors" in options}
#: The experiments' settings, less their posterior declarations: those decide names and paths,
#: nothing a job computes, so they stay out of every job's parameters.
EXPERIMENTS = {e: {k: v for k, v in options.items() if k != "posteriors"}
               for e, options in config["experiments"].items()}
LOGREG = EXPERIMENTS["logreg"]
TIMING = config["timing"]
ENV = "../envs/geobayes.yaml"
# Bayesian neural-network experiments on Snelson's data (workflow/rules/networks.smk): those
# whose posteriors are networks of their `networks` block.
BNN_EXPERIMENTS = tuple(e for e in POSTERIOR_DECLARATIONS
                        if EXPERIMENTS[e].get("networks") and "classification" not in EXPERIMENTS[e])
# Softmax network classifiers of Bergamin et al. (2023) Sec. 5.2 (workflow/rules/classifiers.smk):
# the experiments with a `classification` block.
CLASSIFIER_EXPERIMENTS = tuple(e for e in POSTERIOR_DECLARATIONS if "classification" in EXPERIMENTS[e])
# Registered files each Snelson split reads (mirrors geobayes.data.snelson.SPLIT_FILES; a test
# keeps them equal, so the Snakefile need not import the library).
SNELSON_SPLIT_FILES = {
    "complete_raw": ["snelson/rlaf_splits/snelson_data.npz"],
    "gap_raw": ["snelson/rlaf_splits/snelson_data_between.npz"],
    "complete_standardised": ["snelson/rlaf_splits/snelson_data_standardized.npz"],
    "gap_standardised": ["snelson/rlaf_splits/snelson_data_between_standardized.npz"],
    "random": ["snelson/train_inputs", "snelson/train_outputs"],
    "between": ["snelson/train_inputs", "snelson/train_outputs"],
    "drop23": ["snelson/snelson.npz"],
}
WG_TIMING = config["wg_timing"]


def _use_compilation_cache(directory):
    """Point every job's JAX at one persistent compilation cache (config `compilation_cache`).

    Jobs inherit the environment of the Snakemake process that parsed this file (on a cluster
    the job step parses it again), so setting it here reaches every script without a line in
    each. Every compilation is cached, not only those over JAX's default 1 s. Concurrent jobs
    are safe: JAX writes an entry whole or a reader that finds a partial one warns and
    compiles. A variable the user exported wins.
    """
    if directory is None:
        return
    os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", os.path.abspath(directory))
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
    os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")


_use_compilation_cache(config["compilation_cache"])


# On a cluster (profiles/slurm) downloads run on the submitting node: compute nodes often
# have no internet, and a download takes seconds. Local runs are unaffected.
localrules:
    download,


# ---- Posteriors: expanded from each experiment's declaration (config key `posteriors`) ----
# A declaration is a pair of templates over the experiment's own keys, like a sample sheet:
# `name` ("{datasets}_{inputs}-logreg") and `data` (the prepared file's path; null for a
# closed-form target; or a mapping model -> path). A placeholder {key} takes each value of the
# list experiments.<e>.<key> in turn (a scalar once), {key:join} the list's values joined into
# one string, {posterior} (in `data`) the posterior's name. One posterior per combination of
# the placeholders' values, the last placeholder of `name` varying slowest.

_PLACEHOLDER = re.compile(r"\{(\w+)(?::(join))?\}")


def _placeholder_values(experiment, key, join):
    """Values a placeholder {key} (or {key:join}) of an experiment's declaration takes."""
    if key not in EXPERIMENTS[experiment]:
        raise WorkflowError(f"experiments.{experiment}.posteriors refers to {{{key}}}, but experiments."
                            f"{experiment} has no key {key!r}")
    value = EXPERIMENTS[experiment][key]
    if join:
        return ["".join(str(v) for v in value)]
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]


def _expand(experiment, template, overrides=None):
    """Every (text, values) of a template: one per combination of its placeholders' values."""
    overrides = overrides or {}
    keys = list(dict.fromkeys(m.group(0) for m in _PLACEHOLDER.finditer(template)))
    axes = []
    for placeholder in reversed(keys):  # the last placeholder varies slowest
        key, join = _PLACEHOLDER.fullmatch(placeholder).groups()
        values = [str(v) for v in overrides[key]] if key in overrides else _placeholder_values(experiment, key, join)
        axes.append((placeholder, values))
    combinations = [{}]
    for placeholder, values in axes:
        combinations = [{**c, placeholder: v} for c in combinations for v in values]
    expanded = []
    for combination in combinations:
        text = template
        for placeholder, value in combination.items():
            text = text.replace(placeholder, value)
        expanded.append((text, combination))
    return expanded


def declared_posteriors(experiment, **overrides):
    """Posterior names of an experiment's declaration; ``overrides`` replace a placeholder's list."""
    return [name for name, _ in _expand(experiment, POSTERIOR_DECLARATIONS[experiment]["name"], overrides)]


def _model_experiments():
    """Model name -> experiment: the model part of each declaration's name template, expanded."""
    owners = {}
    for experiment, declaration in POSTERIOR_DECLARATIONS.items():
        model_part = declaration["name"].split("-", 1)[1]
        for model, _ in _expand(experiment, model_part):
            if model in owners:
                raise WorkflowError(f"model {model!r} is declared by experiments {owners[model]!r} and {experiment!r}")
            owners[model] = experiment
    return owners


MODEL_EXPERIMENT = _model_experiments()


def logreg_posteriors(datasets=None, inputs=None):
    """Posterior names <dataset>_<inputs>-logreg of the configured logistic regressions."""
    overrides = {k: v for k, v in (("datasets", datasets), ("inputs", inputs)) if v is not None}
    return declared_posteriors("logreg", **overrides)


def experiment_posteriors(experiment):
    """Posterior names of one experiment, expanded from its declaration."""
    if experiment not in POSTERIOR_DECLARATIONS:
        raise ValueError(f"experiment {experiment!r} declares no posteriors")
    return declared_posteriors(experiment)


def usps_posterior():
    """Name of the USPS posterior, e.g. usps357-multigp."""
    return experiment_posteriors("usps")[0]


def experiment_of(posterior):
    """Experiment of a posterior name: the one whose declaration names the name's model part."""
    model = posterior.split("-")[1]
    if model not in MODEL_EXPERIMENT:
        raise ValueError(f"posterior {posterior!r}: no experiment declares model {model!r}")
    return MODEL_EXPERIMENT[model]


@functools.lru_cache(maxsize=None)
def _declared_values(experiment):
    """Declared posterior name -> its placeholders' values, of one experiment."""
    return dict(_expand(experiment, POSTERIOR_DECLARATIONS[experiment]["name"]))


def _declared_data(posterior):
    """The `data` template of a posterior's declaration filled in (None: closed-form target)."""
    experiment = experiment_of(posterior)
    declaration = POSTERIOR_DECLARATIONS[experiment]
    template = declaration.get("data")
    if isinstance(template, dict):
        template = template[posterior.split("-")[1]]
    if template is None:
        return None
    path = template.replace("{posterior}", posterior)
    # The placeholders' values: those of the declared posterior of this name (exact, even where a
    # value holds "_", as "fashion_mnist_fixed_seed0" in "{datasets}_{priors}_seed{seeds}")...
    declared = _declared_values(experiment).get(posterior)
    if declared is not None:
        for placeholder, value in declared.items():
            path = path.replace(placeholder, value)
        return path
    # ... else (a name outside the config) match it against its template (each placeholder one
    # lowercase word; the shortest match, so "australian_raw" splits as {datasets}_{inputs}).
    pattern, groups = "", {}
    pieces = _PLACEHOLDER.split(declaration["name"])
    for i in range(0, len(pieces), 3):
        pattern += re.escape(pieces[i])
        if i + 1 < len(pieces):
            key, join = pieces[i + 1], pieces[i + 2]
            group = f"g{len(groups)}"
            groups[group] = f"{{{key}{':join' if join else ''}}}"
            pattern += f"(?P<{group}>[a-z0-9_]+?)"
    match = re.fullmatch(pattern, posterior)
    if match is None:
        raise ValueError(f"posterior {posterior!r} does not match experiments.{experiment}.posteriors.name "
                         f"{declaration['name']!r}")
    for group, placeholder in groups.items():
        path = path.replace(placeholder, match.group(group))
    return path


def posterior_methods(posterior):
    """Methods run on one posterior: its experiment's methods, plus rla_ef on the logistic
    regressions of experiments.logreg.empirical_fisher_datasets (Yu et al. 2024, Table 6)."""
    experiment = experiment_of(posterior)
    methods = list(EXPERIMENTS[experiment]["methods"])
    if experiment == "logreg" and posterior.split("_")[0] in LOGREG["empirical_fisher_datasets"]:
        methods += [m for m in ["rla_ef"] if m not in methods]
    return methods


def all_methods():
    """Every method name used anywhere in the configuration (for wildcard constraints); a study with
    rules of its own and no approximation methods (experiments.yu2023_funnel: samplers) has none."""
    names = ({m for options in EXPERIMENTS.values() for m in options.get("methods", ())} | set(TIMING["methods"])
             | set(WG_TIMING["methods"]))
    if LOGREG["empirical_fisher_datasets"]:
        names.add("rla_ef")
    return sorted(names)


def reference_kind(posterior):
    """"exact" for the closed-form targets (declared without data), "nuts" for posteriors with data."""
    return "exact" if _declared_data(posterior) is None else "nuts"


def reference_files(wildcards):
    """The reference draws and record of a posterior (exact or NUTS)."""
    stem = f"results/reference/{wildcards.posterior}/{reference_kind(wildcards.posterior)}"
    return {"reference_npz": f"{stem}.npz", "reference_json": f"{stem}.json"}


include: "data_sources.smk"
include: "code_digest.smk"


def posterior_data_file(posterior):
    """Data file of a posterior: its declaration's `data` template filled in (None for a
    closed-form target); for a network with a `training` block, the trained-network file
    (data + weights + the marginal-likelihood noise and prior precision) of rule train_network."""
    model = posterior.split("-")[1]
    if model in (EXPERIMENTS[experiment_of(posterior)].get("training") or {}):
        return f"results/network/{posterior}.npz"
    return _declared_data(posterior)


def prepared_data(wildcards):
    """`posterior_data_file` as a rule input (an empty list for closed-form targets)."""
    path = posterior_data_file(wildcards.posterior)
    return [] if path is None else path


#: Keys of an experiment that choose what runs on its posteriors rather than what the posterior
#: is; `model_options` leaves them out, so adding a method or changing one method's sample count
#: does not change the parameters (and so rerun) the data, training, MAP and NUTS jobs.
RUN_CHOICE_KEYS = ("methods", "anchors", "wasserstein", "approximation")


def enumerating_keys(experiment):
    """Keys whose list a placeholder ``{key}`` of the experiment's posterior declaration ranges over
    (not ``{key:join}``): they choose which posteriors exist, and each posterior's own value is in its
    name and data path, so adding a data set, prior or seed changes no other posterior's jobs."""
    declaration = POSTERIOR_DECLARATIONS.get(experiment, {})
    data = declaration.get("data")
    templates = [declaration.get("name"), *(data.values() if isinstance(data, dict) else [data])]
    return {m.group(1) for t in templates if isinstance(t, str) for m in _PLACEHOLDER.finditer(t)
            if not m.group(2) and isinstance(EXPERIMENTS[experiment].get(m.group(1)), list)}


def model_options(wildcards):
    """Experiment config slice of a posterior's model, less `RUN_CHOICE_KEYS` and the lists its
    declaration enumerates (`enumerating_keys`) (rule parameter)."""
    experiment = experiment_of(wildcards.posterior)
    left_out = {*RUN_CHOICE_KEYS, *enumerating_keys(experiment)}
    return {key: value for key, value in EXPERIMENTS[experiment].items() if key not in left_out}


def compile_effort(wildcards, rule):
    """`fast` for a job of one of the rules of config `fast_compile` on a posterior of its experiments
    (an approximation: unless its method is one of `except_methods`), else `optimised` (rule parameter
    of map, reference and approximate; geobayes.pipeline.compile_effort)."""
    fast = config["fast_compile"]
    chosen = (rule in fast["rules"] and experiment_of(wildcards.posterior) in fast["experiments"]
              and getattr(wildcards, "method", None) not in fast["except_methods"])
    return "fast" if chosen else "optimised"


def reference_settings(wildcards):
    """NUTS settings of the posterior of a job (rule parameter)."""
    return nuts_settings(wildcards.posterior)


def reference_draws(posterior=None):
    """NUTS reference draws kept, chains x (samples // thin), of one posterior (default: the
    config's own settings, without overrides)."""
    reference = config["reference"] if posterior is None else nuts_settings(posterior)
    return reference["chains"] * (reference["samples"] // reference["thin"])


def maybe_protected(path):
    """Reference outputs are write-protected when reference.protect is true (paper scale)."""
    return protected(path) if config["reference"]["protect"] else path


#: GPU request of a job that runs JAX on `device: gpu`, in the site's GRES spelling (profiles/README.md).
GPU_GRES_VARIABLE = "GEOBAYES_SLURM_GRES"


def gpu_resources():
    """Resources of a rule whose script runs JAX on config `device` (``**gpu_resources()``).

    With ``device: gpu`` the job asks the scheduler for a GPU: ``gres`` (SLURM executor ->
    ``sbatch --gres=<spec>``) from $GEOBAYES_SLURM_GRES, default ``gpu:1``; sites name GPU
    types there (``gpu:a100:1``). With ``device: cpu`` nothing is requested. One switch thus
    both moves JAX to the GPU and reserves one; a local run ignores ``gres``.
    """
    if config["device"] != "gpu":
        return {}
    return {"gres": gpu_gres}


def gpu_gres(wildcards):
    """The GRES a GPU job asks SLURM for; checked against the cluster before submission."""
    spec = os.environ.get(GPU_GRES_VARIABLE, "").strip() or "gpu:1"
    plugin = workflow.executor_plugin
    if plugin is not None and plugin.name == "slurm":
        _check_cluster_has_gres(spec)
    return spec


_CHECKED_GRES = set()


def _check_cluster_has_gres(spec):
    """Fail before any sbatch call when no node of the cluster declares the GRES of ``spec``.

    Without this, sbatch rejects each GPU job with "Invalid generic resource (gres)
    specification", a message Snakemake does not even print for grouped jobs.
    """
    if spec in _CHECKED_GRES:
        return
    import subprocess

    try:
        declared = subprocess.run(["sinfo", "--noheader", "--format=%P %G"], capture_output=True,
                                  text=True, timeout=60, check=True).stdout.split("\n")
    except (OSError, subprocess.SubprocessError):
        return  # cannot ask: let sbatch decide
    name = spec.split(":")[0]
    gres_columns = [line.split(None, 1)[1] for line in declared if len(line.split(None, 1)) == 2]
    if not any(re.search(rf"(^|,){re.escape(name)}(:|\(|,|$)", gres) for gres in gres_columns):
        partitions = "; ".join(line for line in declared if line.strip()) or "none"
        raise WorkflowError(
            f"config device: gpu asks SLURM for the generic resource gres={spec!r} (from ${GPU_GRES_VARIABLE}, "
            f"default 'gpu:1') for every JAX job, but no node of this cluster declares a {name!r} GRES "
            f"(sinfo partition/GRES: {partitions}). Declare the GPUs (slurm.conf: GresTypes=gpu and Gres=gpu:<n> "
            f"on the NodeName line; gres.conf: the device files), set ${GPU_GRES_VARIABLE} to the site's spelling "
            f"(e.g. gpu:a100:1) and $GEOBAYES_SLURM_PARTITION to the GPU partition, or run with device: cpu. "
            f"See profiles/README.md."
        )
    _CHECKED_GRES.add(spec)


def reference_size(posterior):
    """Number of reference draws of a posterior (NUTS draws or exact draws)."""
    if reference_kind(posterior) == "exact":
        return config["reference"]["exact_draws"]
    return reference_draws(posterior)


def compared_reference_size(posterior):
    """Reference draws the exact distances compare with: every k-th (`evaluation.max_reference_draws`)."""
    size = reference_size(posterior)
    return -(-size // thinning_stride(size, config["evaluation"]["max_reference_draws"]))


def wasserstein_mem_mb(wildcards):
    """Memory for exact EMD: the float64 cost matrix plus the simplex's working copies."""
    return 1000 + 5 * 8 * compared_reference_size(wildcards.posterior) * config["approximation"]["samples"] // 2**20


def timing_files():
    """Timing results of every configured posterior x method of Table 4."""
    return expand("results/timing/{posterior}/{method}.json",
                  posterior=logreg_posteriors(TIMING["datasets"], TIMING["inputs"]), method=TIMING["methods"])


def repetition_seeds():
    """Repetition indices seed0 .. seed{n-1}."""
    return range(config["approximation"]["repetitions"])


def per_repetition(pattern):
    """`pattern` for every repetition, its `{seed}` filled in and its other wildcards kept: the
    files of one job that covers all repetitions (approximations, evaluations), which shares the
    start-up, the posterior and the compiled solvers between them."""
    return expand(pattern, seed=repetition_seeds(), allow_missing=True)


# The results layer (summaries, tables, final targets), the Hartmann et al. (2026) experiments and
# the network experiments keep their helpers in files of their own.
include: "results_layer_common.smk"
include: "wrapped_gaussian_common.smk"
include: "networks_common.smk"
include: "classifiers_common.smk"


wildcard_constraints:
    posterior=r"[a-z0-9_]+-[a-z0-9_]+",
    method="|".join(all_methods()),
    anchor="euclidean|hausdorff",
    # experiments.* and the studies with a config block of their own (SUMMARY_RECORDS); "all" is
    # results/summary/all.csv, the concatenation
    experiment=r"(?!all\b)[a-z0-9_]+",
    seed=r"\d+",
    inputs="standardised|raw",
    table="|".join(TABLES),
    report="|".join(REPORTS),
