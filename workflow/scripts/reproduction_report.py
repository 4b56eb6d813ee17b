"""Snakemake script: the reproduction report of Yu et al. (2024) -- every reproduced table, our
value (mean ± std over runs) beside the paper's (from the cited paper-value files), cells
outside the paper's spread flagged, and the deliberate deviations."""

import pandas as pd

from geobayes.io import save_text
from geobayes.pipeline.step import logged_to
from geobayes.report.comparison import aggregate_long, compare_long, comparison_markdown
from geobayes.report.paper_values import load_paper_values
from geobayes.report.reproduction_report import ReportSection, reproduction_report_markdown

CITATION = ('Yu, Hartmann, Williams, Girolami, Klami, "Riemannian Laplace Approximation with the Fisher '
            'Metric", AISTATS 2024 (../shared/papers/yu2024-rla-fisher-metric.txt)')
KEYS = ["inputs", "dataset", "method"]
W_AND_T = {"W": "wasserstein1", "T": "T"}

smk = snakemake  # noqa: F821


def section(title, description, ours, paper_path, caption):
    """One report section: aggregate, compare with the paper file, render."""
    compared = compare_long(ours, load_paper_values(paper_path), keys=KEYS)
    body = comparison_markdown(compared, title=title, keys=KEYS, caption=caption)
    return ReportSection(title=title, description=description, body=body), compared


def without_ela_t(long):
    """ELA has no T in the paper (it solves no ODE)."""
    return long[~((long["method"] == "ela") & (long["metric"] == "T"))]


with logged_to(smk.log[0]) as log:
    sections, flagged = [], 0
    logreg = pd.read_csv(smk.input.logreg_summary)
    logreg = logreg[logreg["anchor"] == smk.params.logreg_anchor]
    table2 = without_ela_t(aggregate_long(logreg[logreg["method"] != "rla_ef"], KEYS, W_AND_T))
    banana = pd.read_csv(smk.input.banana_summary).assign(dataset="banana")
    banana["inputs"] = banana["anchor"]
    table1 = without_ela_t(aggregate_long(banana, KEYS, W_AND_T))
    squiggle = pd.read_csv(smk.input.squiggle_summary).assign(dataset="squiggle")
    squiggle["inputs"] = squiggle["setting"]
    evaluations = aggregate_long(squiggle[squiggle["method"] != "ela"], KEYS, {"T": "T"})
    timing = pd.read_csv(smk.input.timing)
    seconds = pd.concat([
        timing.assign(metric="seconds", mean=timing["per_sample_s"], n_failed=timing["failed_sequential"],
                      n_samples=timing["n_sequential"]),
        timing.assign(metric="seconds_batched", mean=timing["batched_s_per_sample"],
                      n_failed=timing["failed_batched"], n_samples=timing["n_batched"]),
    ])[KEYS + ["metric", "mean", "n_failed", "n_samples"]].assign(std=float("nan"), n_runs=1)
    specs = [
        ("Table 1: banana", "Rows: MAP anchor (inputs column; Euclidean MAP with Hessian precision, Hausdorff MAP "
         "with Fisher precision). W = W1 to the NUTS reference, T = mean function evaluations per sample. rla_ef: "
         "empirical Fisher (Supp. 16.6).", table1, smk.input.banana_paper, "Yu et al. (2024), Table 1 and Supp. 16.6"),
        ("Table 2: logistic regression", "W to the NUTS reference and T, five data sets, standardised and raw inputs.",
         table2, smk.input.logreg_paper, "Yu et al. (2024), Table 2"),
        ("Table 4: time per sample", "Seconds per sample, one sample at a time (`seconds`, compared with the paper's "
         "SciPy one-at-a-time timings) and batched (`seconds_batched`, not in the paper), measured on this machine "
         "in one process. Absolute seconds depend on the CPU: compare ratios between methods.",
         seconds, smk.input.timing_paper, "Yu et al. (2024), Table 4"),
        ("Figs. 4 and 8: squiggle function evaluations", "Mean function evaluations T per sample on the easy and "
         "difficult squiggle (the paper quotes them in the captions of Figs. 4 and 8).", evaluations,
         smk.input.squiggle_paper, "Yu et al. (2024), Figs. 4 and 8"),
    ]
    if "empirical_fisher_paper" in smk.input.keys():
        table6 = aggregate_long(logreg[logreg["method"] == "rla_ef"], KEYS, W_AND_T)
        specs.append(("Table 6: empirical Fisher", "RLA with the empirical Fisher metric (numerical Christoffel "
                      "symbols) on logistic regression.", table6, smk.input.empirical_fisher_paper,
                      "Yu et al. (2024), Table 6"))
    for title, description, ours, paper, caption in specs:
        made, compared = section(title, description, ours, paper, caption)
        sections.append(made)
        flagged += int(compared["outside_spread"].sum())
    with open(smk.input.deviations) as handle:
        deviations = [line[2:].strip() for line in handle if line.startswith("- ")]
    scale = {"approximation samples per run": smk.params.scale["samples"],
             "repetitions": smk.params.scale["repetitions"],
             "NUTS reference draws": smk.params.scale["reference_draws"],
             "exact reference draws": smk.params.exact_draws}
    text = reproduction_report_markdown(sections, paper_citation=CITATION, deviations=deviations, scale=scale,
                                        title="Reproduction report: Yu et al. (2024)")
    save_text(smk.output[0], text)
    print(f"{len(sections)} sections, {flagged} cells outside the paper's spread", file=log)
