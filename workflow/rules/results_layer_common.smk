# Helpers of the results layer (included by common.smk): the records each experiment's tidy summary
# reads, the table and report specs of workflow/resources/tables.yaml, the run's scale quoted in
# captions, and the targets of rule all. Functions only (no rules).

def experiment_evaluations(experiment, methods=None):
    """Evaluation files of one experiment: posterior x anchor x method x repetition.

    ``methods`` restricts the methods (default: every method run on each posterior)."""
    files = []
    for posterior in experiment_posteriors(experiment):
        chosen = [m for m in posterior_methods(posterior) if methods is None or m in methods]
        files += expand(
            "results/evaluation/{posterior}/{anchor}/{method}/seed{seed}/metrics.json",
            posterior=posterior, anchor=EXPERIMENTS[experiment]["anchors"], method=chosen,
            seed=range(config["approximation"]["repetitions"]),
        )
    return files


#: Experiment -> function () -> the record files its summary tidies, for experiments whose records
#: are not evaluations (e.g. network predictions, the scalability timings); each rule file registers
#: its own, so summary_inputs names no experiment.
SUMMARY_RECORDS = {}


def summary_inputs(wildcards):
    """Result records summarised for experiment {experiment}: its evaluations, the Monte Carlo
    floors of its posteriors (floor_common.smk) and the timing records
    (results/<kind>/<posterior>[/...].json) of its posteriors, or the records its rule file
    registered in SUMMARY_RECORDS (each becomes tidy rows, geobayes.report.tidy)."""
    experiment = wildcards.experiment
    if experiment in SUMMARY_RECORDS:
        return SUMMARY_RECORDS[experiment]()
    if experiment not in EXPERIMENTS:
        raise ValueError(f"results/summary/{experiment}.csv: no experiment {experiment!r} in config key experiments "
                         f"or SUMMARY_RECORDS ({', '.join([*EXPERIMENTS, *SUMMARY_RECORDS])})")
    posteriors = set(experiment_posteriors(experiment))
    timings = [f for f in timing_files() + wg_timing_files() if Path(f).parts[2].removesuffix(".json") in posteriors]
    return experiment_evaluations(experiment) + floor_files(experiment) + timings


PAPER_VALUES = REPO / "workflow" / "resources" / "paper_values"

def scale():
    """Run scale quoted in table captions and the reproduction report."""
    return {
        "samples": config["approximation"]["samples"],
        "repetitions": config["approximation"]["repetitions"],
        "reference_draws": reference_draws(),
        "exact_draws": config["reference"]["exact_draws"],
    }

def first_seed_samples(posterior, anchors, methods):
    """Repetition-0 samples of a posterior for each anchor x method (figure inputs)."""
    return expand("results/approximation/{posterior}/{anchor}/{method}/seed0/samples.npz",
                  posterior=posterior, anchor=anchors, method=methods)

TABLES_FILE = str(REPO / "workflow" / "resources" / "tables.yaml")
with open(TABLES_FILE) as _handle:
    _TABLES_DOCUMENT = yaml.safe_load(_handle)
# The specs are validated here, so a typo in tables.yaml stops the run before any job.
from geobayes.report.table_spec import load_report_specs, load_table_specs

load_report_specs(_TABLES_DOCUMENT)
TABLES = load_table_specs(_TABLES_DOCUMENT)
REPORTS = _TABLES_DOCUMENT.get("reports", {})
#: Experiments with W-evaluated approximations (their tidy summaries make results/summary/all.csv).
SUMMARISED_EXPERIMENTS = sorted({e for spec in TABLES.values() for e in spec.experiments})


def table_summaries(spec):
    """Tidy summaries a table reads."""
    return [f"results/summary/{experiment}.csv" for experiment in spec.experiments]


def table_paper_files(spec):
    """Paper-values files a table puts beside ours."""
    return [str(PAPER_VALUES / name) for name in spec.paper]


def yu2024_tables():
    """Yu et al. (2024)'s tables whose rows this configuration runs: those of its report entry
    (reports.yu2024 of tables.yaml), Table 6 only with its data sets."""
    names = REPORTS["yu2024"]["tables"]
    return [n for n in names if n != "yu2024_table6" or LOGREG["empirical_fisher_datasets"]]


def final_targets():
    """Every table, figure and report of the configured experiments (rule all)."""
    targets = [f"tables/{name}.tex" for name in [*yu2024_tables(), "leaderboard"]]
    if crosscheck_posteriors():
        targets.append("tables/reference_crosscheck.tex")
    targets += ["figures/logreg.pdf", "figures/logreg.png", "figures/leaderboard.pdf", "reports/yu2024_reproduction.md",
                "results/summary/all.csv"]
    if 2 in EXPERIMENTS["gaussian"]["dims"]:
        targets += ["figures/gaussian_2d.pdf", "figures/gaussian_bias_vs_dimension.pdf"]
    for experiment in ("squiggle", "funnel", "banana"):
        targets += [f"figures/samples_{p}.pdf" for p in experiment_posteriors(experiment)]
    if set(EXPERIMENTS["banana"]["anchors"]) == {"euclidean", "hausdorff"} and "rla_f" in EXPERIMENTS["banana"]["methods"]:
        targets += ["figures/banana_metric.pdf", "figures/banana_map_anchors.pdf"]
    return targets
