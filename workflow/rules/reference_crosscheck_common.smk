# Helpers of the reference rule's backends and of the cross-check (reference_crosscheck.smk):
# a posterior's NUTS settings and backend, which NUTS a reference file holds, its code and threads,
# and which posteriors get a second opinion. Functions only.

#: Keys of config `reference` that are not settings of one posterior's NUTS run (the Stan
#: installation's cache and processes change no draw: the script reads them from the config).
_NOT_NUTS_SETTINGS = ("posterior_overrides", "exact_draws", "crosscheck", "stan")


def reference_backend(posterior):
    """NUTS backend of a posterior's reference (config `reference.backend`, or its override)."""
    return config["reference"]["posterior_overrides"].get(posterior, {}).get("backend", config["reference"]["backend"])


def nuts_settings(posterior, backend=None):
    """NUTS settings of one posterior: config `reference` with its posterior_overrides applied.

    ``backend`` (default: the posterior's configured one) is a setting only when it is Stan, with
    the Stan interface asked for: a NumPyro reference's settings, and so its job's parameters,
    are what they were before the Stan backend existed."""
    settings = {k: v for k, v in config["reference"].items() if k not in _NOT_NUTS_SETTINGS}
    settings.update(config["reference"]["posterior_overrides"].get(posterior, {}))
    settings["backend"] = backend or settings["backend"]
    if settings["backend"] == "numpyro":
        del settings["backend"]
    else:
        settings["stan_interface"] = config["reference"]["stan"]["interface"]
    return settings


#: Reference file stem -> its NUTS backend (None: the posterior's configured one).
REFERENCE_SAMPLERS = {"nuts": None, "nuts_numpyro": "numpyro", "nuts_stan": "stan"}

#: The Stan program and the script that runs it: not Python modules of the library, so the code
#: digest names them itself.
STAN_FILES = (LIBRARY / "stan" / "embedding_model.stan", LIBRARY / "stan" / "stan_worker.py")


def sampler_backend(posterior, sampler):
    """The backend a reference file `results/reference/<posterior>/<sampler>.npz` is computed with."""
    return REFERENCE_SAMPLERS[sampler] or reference_backend(posterior)


def reference_job_settings(wildcards):
    """NUTS settings of a reference job (rule parameter), its backend from the file name."""
    return nuts_settings(wildcards.posterior, REFERENCE_SAMPLERS[wildcards.sampler])


def reference_code(wildcards):
    """`code_digest` of a reference job: NumPyro's modules, or Stan's with the program's bytes, so that
    editing the Stan program reruns the Stan references and only them."""
    backends = ("samplers.nuts", "samplers.stan_nuts")
    common = ("samplers.reference", "pipeline.posteriors", "whitened_target",
              *(m for m in script_modules("reference.py") if m not in backends))
    if sampler_backend(wildcards.posterior, wildcards.sampler) == "numpyro":
        return code_digest("samplers.nuts", *common)
    digest = hashlib.sha256(code_digest("samplers.stan_nuts", *common).encode())
    for path in STAN_FILES:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def reference_threads(wildcards):
    """Threads of a reference job: Stan runs `reference.stan.processes` chains at once."""
    if sampler_backend(wildcards.posterior, wildcards.sampler) == "numpyro":
        return 1
    return min(config["reference"]["stan"]["processes"], nuts_settings(wildcards.posterior)["chains"])


def nuts_reference_posteriors(networks=True):
    """Every posterior whose results are measured against a NUTS reference: those of the W-evaluated
    experiments (no records of their own in SUMMARY_RECORDS) and, with ``networks``, of the network
    regressions (whose references serve the predictive comparison)."""
    experiments = [e for e in POSTERIOR_DECLARATIONS
                   if e not in SUMMARY_RECORDS or (networks and e in BNN_EXPERIMENTS)]
    return sorted({p for e in experiments for p in experiment_posteriors(e) if reference_kind(p) == "nuts"})


@functools.cache
def crosscheck_posteriors():
    """Posteriors cross-checked (config `reference.crosscheck.posteriors`): `all`, `evaluated` (those whose
    W evaluations require a passing reference, without the network regressions), or a list of names; less
    those in `reference.crosscheck.exclude`."""
    settings = config["reference"]["crosscheck"]
    chosen, excluded = settings["posteriors"], settings.get("exclude", [])
    known = nuts_reference_posteriors()
    for key, names in (("posteriors", [] if chosen in ("all", "evaluated") else chosen), ("exclude", excluded)):
        unknown = sorted(set(names) - set(known))
        if unknown:
            raise ValueError(f"reference.crosscheck.{key}: {', '.join(unknown)} have no NUTS reference in this "
                             f"configuration (posteriors with one: {', '.join(known)})")
    if chosen in ("all", "evaluated"):
        chosen = nuts_reference_posteriors(networks=chosen == "all")
    return tuple(p for p in chosen if p not in excluded)


def second_opinion(posterior):
    """The reference file stem computed by the backend a posterior's reference is not."""
    return "nuts_stan" if reference_backend(posterior) == "numpyro" else "nuts_numpyro"


def crosscheck_files():
    """The cross-check records, one per cross-checked posterior."""
    return [f"results/reference_crosscheck/{p}.json" for p in crosscheck_posteriors()]


SUMMARY_RECORDS["reference_crosscheck"] = crosscheck_files
