# The `approximation` config slice each job receives, as a parameter of its rule -- the shared block less the
# other methods' own settings, with the posterior's experiment overrides and sample counts applied.
# Helpers of workflow/rules/common.smk's families, included right after it.


#: Method-specific blocks of the `approximation` config slice and the one method each reaches.
METHOD_SPECIFIC_SETTINGS = {"log_map": "rla_blog", "wrapped_gaussian": "wg"}


def method_settings(method):
    """The `approximation` config slice one method uses: the log-map settings reach RLA-BLog
    only and the least-squares settings WG only, so editing them reruns exactly those jobs."""
    settings = dict(config["approximation"])
    for block, owner in METHOD_SPECIFIC_SETTINGS.items():
        if method != owner:
            settings.pop(block, None)
    return settings


def figure_method_settings(method):
    """`method_settings` for a figure's data (density grids, geodesics drawn on a metric), which is
    computed in float64 whatever `approximation.dtype` says: the precision is left out, so that
    switching it replots nothing (rule parameter)."""
    return {k: v for k, v in method_settings(method).items() if k != "dtype"}


def approximation_settings(wildcards):
    """`method_settings` of the job's method, with the overrides of the posterior's experiment
    (its `approximation` key, e.g. the networks' sample counts and batch size) (rule parameter).
    `method_samples` sets the sample count of the methods it names alone, and
    `posterior_method_samples` that of the methods it names on one posterior; neither is passed
    on, so changing one count reruns exactly the jobs it counts the samples of."""
    settings = method_settings(wildcards.method)
    overrides = dict(EXPERIMENTS[experiment_of(wildcards.posterior)].get("approximation", {}))
    per_method = {**overrides.pop("method_samples", {}),
                  **overrides.pop("posterior_method_samples", {}).get(wildcards.posterior, {})}
    for block, value in overrides.items():
        owner = METHOD_SPECIFIC_SETTINGS.get(block)
        if owner is not None and owner != wildcards.method:
            continue
        settings[block] = {**settings[block], **value} if isinstance(value, dict) and block in settings else value
    settings["samples"] = per_method.get(wildcards.method, settings["samples"])
    return settings


def _check_posterior_method_samples():
    """Each posterior named by an experiment's `approximation.posterior_method_samples` is one of
    its posteriors: a misspelt name would otherwise silently change nothing."""
    for experiment, options in EXPERIMENTS.items():
        named = (options.get("approximation") or {}).get("posterior_method_samples", {})
        if not named:
            continue
        posteriors = experiment_posteriors(experiment)
        unknown = sorted(set(named) - set(posteriors))
        if unknown:
            raise WorkflowError(f"experiments.{experiment}.approximation.posterior_method_samples: {unknown[0]!r} is not "
                                f"a posterior of the experiment (its posteriors: {', '.join(posteriors)})")


_check_posterior_method_samples()


#: Vector-field evaluations a step of each geodesic solver (mirrors
#: geobayes.geometry.exponential_map.OdeSolver.evaluations_per_step; a test keeps them equal, so the
#: Snakefile need not import JAX).
SOLVER_EVALUATIONS = {"dopri5": 6, "tsit5": 6, "bosh3": 3}


def _check_evaluations_per_step():
    """The `approximation.evaluations_per_step` of the shared block and of each experiment's overrides
    is the count of its `ode.solver` (the cost T counts evaluations): a mismatch stops the workflow
    before any job, in one line naming both keys (a job would stop at it too)."""
    shared = config["approximation"]
    blocks = [("approximation", {})] + [(f"experiments.{experiment}.approximation", options.get("approximation") or {})
                                        for experiment, options in EXPERIMENTS.items()]
    for where, overrides in blocks:
        solver = {**shared["ode"], **overrides.get("ode", {})}["solver"]
        count = overrides.get("evaluations_per_step", shared["evaluations_per_step"])
        if count != SOLVER_EVALUATIONS[solver]:
            raise WorkflowError(f"{where}: evaluations_per_step is {count}, but ode.solver {solver} evaluates the "
                                f"vector field {SOLVER_EVALUATIONS[solver]} times a step; set it to "
                                f"{SOLVER_EVALUATIONS[solver]}")


_check_evaluations_per_step()


def timing_settings(wildcards):
    """`approximation_settings` less the draw counts (`samples`, `repetitions`), which a timing job
    does not use (it draws `timing`'s counts): a sample count changed by `method_samples` reruns
    the approximations, not the timings (rule parameter)."""
    return {k: v for k, v in approximation_settings(wildcards).items() if k not in ("samples", "repetitions")}
