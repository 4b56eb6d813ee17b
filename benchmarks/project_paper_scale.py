"""Budget of the paper-scale DAG, projected from measured job costs.

What ``snakemake --cores N --configfile config/config.yaml`` (or the SLURM profile) will cost, per
rule and per paper: CPU-hours, peak memory and the wall time on N nodes. Paper scale is too large to
run here whole (NUTS with 10 chains x 30,000 iterations per posterior, 5 x 10,000 samples per
approximation, exact W1 between 10,000 and 20,000 points), so it is projected:

1. the paper DAG's jobs come from a dry run of the paper config (``snakemake -n``: nothing runs);
   each job's benchmark path is its log's under ``logs/benchmarks/``;
2. each job's cost at quick scale is read from a finished quick run (``--quick-run``, e.g. the work
   directory of ``bench_quick_dag.py --workdir``); a job the quick DAG does not have takes the
   median of the quick jobs of its rule and experiment, else of its rule;
3. measured: where a job of the same rule and experiment ran at paper size (``--paper-run``: a
   run directory in which a few paper-scale targets ran, e.g. with ``--sample`` below), the job's
   paper cost is its quick cost times the median ratio paper/quick of those jobs' CPU seconds;
4. modelled otherwise: the rule's fixed cost (its cheapest quick job: start, imports, compilation)
   plus the rest of the job's quick cost times the ratio of the settings that size its work
   (:data:`WORK_RATIO`: draws, samples x repetitions, the n x R cost matrix of exact W1, epochs);
   a rule not listed there does the same work at both scales; Yu et al. (2023)'s chains
   (:func:`chain_epoch_costs`) from their own records instead: each quick chain's training epoch
   (``seconds_per_epoch``) times the paper's epochs and the network's size, plus the rest of the job;
5. the wall time on N nodes of c cores is at least max(total CPU / (N c), the longest job) (the
   DAG's dependencies can only add to it).

``--time-w1`` times one exact W1 at the paper's sizes (n x R and the floor's n x (R - n)); the
evaluation and floor jobs then cost their fixed cost plus repetitions x transports x that time.
``--sample`` runs the representative paper-size targets (listed in ``SAMPLE_TARGETS``) in
``--paper-run`` first (a copy of the workflow made there once; resumable).

Usage: ``.venv/bin/python benchmarks/project_paper_scale.py --quick-run DIR --paper-run DIR
[--sample] [--nodes 1 4 16] [--cores-per-node 32]``
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from geobayes.config import load_config
from geobayes.io import load_json, provenance, save_json
from job_costs import model_experiments, paper_of, read_job_costs, rule_patterns

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))

#: Paper-size targets run by --sample: the logistic regression's MAP, NUTS reference (10 chains x
#: 30,000 iterations) and approximations (5 x 10,000 samples) on one data set, cheap enough for 2
#: cores. Its exact W1 (10,000 x 20,000 points, 5 per job) is not among them: about 20 minutes a
#: job here, so the evaluation and floor rules stay modelled (and timed apart, benchmarks/README).
SAMPLE_TARGETS = (
    "results/reference/ripley_standardised-logreg/nuts.npz",
    *(f"results/approximation/ripley_standardised-logreg/euclidean/{method}/seed0/samples.npz"
      for method in ("ela", "rla_b", "rla_f")),
)


def snakemake(work: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``snakemake *args`` in ``work`` with the copied library first on the path."""
    env = dict(os.environ, PYTHONPATH=str(work / "src"))
    env.setdefault("GEOBAYES_DATA_MIRROR", str((REPO / ".." / "shared" / "data").resolve()))
    return subprocess.run([SNAKEMAKE, *args], cwd=work, env=env, capture_output=True, text=True, check=check)


def paper_jobs(work: Path, config: str) -> list[tuple[str, str]]:
    """(rule, benchmark path) of every job of the paper DAG, from the job blocks of a dry run
    (nothing runs): each block's ``rule`` line and ``log:`` line."""
    out = snakemake(work, "-n", "--configfile", config).stdout
    jobs, rule = set(), None
    for line in out.splitlines():
        if line.startswith(("rule ", "localrule ")):
            rule = line.split()[1].rstrip(":")
        elif line.startswith("    log: ") and rule is not None:
            log = line.removeprefix("    log: ").split(",")[0].split(" ")[0]
            jobs.add((rule, "logs/benchmarks/" + log.removeprefix("logs/").removesuffix(".log") + ".tsv"))
            rule = None
    if not jobs:
        raise ValueError(f"the dry run of {config} in {work} listed no job with a log")
    return sorted(jobs)


def time_exact_w1(n: int, r: int, dim: int = 3, seed: int = 0) -> float:
    """Seconds of one exact W1 (``geobayes.metrics.wasserstein1``, POT's network simplex) between
    ``n`` and ``r`` standard-normal points in ``dim`` dimensions, the evaluation's own call."""
    from geobayes.metrics.wasserstein import wasserstein1

    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal((n, dim)), rng.standard_normal((r, dim))
    start = time.process_time()
    wasserstein1(x, y, num_iter_max=10**10)
    return time.process_time() - start


def _emd_count(config, experiment) -> int:
    """Exact transports an evaluation of the experiment solves per repetition (W1 "full", "w2")."""
    listed = config["experiments"].get(experiment, {}).get("wasserstein", []) if experiment else []
    return sum(name in ("full", "w2") for name in listed) or 1


def _samples(config, experiment) -> float:
    """Samples per repetition of an experiment's approximations (its override, else the global)."""
    options = config["experiments"].get(experiment, {}) if experiment else {}
    return (options.get("approximation") or {}).get("samples", config["approximation"]["samples"])


def _draws(config) -> float:
    return config["reference"]["chains"] * config["reference"]["samples"] / config["reference"]["thin"]


def _train_documents(config) -> int:
    """Training documents of Liu & Zhu's topic model (``documents.train``; null: all of them)."""
    return config["experiments"]["liu2018_sam"]["documents"]["train"] or NEWS20_DIFFERENT_TRAIN_DOCUMENTS


#: Training documents of 20News-different (config/config.yaml, experiments.liu2018_sam.documents).
NEWS20_DIFFERENT_TRAIN_DOCUMENTS = 1666


def _sam_ratio(q, p, w) -> float:
    """An SAM run's work: epochs x training documents x particles. A paper job's particle count
    (its wildcard) is set against the median of the quick run's, whose jobs' median it is scaled from."""
    quick_particles = statistics.median(q["experiments"]["liu2018_sam"]["particles"])
    return (p["experiments"]["liu2018_sam"]["epochs"] * _train_documents(p) * int(w["particles"])) / (
        q["experiments"]["liu2018_sam"]["epochs"] * _train_documents(q) * quick_particles)


def _blr_ratio(q, p, w) -> float:
    """A Liu & Zhu logistic-regression run's work: iterations x particles of its panel."""
    panel = w["panel"]
    blr_q, blr_p = q["experiments"]["liu2018_blr"], p["experiments"]["liu2018_blr"]
    return (blr_p["panels"][panel]["iterations"] * blr_p["particles"]) / (
        blr_q["panels"][panel]["iterations"] * blr_q["particles"])


def _mlp_parameters(width: int) -> int:
    """Weights and biases of Yu et al. (2023)'s 784-N-N-10 MNIST network."""
    return 784 * width + width + width * width + width + width * 10 + 10


def _width_ratio(q, w) -> float:
    """Parameters of a Yu et al. (2023) chain's MLP (its posterior ``n{width}_{prior}-mlp``) over those
    at the median width of the quick run, whose chains stand in for it; 1 for other networks."""
    match = re.match(r"n(\d+)_", w.get("posterior", ""))
    widths = q["experiments"][w["study"]].get("widths")
    if not match or not widths:
        return 1.0
    return _mlp_parameters(int(match.group(1))) / _mlp_parameters(int(statistics.median(widths)))


def _subset_ratio(q, p, e) -> float:
    """Training images per class of an image classifier (``subset_per_class``); 1 elsewhere."""
    quick, paper = (c["experiments"].get(e, {}).get("subset_per_class") if e else None for c in (q, p))
    return paper / quick if quick and paper else 1.0


#: rule -> (quick config, paper config, experiment, the job's wildcards) -> the ratio paper/quick of
#: the work one job does, from the settings that size it. A rule not listed does the same work at
#: both scales.
WORK_RATIO = {
    "reference": lambda q, p, e, w: (p["reference"]["chains"] * (p["reference"]["warmup"] + p["reference"]["samples"]))
    / (q["reference"]["chains"] * (q["reference"]["warmup"] + q["reference"]["samples"])),
    "exact_reference": lambda q, p, e, w: p["reference"]["exact_draws"] / q["reference"]["exact_draws"],
    "approximate": lambda q, p, e, w: (p["approximation"]["repetitions"] * _samples(p, e))
    / (q["approximation"]["repetitions"] * _samples(q, e)),
    # exact W1 by the network simplex: the size of the n x R cost matrix, per repetition (a lower
    # bound: the simplex grows faster; --time-w1 replaces it by timed transports at paper size)
    "evaluate": lambda q, p, e, w: (p["approximation"]["repetitions"] * _samples(p, e) * _draws(p))
    / (q["approximation"]["repetitions"] * _samples(q, e) * _draws(q)),
    "floor": lambda q, p, e, w: (_samples(p, e) * _draws(p)) / (_samples(q, e) * _draws(q)),
    "predict_network": lambda q, p, e, w: _samples(p, e) / _samples(q, e),
    "time_sampling": lambda q, p, e, w: (p["timing"]["sequential_samples"] + p["timing"]["batched_samples"])
    / (q["timing"]["sequential_samples"] + q["timing"]["batched_samples"]),
    "time_wg": lambda q, p, e, w: p["wg_timing"]["samples"] / q["wg_timing"]["samples"],
    "train_scalability_network": lambda q, p, e, w: p["experiments"]["bnn_scalability"]["training"]["epochs"]
    / q["experiments"]["bnn_scalability"]["training"]["epochs"],
    "time_bnn_scalability": lambda q, p, e, w: sum(p["experiments"]["bnn_scalability"]["timing"][k] for k in
                                                ("sequential_samples", "batched_samples"))
    / sum(q["experiments"]["bnn_scalability"]["timing"][k] for k in ("sequential_samples", "batched_samples")),
    "bnn_classifier_approximate": lambda q, p, e, w: p["bnn_classifier"]["samples"] / q["bnn_classifier"]["samples"],
    "approximate_optimum": lambda q, p, e, w: p["bnn_hartmann_maps"]["samples"] / q["bnn_hartmann_maps"]["samples"],
    "predict_optimum": lambda q, p, e, w: p["bnn_hartmann_maps"]["samples"] / q["bnn_hartmann_maps"]["samples"],
    # Yu et al. (2023)'s chains: not here, from their own epochs (chain_epoch_costs, chain_cost)
    "yu2023_funnel_chain": lambda q, p, e, w: p["experiments"]["yu2023_funnel"]["steps"]
    / q["experiments"]["yu2023_funnel"]["steps"],
    # Liu & Zhu (2018)
    "liu2018_sam_run": lambda q, p, e, w: _sam_ratio(q, p, w),
    "liu2018_blr_run": lambda q, p, e, w: _blr_ratio(q, p, w),
    # Bergamin et al. (2023): training scales with the images per class; predictions with the samples
    "train_classifier": lambda q, p, e, w: _subset_ratio(q, p, e),
    "predict_classifier": lambda q, p, e, w: _samples(p, e) / _samples(q, e),
    # the Stan cross-check: exact W1 between chain halves, an n x n cost matrix (a lower bound, as "evaluate")
    "reference_crosscheck": lambda q, p, e, w: (_draws(p) / _draws(q)) ** 2,
}


def chain_epoch_costs(quick_run: Path, quick) -> dict[str, tuple[float, float]]:
    """Yu et al. (2023)'s quick chains, by benchmark path: (CPU seconds outside their training epochs, one epoch's).

    A chain job records its epochs' seconds (``epoch_seconds`` in its curves, one per epoch it ran, fewer where it
    diverged); ``seconds_per_epoch`` is their median after the first (which compiles). The cheapest chain is no fixed cost here (4 epochs of training are most of it), so the rule's
    generic model (cheapest job + the rest x 100) would leave a chain's 400 epochs at about 1,000 s where they
    take ~3,000. The rest of the job (start, data, compilation, every kept sample's evaluation) counts as fixed:
    a lower bound, as the paper's chains keep about 200 times the quick chains' 10 samples.
    """
    costs = {}
    for cost in quick:
        if cost.rule != "yu2023_chain" or not math.isfinite(cost.cpu_s):
            continue
        stem = quick_run / cost.path.replace("logs/benchmarks/", "results/", 1).removesuffix(".tsv")
        record, curves = stem.with_suffix(".json"), stem.with_suffix(".npz")
        missing = [str(f) for f in (record, curves) if not f.is_file()]
        if missing:
            raise SystemExit(f"project_paper_scale: no chain record {' or '.join(missing)} for {cost.path}")
        per_epoch = float(load_json(record)["seconds_per_epoch"])
        with np.load(curves) as stored:
            epochs = stored["epoch_seconds"].size
        costs[cost.path] = (max(cost.cpu_s - epochs * per_epoch, 0.0), per_epoch)
    return costs


def chain_cost(path: str, wildcards: dict, chains: dict[str, tuple[float, float]], epochs: float,
               width_ratio: float) -> float:
    """A paper chain's CPU seconds: its quick chain's (or, for a grid point the quick run lacks, the median of the
    quick chains of its sampler, else of all) rest of the job plus the paper's epochs x the quick epoch x
    ``width_ratio`` (parameters of its network over the quick run's)."""
    if path in chains:
        fixed, per_epoch = chains[path]
    else:
        sampler = [c for p, c in chains.items() if f"/{wildcards.get('sampler')}/" in p] or list(chains.values())
        fixed, per_epoch = (statistics.median(c[i] for c in sampler) for i in (0, 1))
    return fixed + epochs * per_epoch * width_ratio


def project(quick, paper_samples, jobs, owners, patterns, quick_config, paper_config, w1_seconds=None,
            chains=None):
    """Per-job projected CPU seconds and peak memory (see the module doc).

    A job's paper cost is its quick cost times the factor measured at paper size on a job of the
    same rule and experiment, where one ran; else modelled: the rule's fixed cost (its cheapest
    quick job) plus the rest of its quick cost times :data:`WORK_RATIO` of its rule. With
    ``w1_seconds`` (timed exact transports at paper size: ``{"evaluate": s, "floor": s}``) an
    evaluation costs its fixed cost plus repetitions x transports x that time. With ``chains``
    (:func:`chain_epoch_costs`) Yu et al. (2023)'s chains are modelled per epoch (:func:`chain_cost`)."""
    quick = [cost for cost in quick if math.isfinite(cost.cpu_s)]  # a job without a benchmark row
    quick_by_path = {c.path: c for c in quick}
    quick_by_rule: dict[str, list[float]] = {}
    for cost in quick:
        quick_by_rule.setdefault(cost.rule, []).append(cost.cpu_s)

    def experiment(rule, path):
        wildcards = next((m.groupdict() for r, p in patterns if r == rule and (m := p.match(path))), {})
        model = next((v.split("-")[1] for v in wildcards.values() if v.count("-") == 1 and "/" not in v), None)
        return wildcards, owners.get(model)

    # a paper job the quick DAG lacks (another seed, data set or method) takes the median of the quick
    # jobs of its rule and experiment (a CNN's approximation that of the CNN's), else of its rule
    quick_by_rule_experiment: dict[tuple[str, str | None], list[float]] = {}
    for cost in quick:
        quick_by_rule_experiment.setdefault((cost.rule, experiment(cost.rule, cost.path)[1]), []).append(cost.cpu_s)
    ratios: dict[tuple[str, str | None], list[float]] = {}
    peak: dict[str, float] = {}
    for cost in paper_samples:
        base = quick_by_path.get(cost.path)
        if base is not None and base.cpu_s > 0:
            ratios.setdefault((cost.rule, experiment(cost.rule, cost.path)[1]), []).append(cost.cpu_s / base.cpu_s)
        peak[cost.rule] = max(peak.get(cost.rule, 0.0), cost.max_rss_mb)
    factors = {key: statistics.median(r) for key, r in ratios.items()}
    projected = []
    for rule, path in jobs:
        wildcards, exp = experiment(rule, path)
        base = quick_by_path.get(path)
        stand_ins = quick_by_rule_experiment.get((rule, exp)) or quick_by_rule.get(rule, [float("nan")])
        quick_cpu = base.cpu_s if base is not None else statistics.median(stand_ins)
        if (rule, exp) in factors:
            cpu, source = quick_cpu * factors[rule, exp], "measured"
        elif rule == "yu2023_chain":
            if not chains:
                raise SystemExit("project_paper_scale: the paper DAG has Yu et al. (2023)'s chains but the quick run "
                                 "none to model them from")
            epochs = paper_config["experiments"][wildcards["study"]]["schedule"]["epochs"]
            cpu = chain_cost(path, wildcards, chains, epochs, _width_ratio(quick_config, wildcards))
            source = "modelled"
        elif w1_seconds and rule in w1_seconds and math.isfinite(quick_cpu):
            transports = paper_config["approximation"]["repetitions"] * _emd_count(paper_config, exp)
            cpu, source = min(quick_by_rule[rule]) + transports * w1_seconds[rule], "measured"
        else:
            fixed = min(quick_by_rule.get(rule, [0.0]))
            ratio = WORK_RATIO[rule](quick_config, paper_config, exp, wildcards) if rule in WORK_RATIO else 1.0
            cpu, source = fixed + (quick_cpu - fixed) * ratio, "modelled" if rule in WORK_RATIO else "same work"
        projected.append({"rule": rule, "paper": paper_of(rule, wildcards, owners), "experiment": exp, "path": path,
                          "quick_cpu_s": quick_cpu, "cpu_s": cpu, "source": source, "in_quick_run": base is not None,
                          "quick_peak_mb": base.max_rss_mb if base is not None else float("nan")})
    return projected, factors, peak


def summarise(projected, peak, group, nodes, cores):
    """Per group (rule or paper): jobs, CPU-hours, the longest job, peak memory, the factor's source."""
    table = {}
    for job in projected:
        row = table.setdefault(job[group], {"jobs": 0, "cpu_h": 0.0, "longest_job_h": 0.0, "measured": 0,
                                            "modelled": 0, "same work": 0, "not_in_quick_run": 0, "peak_mb": 0.0})
        cpu = job["cpu_s"] if math.isfinite(job["cpu_s"]) else 0.0
        row["jobs"] += 1
        row["cpu_h"] += cpu / 3600
        row["longest_job_h"] = max(row["longest_job_h"], cpu / 3600)
        row[job["source"]] += 1
        row["not_in_quick_run"] += not job["in_quick_run"]
        measured_peak = peak.get(job["rule"])
        candidate = measured_peak if measured_peak is not None else job["quick_peak_mb"]
        if math.isfinite(candidate):
            row["peak_mb"] = max(row["peak_mb"], candidate)
    total = sum(r["cpu_h"] for r in table.values())
    longest = max(r["longest_job_h"] for r in table.values())
    walls = {n: max(total / (n * cores), longest) for n in nodes}
    return dict(sorted(table.items())), total, walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick-run", type=Path, required=True, help="a finished quick run (its logs/benchmarks)")
    parser.add_argument("--paper-run", type=Path, required=True, help="where paper-size sample targets ran")
    parser.add_argument("--config", default="config/config.yaml")
    parser.add_argument("--quick-config", default="config/quick.yaml", help="the quick run's config (in --quick-run)")
    parser.add_argument("--sample", action="store_true", help="run SAMPLE_TARGETS at paper size in --paper-run first")
    parser.add_argument("--cores", type=int, default=2, help="cores for --sample")
    parser.add_argument("--time-w1", action="store_true",
                        help="time one exact W1 at the paper's evaluation and floor sizes (minutes, ~8 GB)")
    parser.add_argument("--w1-seconds", type=float, nargs=2, metavar=("EVALUATION", "FLOOR"),
                        help="CPU seconds of one exact W1 at the paper's sizes, from an earlier --time-w1")
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--cores-per-node", type=int, default=32)
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "paper_scale_projection.json"))
    parser.add_argument("--keep-jobs", action="store_true",
                        help="write every job's projection into the record too (about 2 MB at today's paper DAG)")
    args = parser.parse_args()
    paper_run = args.paper_run.resolve()
    if not (paper_run / "Snakefile").exists():
        from bench_quick_dag import copy_workflow

        paper_run.mkdir(parents=True, exist_ok=True)
        copy_workflow(REPO, paper_run)
    if args.sample:
        snakemake(paper_run, *SAMPLE_TARGETS, "--cores", str(args.cores), "--configfile", args.config, "--quiet",
                  "--keep-going", check=False)
    paper_config = load_config(paper_run / args.config)
    quick_config = load_config(args.quick_run.resolve() / args.quick_config)
    owners = model_experiments(paper_config)
    quick = read_job_costs(args.quick_run.resolve(), args.quick_run.resolve(), owners)
    samples = read_job_costs(paper_run, paper_run, owners)
    jobs = paper_jobs(paper_run, args.config)
    w1_seconds = dict(zip(("evaluate", "floor"), args.w1_seconds)) if args.w1_seconds else None
    if args.time_w1:
        n, r = int(paper_config["approximation"]["samples"]), int(_draws(paper_config))
        w1_seconds = {"evaluate": time_exact_w1(n, r), "floor": time_exact_w1(n, r - n)}
        print(f"exact W1 CPU seconds: {n} x {r} {w1_seconds['evaluate']:.1f}, {n} x {r - n} {w1_seconds['floor']:.1f}")
    chains = chain_epoch_costs(args.quick_run.resolve(), quick)
    projected, factors, peak = project(quick, samples, jobs, owners, rule_patterns(paper_run), quick_config,
                                       paper_config, w1_seconds, chains)
    record = {"config": args.config, "quick_run": str(args.quick_run), "paper_run": str(paper_run),
              "measured_factors": {f"{rule}:{exp}": f for (rule, exp), f in factors.items()},
              **({"jobs": projected} if args.keep_jobs else {}),
              "exact_w1_cpu_s": w1_seconds, "paper_samples": [c._asdict() for c in samples], "provenance": provenance()}
    for group in ("rule", "paper"):
        table, total, walls = summarise(projected, peak, group, args.nodes, args.cores_per_node)
        record[f"per_{group}"] = table
        print(f"per {group}:")
        for name, row in table.items():
            source = f"measured {row['measured']}, modelled {row['modelled']}, same work {row['same work']}" + (
                f"; {row['not_in_quick_run']} not in the quick run" if row["not_in_quick_run"] else "")
            print(f"  {name:28s} jobs {row['jobs']:5d}  {row['cpu_h']:8.2f} CPU-h  longest {row['longest_job_h']:6.2f} h"
                  f"  peak {row['peak_mb']:7.0f} MB  {source}")
    record.update(total_cpu_h=total, wall_h_lower_bound={str(n): w for n, w in walls.items()},
                  cores_per_node=args.cores_per_node)
    print(f"total {total:.1f} CPU-hours; wall on " + ", ".join(
        f"{n} node(s) x {args.cores_per_node} cores >= {w:.1f} h" for n, w in walls.items()))
    save_json(args.output, record)


if __name__ == "__main__":
    main()
