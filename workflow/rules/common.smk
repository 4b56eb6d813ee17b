# Shared helpers of the geobayes rules: target lists, wildcard constraints and the library
# modules each step depends on. No science here: the logic lives in src/geobayes.

import ast
import csv
import re
from pathlib import Path

REPO = Path(workflow.basedir)
LIBRARY = REPO / "src" / "geobayes"
LOGREG = config["experiments"]["logreg"]
ENV = "../envs/geobayes.yaml"


def logreg_posteriors():
    """Posterior names <dataset>_<inputs>-logreg of the configured logistic regressions."""
    return [f"{d}_{i}-logreg" for i in LOGREG["inputs"] for d in LOGREG["datasets"]]


def registry_files():
    """Regex-escaped relative paths of every registered data file (for wildcard constraints)."""
    with open(LIBRARY / "data" / "registry.tsv") as handle:
        return [re.escape(row["file"]) for row in csv.DictReader(handle, delimiter="\t")]


def _module_file(module):
    """File of a geobayes module name (package -> its __init__.py), or None."""
    relative = Path(*module.split(".")[1:])
    if not relative.parts:
        return LIBRARY / "__init__.py"
    for candidate in (LIBRARY / relative.with_suffix(".py"), LIBRARY / relative / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def library_closure(*roots):
    """The library files that the given root modules import, transitively (static, via ast).

    Rules list these as inputs so that editing one module reruns exactly the jobs that use
    it (Snakemake does not notice edits inside an imported package otherwise).
    """
    seen, stack = set(), [_module_file(f"geobayes.{root}") for root in roots]
    while stack:
        path = stack.pop()
        if path is None or path in seen:
            continue
        seen.add(path)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("geobayes"):
                stack.append(_module_file(node.module))
                stack.extend(_module_file(f"{node.module}.{a.name}") for a in node.names)
            elif isinstance(node, ast.Import):
                stack.extend(_module_file(a.name) for a in node.names if a.name.startswith("geobayes."))
    return sorted(str(p) for p in seen)


def prepared_data(wildcards):
    """Prepared data file of a posterior <dataset>-<model>."""
    dataset, model = wildcards.posterior.split("-")
    return f"data/prepared/{model}/{dataset}.npz"


def model_options(wildcards):
    """Experiment config slice of a posterior's model."""
    return config["experiments"][wildcards.posterior.split("-")[1]]


def method_code(wildcards):
    """Library files one approximation method depends on."""
    return library_closure(f"methods.{wildcards.method}", "pipeline.posteriors")


def reference_settings(wildcards):
    """NUTS settings of one posterior: config `reference` with its posterior_overrides applied."""
    settings = {k: v for k, v in config["reference"].items() if k != "posterior_overrides"}
    settings.update(config["reference"]["posterior_overrides"].get(wildcards.posterior, {}))
    return settings


def reference_draws():
    """Number of NUTS reference draws kept: chains x (samples // thin)."""
    reference = config["reference"]
    return reference["chains"] * (reference["samples"] // reference["thin"])


def maybe_protected(path):
    """Reference outputs are write-protected when reference.protect is true (paper scale)."""
    return protected(path) if config["reference"]["protect"] else path


def evaluations(posteriors, methods):
    """Evaluation files of every posterior x method x repetition."""
    return expand(
        "results/evaluation/{posterior}/{method}/seed{seed}/metrics.json",
        posterior=posteriors, method=methods, seed=range(config["approximation"]["repetitions"]),
    )


def wasserstein_mem_mb(wildcards):
    """Memory for exact EMD: the float64 cost matrix plus the simplex's working copies."""
    return 1000 + 5 * 8 * reference_draws() * config["approximation"]["samples"] // 2**20


wildcard_constraints:
    posterior=r"[a-z0-9_]+-[a-z0-9_]+",
    method="|".join(LOGREG["methods"]),
    seed=r"\d+",
    inputs="standardised|raw",
