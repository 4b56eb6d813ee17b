"""Per-job costs of a run, read from Snakemake's benchmark files, attributed to rules and papers.

Every rule writes a benchmark at its log's path under ``logs/benchmarks/`` (checked by
``tests/workflow/test_dag_plans.py``). A benchmark file holds the job's wall seconds (``s``), CPU
seconds (``cpu_time``) and peak resident memory (``max_rss``, MB). The rule of a file is found by
matching it against each rule's ``benchmark:`` pattern in ``workflow/rules/*.smk``; its paper by
the posterior in its path (the model part names the experiment, as ``experiment_of`` in
``common.smk``) or, for the studies without posteriors, by the rule. A job run in the run's warm
process (config ``warm_start``, ``geobayes.pipeline.warm_start``) spent its CPU in a fork that the
benchmark does not see: its log's last line gives the fork's CPU seconds (added here) and peak memory. Shared by
``bench_quick_dag.py`` and ``project_paper_scale.py``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from geobayes.pipeline.warm_start import recorded_usage

__all__ = ["JobCost", "PAPER_OF_EXPERIMENT", "rule_patterns", "read_job_costs", "model_experiments", "paper_of", "by_rule"]

#: The paper each experiment reproduces; "all" for the jobs every paper shares (the leaderboard,
#: the concatenated summary).
PAPER_OF_EXPERIMENT = {
    **dict.fromkeys(("logreg", "gaussian", "squiggle", "funnel", "banana", "bnn_yu", "bnn_scalability", "timing"),
                    "yu2024"),
    **dict.fromkeys(("glm", "synthetic", "usps", "growth", "rosenbrock", "lingauss", "bnn_hartmann",
                     "bnn_classifier", "bnn_hartmann_maps", "wg_timing"), "hartmann2026"),
    **dict.fromkeys(("bnn_bergamin", "bergamin_banana", "bergamin_pinwheel", "bergamin_uci", "bergamin_mnist"),
                    "bergamin2023"),
    **dict.fromkeys(("yu2023_funnel", "yu2023_mnist", "yu2023_cifar"), "yu2023"),
    **dict.fromkeys(("liu2018_blr", "liu2018_sam"), "liu2018"),
}

#: Rules without a posterior in their benchmark path: the paper by the rule (or by its wildcard).
_RULE_PAPER = {"time_bnn_scalability": "yu2024", "train_scalability_network": "yu2024", "prepare_sine": "yu2024",
               "figure_bnn_scalability": "yu2024", "figure_logreg": "yu2024", "figure_gaussian": "yu2024",
               "figure_banana": "yu2024", "banana_figure_data": "yu2024", "map_optima": "hartmann2026",
               "map_robustness": "hartmann2026", "figure_bnn_hartmann_maps": "hartmann2026",
               "prepare_bnn_classifier": "hartmann2026", "bnn_classifier_map": "hartmann2026",
               "bnn_classifier_approximate": "hartmann2026", "report_bnn_classifier": "hartmann2026",
               "prepare_usps": "hartmann2026", "prepare_growth": "hartmann2026", "prepare_lingauss": "hartmann2026",
               "prepare_banana": "yu2024", "contour_grids": "hartmann2026", "figure_wg_contours": "hartmann2026",
               "figure_wg_scatter": "hartmann2026", "figure_bnn_yu": "yu2024", "figure_bnn_bergamin": "bergamin2023",
               "figure_bnn_hartmann": "hartmann2026", "figure_leaderboard": "all", "summarise_all": "all"}

#: Papers whose rules carry the paper's name (yu2023_chain, prepare_liu2018_sam, figure_liu2018_fig1).
_PAPERS_NAMING_THEIR_RULES = ("yu2023", "liu2018")

_RULE_BLOCK = re.compile(r"^rule (\w+):\n(.*?)(?=^rule |^# |^def |\Z)", re.M | re.S)
#: Wildcards whose values are paths (a registered data file such as ``banana/banana.csv``).
_PATH_WILDCARDS = {"file"}
_POSTERIOR = re.compile(r"^([a-z0-9_]+)-([a-z0-9_]+)$")


class JobCost(NamedTuple):
    """One job's benchmark: its rule, paper, benchmark path (relative to the run) and costs."""

    rule: str
    paper: str
    path: str
    wall_s: float
    cpu_s: float
    max_rss_mb: float


def rule_patterns(repo: Path) -> list[tuple[str, re.Pattern]]:
    """(rule, regex of its benchmark path) for every rule of ``repo/workflow/rules``; the regex's
    named groups are the rule's wildcards."""
    patterns = []
    for path in sorted((repo / "workflow" / "rules").glob("*.smk")):
        for match in _RULE_BLOCK.finditer(path.read_text()):
            bench = re.search(r'benchmark:\n\s+"(logs/benchmarks/.+?\.tsv)"', match.group(2))
            if bench is None:
                continue
            regex, seen, literal_chars = "", set(), 0
            for literal, wildcard in re.findall(r"([^{]*)(?:\{(\w+)\})?", bench.group(1)):
                regex += re.escape(literal)
                literal_chars += len(literal)
                if wildcard:
                    value = ".+" if wildcard in _PATH_WILDCARDS else "[^/]+"
                    regex += f"(?P<{wildcard}>{value})" if wildcard not in seen else f"(?P={wildcard})"
                    seen.add(wildcard)
            patterns.append((match.group(1), re.compile(regex + "$"), literal_chars))
    # The most specific pattern first, so that the first match is the right rule: a literal path (one
    # job) before a pattern that could also match it, and network/{dataset}_seed{seed}-{model}
    # (train_classifier) before network/{posterior} (train_network).
    ordered = sorted(patterns, key=lambda item: (-item[2], item[1].pattern.count("(?P<")))
    return [(rule, regex) for rule, regex, _ in ordered]


def model_experiments(config: Mapping) -> dict[str, str]:
    """Model part of a posterior name -> its experiment, from the experiments' declarations."""
    owners = {}
    for experiment, options in config["experiments"].items():
        name = (options.get("posteriors") or {}).get("name")
        if name is None:
            continue
        model = name.split("-", 1)[1]
        for value in options.get("models", []) if model == "{models}" else [model]:
            owners[value] = experiment
    return owners


def paper_of(rule: str, wildcards: Mapping[str, str], owners: Mapping[str, str]) -> str:
    """The paper a job belongs to (see :data:`PAPER_OF_EXPERIMENT`); "all" for shared jobs."""
    for value in wildcards.values():
        match = _POSTERIOR.match(value)
        if match and match.group(2) in owners:
            return PAPER_OF_EXPERIMENT[owners[match.group(2)]]
        if value in PAPER_OF_EXPERIMENT:  # an experiment as a wildcard (Yu et al. 2023's {study})
            return PAPER_OF_EXPERIMENT[value]
    named = next((paper for paper in _PAPERS_NAMING_THEIR_RULES if paper in rule), None)
    if named:
        return named
    if rule in ("table", "reproduction_report"):
        name = next(iter(wildcards.values()))
        return next((paper for paper in set(PAPER_OF_EXPERIMENT.values()) if name.startswith(paper)), "all")
    if rule == "summarise":
        return PAPER_OF_EXPERIMENT.get(wildcards["experiment"], "all")
    if rule == "prepare_bnn":
        return {"bnn_yu": "yu2024", "bnn_bergamin": "bergamin2023", "bnn_hartmann": "hartmann2026"}.get(
            wildcards.get("bnn", ""), "all")
    if rule in ("prepare_logreg", "download"):
        return "all"  # shared inputs: Yu's and Hartmann's experiments read the same files
    return _RULE_PAPER.get(rule, "all")


def warm_usage(benchmark_twin: Path) -> tuple[float, float]:
    """CPU seconds and peak MB of the warm-process fork that ran a job, from its log (the
    benchmark's path under ``logs/`` with ``.log`` for ``.tsv``); (0, 0) for a job run in its own
    interpreter."""
    log = benchmark_twin.with_suffix(".log")
    usage = recorded_usage(log.read_text(errors="replace")) if log.is_file() else None
    return usage or (0.0, 0.0)


def read_job_costs(work: Path, repo: Path, owners: Mapping[str, str]) -> list[JobCost]:
    """Every benchmark file under ``work/logs/benchmarks``, attributed to its rule and paper.

    Raises
    ------
    ValueError
        If a benchmark file matches no rule's pattern (a rule renamed since the run).
    """
    patterns = rule_patterns(repo)
    costs = []
    for tsv in sorted((work / "logs" / "benchmarks").rglob("*.tsv")):
        relative = str(tsv.relative_to(work))
        rule, match = next(((r, m) for r, p in patterns if (m := p.match(relative))), (None, None))
        if rule is None:
            raise ValueError(f"{relative}: no rule of {repo / 'workflow/rules'} writes this benchmark")
        header, row = (line.split("\t") for line in tsv.read_text().splitlines()[-2:])
        values = dict(zip(header, row))
        number = lambda key: float(values[key]) if values.get(key, "NA") not in ("NA", "-") else float("nan")  # noqa: E731
        fork_cpu_s, fork_rss_mb = warm_usage(work / "logs" / tsv.relative_to(work / "logs" / "benchmarks"))
        costs.append(JobCost(rule, paper_of(rule, match.groupdict(), owners), relative, number("s"),
                             number("cpu_time") + fork_cpu_s, max(number("max_rss"), fork_rss_mb)))
    return costs


def by_rule(costs: Iterable[JobCost]) -> dict[str, list[JobCost]]:
    """The jobs of each rule."""
    grouped: dict[str, list[JobCost]] = {}
    for cost in costs:
        grouped.setdefault(cost.rule, []).append(cost)
    return dict(sorted(grouped.items()))
