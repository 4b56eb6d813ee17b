"""Workflow tests on a tiny real end-to-end run: its outputs, reruns after edits, kill and resume.

The tests that need no run (lint, the paper-scale plan, config errors) are in
test_dag_plans.py, so that the other pytest worker runs them while this file's run goes on."""

from __future__ import annotations

import base64
import csv
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from io import StringIO
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
import pytest
import yaml

from data_mirror import missing
from snakemake_runs import MIRROR, REPO, SNAKEMAKE, copy_repository, declared_count, local_environment, run_snakemake

from geobayes.io import load_json
from geobayes.pipeline.warm_start import DIRECTORY_PREFIX, abandoned, recorded_usage
from geobayes.report.tidy import WALL_CLOCK_METRICS, load_tidy, tidy_frame, wide

pytestmark = pytest.mark.workflow


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """Copy of the repository's workflow and library in which config/tiny.yaml is run for real."""
    if not MIRROR.is_dir():
        missing("the data mirror directory")  # a skip here, a failure under CI=true
    work = copy_repository(tmp_path_factory.mktemp("repo"))
    # 404 jobs (six papers' experiments at tiny scale; ~10-15 min on 2 cores): allow an hour.
    result = run_snakemake("--cores", "2", "--configfile", "config/tiny.yaml", cwd=work, timeout=3600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    (work / "tiny_run.log").write_text(result.stdout + result.stderr)
    return work


def test_tiny_run_prints_progress_with_the_time_left(tiny_run):
    """Under Snakemake's "N of M steps" line, once enough is done, an estimate of the time left
    (workflow/rules/progress.smk); none after the last job."""
    output = (tiny_run / "tiny_run.log").read_text()
    steps = re.findall(r"^(\d+) of (\d+) steps \(\d+%\) done$", output, re.M)
    estimates = re.findall(r"^(about (\d+ h )?\d+ min|under a minute) left at this run's pace$", output, re.M)
    assert steps and steps[-1][0] == steps[-1][1]
    assert len(estimates) > len(steps) // 2, (len(estimates), len(steps))
    last = output.split(f"{steps[-1][0]} of {steps[-1][1]} steps (100%) done\n")[-1]
    assert not last.startswith(("about", "under")), last[:200]  # nothing is left after the last job


def test_tiny_run_produces_tables_and_figure(tiny_run):
    for name in ("tables/yu2024_table2.tex", "tables/yu2024_table2.md", "tables/yu2024_table2.csv",
                 "figures/logreg.pdf", "figures/logreg.png", "tables/yu2024_table6.tex", "tables/yu2024_table4.tex",
                 "tables/yu2024_table1.tex", "tables/yu2024_squiggle_evaluations.tex", "tables/leaderboard.tex",
                 "figures/leaderboard.pdf", "results/summary/all.csv",
                 "figures/gaussian_2d.pdf", "figures/gaussian_bias_vs_dimension.pdf",
                 "figures/samples_easy-squiggle.pdf", "figures/samples_neal-funnel.pdf",
                 "figures/samples_yu2024-banana.pdf", "figures/banana_metric.pdf",
                 "figures/banana_map_anchors.pdf", "reports/yu2024_reproduction.md"):
        assert (tiny_run / name).stat().st_size > 0, name
    runs = wide(load_tidy(tiny_run / "results/summary/logreg.csv"))
    summary = runs[runs["anchor"] != ""]  # the evaluations (floors and timings have no anchor)
    assert sorted(summary["method"]) == ["ela", "rla_b", "rla_ef", "rla_f"]
    banana = wide(load_tidy(tiny_run / "results/summary/banana.csv"))
    assert "rla_blog" in set(banana["method"]) and np.isfinite(banana["wasserstein1"]).all()
    assert np.isfinite(summary["wasserstein1"]).all() and (summary["wasserstein1"] > 0).all()
    assert (summary["n_failed"] == 0).all()
    # the geodesic methods' evaluations carry their solves' speed drift, tabulated beside Table 2
    geodesic = summary["method"].isin(["rla_b", "rla_ef", "rla_f"])
    assert (summary.loc[geodesic, "max_speed_drift"] >= 0).all() and summary.loc[~geodesic, "max_speed_drift"].isna().all()
    drift = pd.read_csv(tiny_run / "tables/yu2024_geodesic_accuracy.csv")
    assert set(drift["method"]) == {"rla_b", "rla_f"} and (drift["mean"] >= 0).all()
    # the Monte Carlo floor of every evaluated posterior stands in the leaderboard beside the methods
    floors = runs[runs["method"] == "floor"]
    assert len(floors) == 1 and 0 < floors["wasserstein1"].iloc[0] < summary["wasserstein1"].max()
    leaderboard = pd.read_csv(tiny_run / "tables/leaderboard.csv", keep_default_na=False)
    assert "floor" in set(leaderboard["method"]) and "ripley_standardised-logreg" in set(leaderboard["posterior"])
    # ... and every approximation's cost: seconds per sample of its draw (positive) and the job's
    # compile seconds; every row is an evaluated run (a Table 4 timing has no anchor and no row here)
    cost = leaderboard[leaderboard["method"] != "floor"].pivot_table("mean", ["posterior", "anchor", "method"], "metric")
    assert (cost["seconds_per_draw"] > 0).all() and (cost["compile_seconds"] >= 0).all()
    assert "" not in set(leaderboard.loc[leaderboard["method"] != "floor", "anchor"])
    assert "Ripl" in (tiny_run / "tables/yu2024_table2.tex").read_text()
    assert set(load_tidy(tiny_run / "results/summary/all.csv")["experiment"]) >= {"logreg", "banana", "glm"}


def test_tiny_run_stan_references_and_their_crosscheck(tiny_run):
    """The cross-checked posteriors get a Stan reference beside NumPyro's (reference.crosscheck): it passes the
    same checks, records its installation, and agrees with NumPyro's within the floor; the table and the
    reproduction report say so."""
    config = yaml.safe_load((tiny_run / "config/tiny.yaml").read_text())
    posteriors = config["reference"]["crosscheck"]["posteriors"]
    for posterior in posteriors:
        stan = load_json(tiny_run / f"results/reference/{posterior}/nuts_stan.json")
        assert stan["passed"] and stan["method_args"]["backend"] == "stan"
        assert stan["method_args"]["interface"] in ("pystan", "cmdstanpy") and stan["method_args"]["sample_seconds"] > 0
        numpyro = load_json(tiny_run / f"results/reference/{posterior}/nuts.json")
        assert numpyro["method_args"]["backend"] == "numpyro"
        # the same chains, iterations and initial point
        assert {k: stan["method_args"][k] for k in ("chains", "samples", "warmup", "thin", "init_position")} == \
               {k: numpyro["method_args"][k] for k in ("chains", "samples", "warmup", "thin", "init_position")}
    pair = wide(load_tidy(tiny_run / "results/summary/reference_crosscheck.csv"))
    between = pair[pair["method"] == "numpyro_vs_stan"].set_index("posterior")
    assert sorted(between.index) == sorted(posteriors)
    assert (between["disagrees"] == 0).all() and (between["floor_ratio"] < 1.5).all(), between
    floors = pair[pair["method"].isin(["numpyro", "stan"])]
    assert len(floors) == 2 * len(posteriors) and (floors["wasserstein1"] > 0).all() and (floors["passed"] == 1).all()
    assert (tiny_run / "tables/reference_crosscheck.tex").stat().st_size > 0
    report = (tiny_run / "reports/yu2024_reproduction.md").read_text()
    assert f"All {len(posteriors)} cross-checked NUTS references agree with Stan's" in report


def test_tiny_run_hartmann_outputs(tiny_run):
    """Every Hartmann et al. (2026) artefact exists, WG inverts every sample of the affine models
    exactly, WG is exact on the Gaussian-image targets, the timings are tidy rows per method and
    Table 1 keeps the paper's rows without a result of ours (Microarray)."""
    for name in ("tables/hartmann2026_table1.tex", "tables/hartmann2026_table1.csv", "tables/hartmann2026_timing.tex",
                 "tables/hartmann2026_timing.csv", "figures/wg_synthetic.pdf", "figures/wg_shapes.pdf",
                 "figures/wg_usps.pdf", "figures/wg_growth.pdf", "reports/hartmann2026_reproduction.md"):
        assert (tiny_run / name).stat().st_size > 0, name
    glm = wide(load_tidy(tiny_run / "results/summary/glm.csv"))
    glm = glm[glm["anchor"] != ""]  # the evaluations (floors and timings have no anchor)
    assert {p.split("-")[1] for p in glm["posterior"]} == set(TINY_CONFIG["experiments"]["glm"]["models"])
    assert set(glm["method"]) == {"ela", "wg"}
    assert np.isfinite(glm["wasserstein2"]).all() and (glm["n_failed"] == 0).all()
    assert (glm.loc[glm["method"] == "wg", "max_residual"] < 1e-6).all()
    # the samples WG's Newton left to its Levenberg-Marquardt fallback are counted beside the metric
    assert (glm.loc[glm["method"] == "wg", "n_fallback"] >= 0).all()
    timing = load_json(tiny_run / "results/timing_wg/sharp2022-growth.json")
    assert timing["threads"] == TINY_CONFIG["timing_threads"] == 1
    assert {r["method"] for r in timing["per_method"]} == {"wg", "ela", "rla_f", "nuts"}
    assert {r["method"] for r in timing["per_method"] if "wg_time_ratio" in r} == {"ela", "rla_f", "nuts"}
    # the approximations' calls interleaved (geobayes.metrics.equal_count_timing): median and fastest recorded
    assert all(len(r["calls_s"]) == TINY_CONFIG["wg_timing"]["repeats"] and r["min_per_sample_s"] <= r["per_sample_s"]
               for r in timing["per_method"] if r["method"] != "nuts")
    growth = load_tidy(tiny_run / "results/summary/growth.csv")
    assert set(growth.loc[growth["metric"] == "seconds_per_sample", "method"]) == {"wg", "ela", "rla_f", "nuts"}
    table1 = pd.read_csv(tiny_run / "tables/hartmann2026_table1.csv")
    assert (table1.loc[table1["dataset"] == "microarray", "n_runs"] == 0).all()
    assert table1.loc[table1["dataset"] == "microarray", "paper_mean"].notna().all()
    assert "Table 1" in (tiny_run / "reports/hartmann2026_reproduction.md").read_text()


def test_tiny_run_records_sidecars_and_checks(tiny_run):
    reference = load_json(tiny_run / "results/reference/ripley_standardised-logreg/nuts.json")
    assert all(reference["checks"].values())
    sidecar = load_json(tiny_run / "results/approximation/ripley_standardised-logreg/euclidean/rla_f/seed0/samples.json")
    assert sidecar["device"] == "cpu"
    assert sidecar["provenance"]["packages"]["jax"]
    assert sidecar["result_codes"] == {"0": sidecar["n_samples"]}
    assert sidecar["config"]["approximation"]["ode"]["max_steps"] == 4096


def test_tiny_run_compile_effort_follows_fast_compile(tiny_run):
    """Config `fast_compile` (tiny: every experiment with MAP, reference and approximation jobs but the
    logistic regression): the jobs of a listed experiment compiled `fast` programs, those of the logistic
    regression `optimised` ones, and each sidecar records which (geobayes.pipeline.compile_effort)."""
    fast = TINY_CONFIG["fast_compile"]
    assert {"gaussian", "glm"} <= set(fast["experiments"]) and "logreg" not in fast["experiments"]
    assert fast["rules"] == ["map", "reference", "approximate"] and not fast["except_methods"]
    expected = {
        "results/map/d2-gaussian/euclidean.json": "fast",
        "results/approximation/d2-gaussian/euclidean/rla_b/seed0/samples.json": "fast",
        "results/map/ripley-bernreg/euclidean.json": "fast",
        "results/reference/ripley-bernreg/nuts.json": "fast",
        "results/approximation/ripley-bernreg/euclidean/wg/seed0/samples.json": "fast",
        "results/map/ripley_standardised-logreg/euclidean.json": "optimised",
        "results/reference/ripley_standardised-logreg/nuts.json": "optimised",
        "results/approximation/ripley_standardised-logreg/euclidean/rla_b/seed0/samples.json": "optimised",
    }
    recorded = {path: load_json(tiny_run / path)["compile_effort"] for path in expected}
    assert recorded == expected


def test_bench_compile_effort_replays_a_job_of_the_run_at_both_efforts(tiny_run, tmp_path):
    """benchmarks/bench_compile_effort.py rebuilds a job of a run from its tree (sidecar, MAP, the data file
    Snakemake recorded) and draws it with optimised and with fast programs: both compile, and they draw the
    same samples to round-off."""
    output = tmp_path / "effort.json"
    job = "d2-gaussian/euclidean/rla_b"
    result = subprocess.run([sys.executable, "benchmarks/bench_compile_effort.py", "--tree", str(tiny_run),
                             "--jobs", job, "--repeats", "1", "--output", str(output)],
                            cwd=REPO, env=local_environment(), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (row,) = load_json(output)["jobs"]
    assert row["job"] == job and row["optimised_compile_s"] > 0 and row["fast_compile_s"] > 0
    assert row["max_abs_diff"] < 1e-10


def test_tiny_run_counts_the_evaluations_of_each_jobs_solver(tiny_run):
    """The tiny Gaussian's geodesics run Bosh3 (its experiment's ``approximation.ode.solver``), the squiggle's
    Dopri5: each job's cost T is its solver's evaluations a step times its mean steps."""
    for job, solver, per_step in (("d2-gaussian/euclidean/rla_b", "bosh3", 3), ("d2-gaussian/euclidean/rla_f", "bosh3", 3),
                                  ("easy-squiggle/hausdorff/rla_b", "dopri5", 6)):
        record = load_json(tiny_run / f"results/approximation/{job}/seed0/samples.json")
        assert record["config"]["approximation"]["ode"]["solver"] == solver, job
        assert record["mean_steps"] > 0 and record["T"] == pytest.approx(per_step * record["mean_steps"]), job


def test_bench_ode_solver_replays_a_job_of_the_run_with_each_solver(tiny_run, tmp_path):
    """benchmarks/bench_ode_solver.py draws a job of a run with Dopri5 and Bosh3 and measures both against a
    tight solve: both near it, with steps of their own (the solver reached the job)."""
    output = tmp_path / "solver.json"
    job = "d2-gaussian/euclidean/rla_b"
    result = subprocess.run([sys.executable, "benchmarks/bench_ode_solver.py", "--tree", str(tiny_run),
                             "--jobs", job, "--repeats", "1", "--accuracy-samples", "4", "--output", str(output)],
                            cwd=REPO, env=local_environment(), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    (row,) = load_json(output)["jobs"]
    solvers = row["solvers"]
    assert row["job"] == job and set(solvers) == {"dopri5", "bosh3"}
    assert solvers["dopri5"]["speedup_over_dopri5"] == 1.0
    assert solvers["bosh3"]["mean_steps"] != solvers["dopri5"]["mean_steps"]
    for entry in solvers.values():
        assert entry["n_failed"] == 0 and entry["relative_error_max"] < 1e-2


def test_tiny_run_distances_compare_with_the_thinned_reference(tiny_run):
    """``evaluation.max_reference_draws`` (tiny: 500 of 1,000 draws): the evaluations, the floors and the
    NumPyro-Stan cross-check all read every 2nd reference draw."""
    posterior = "ripley_standardised-logreg"
    reference = TINY_CONFIG["reference"]
    draws = reference["chains"] * reference["samples"] // reference["thin"]
    kept = TINY_CONFIG["evaluation"]["max_reference_draws"]
    assert draws == 2 * kept == 1000
    metrics = load_json(tiny_run / f"results/evaluation/{posterior}/euclidean/rla_f/seed0/metrics.json")
    assert metrics["n_reference"] == kept
    samples = TINY_CONFIG["approximation"]["samples"]
    floor_log = (tiny_run / f"logs/floor/{posterior}/n{samples}.log").read_text()
    assert f"between {samples} and {kept - samples} of {kept} reference draws" in floor_log
    crosscheck = load_json(tiny_run / f"results/reference_crosscheck/{posterior}.json")
    assert crosscheck["half_sizes"] == [kept // 2] * 4


def test_tiny_run_jobs_ran_in_the_warm_process(tiny_run):
    """config/tiny.yaml sets warm_start: every Python job of the local run ran in a fork of the
    run's warm process, whose CPU seconds its log records (geobayes.pipeline.warm_start)."""
    logs = sorted((tiny_run / "logs").rglob("*.log"))
    assert len(logs) > 300
    cold = [str(log.relative_to(tiny_run)) for log in logs
            if recorded_usage(log.read_text(errors="replace")) is None]
    assert not cold, f"{len(cold)} jobs ran in their own interpreter: {cold[:5]}"


def test_tiny_run_banana_anchors_and_exact_references(tiny_run):
    euclidean = load_json(tiny_run / "results/map/yu2024-banana/euclidean.json")
    hausdorff = np.load(tiny_run / "results/map/yu2024-banana/hausdorff.npz")["position"]
    assert euclidean["converged"]
    assert abs(hausdorff[1]) < 1e-4  # the Hausdorff MAP lies on the symmetry axis theta_2 = 0
    exact = load_json(tiny_run / "results/reference/easy-squiggle/exact.json")
    assert exact["method"] == "exact" and exact["passed"]
    banana = load_tidy(tiny_run / "results/summary/banana.csv")
    assert set(banana.loc[banana["method"] != "floor", "anchor"]) == {"euclidean", "hausdorff"}
    gaussian = load_tidy(tiny_run / "results/summary/gaussian.csv")
    assert np.isfinite(gaussian.loc[gaussian["metric"] == "wasserstein1_first", "value"]).all()


def test_tiny_run_network_outputs(tiny_run):
    """Yu et al.'s Table 5 and figures, Bergamin's and Hartmann's figures at tiny scale: the
    marginal likelihood set the noise, RLA-F's predictive beats ELA's, WG's push-forward is
    closer to NUTS than LA's, and every failure is counted."""
    for name in ("tables/yu2024_table5.tex", "tables/yu2024_table5.csv", "results/summary/bnn_yu.csv",
                 "figures/bnn_yu_standardised.pdf", "figures/bnn_yu_standardised_ela.pdf",
                 "figures/bnn_yu_standardised_worst.pdf", "figures/bnn_bergamin_between.pdf",
                 "figures/bnn_bergamin_between_predictive.pdf", "figures/bnn_hartmann_drop23.pdf",
                 "tables/bnn_hartmann_pushforward_w2.csv"):
        assert (tiny_run / name).stat().st_size > 0, name
    trained = load_json(tiny_run / "results/network/complete_standardised-mlp1x10.json")
    assert 0 < trained["marginal_likelihood"]["noise_std"] < 1
    table = pd.read_csv(tiny_run / "tables/yu2024_table5.csv").set_index(["split", "method", "metric"])
    for split in ("complete", "gap"):
        assert table.loc[(split, "rla_f", "mse"), "mean"] < table.loc[(split, "ela", "mse"), "mean"]
        assert np.isfinite(table.loc[(split, "nuts", "nll"), "mean"])
    assert table.loc[("complete", "rla_f", "mse"), "paper_mean"] == 0.071
    w2 = wide(load_tidy(tiny_run / "results/summary/bnn_hartmann.csv"))
    w2 = w2[w2["repetition"] == 0].set_index("method")
    assert w2.loc["wg", "w2_mean_over_grid"] < w2.loc["ela", "w2_mean_over_grid"]
    # method_samples: WG draws its own count on the 142-parameter network, LA the experiment's
    hartmann = TINY_CONFIG["experiments"]["bnn_hartmann"]
    assert w2.loc["wg", "samples_used"] + w2.loc["wg", "n_failed"] == hartmann["approximation"]["method_samples"]["wg"]
    assert w2.loc["ela", "samples_used"] == hartmann["approximation"]["samples"] != hartmann["approximation"][
        "method_samples"]["wg"]
    batched = load_json(tiny_run / "results/prediction/between-mlp1x15/euclidean/lin_rla_b_batched/seed0.json")
    assert batched["linearised_predictions"] and batched["n_samples"] == 20


def planned_outputs(stdout: str) -> set[str]:
    """Output files of the jobs a dry-run plans (every output of a job: one job writes each
    repetition's files)."""
    return {path for line in re.findall(r"output: (.+)", stdout) for path in line.split(", ")}


def test_rerun_after_editing_wg_touches_only_its_jobs(tiny_run):
    """Editing the closed-form wrapped Gaussian reruns its approximations, their evaluations,
    the WG timings and the figures drawn from the fitted approximation, and nothing upstream.

    Compared with the plan before the edit, so an edit left by another test does not count."""
    before = planned_outputs(run_snakemake("-n", "--configfile", "config/tiny.yaml", cwd=tiny_run).stdout)
    module = tiny_run / "src/geobayes/methods/wg.py"
    module.write_text(module.read_text() + "\n")
    added = planned_outputs(run_snakemake("-n", "--configfile", "config/tiny.yaml", cwd=tiny_run).stdout) - before
    approximations = sorted(p.rstrip(",") for p in added if p.startswith("results/approximation/"))
    # Every posterior of an experiment that runs WG (tiny: squiggles easy + hartmann, funnel, 2 GLM
    # posteriors, 1 synthetic, USPS, growth, Rosenbrock, Gaussian linear model, the 142-parameter
    # network of Hartmann et al.'s Fig. 5), and the network at each of its App. D optima
    experiments = TINY_CONFIG["experiments"]
    wg_posteriors = sum(declared_count(o) for o in experiments.values() if "wg" in o.get("methods", []))
    optima = TINY_CONFIG["bnn_hartmann_maps"]["optima"]
    assert len([p for p in approximations if p.endswith(".npz")]) == wg_posteriors + optima, approximations
    assert all("/wg/" in p for p in approximations), approximations
    # WG timings of every posterior of wg_timing.experiments (tiny: growth)
    timed = sum(declared_count(experiments[e]) for e in TINY_CONFIG["wg_timing"]["experiments"])
    assert len([p for p in added if p.startswith("results/timing_wg/")]) == timed
    assert not [p for p in added if p.startswith(("results/map/", "results/reference/", "data/"))]


def test_one_experiments_dtype_reruns_exactly_its_approximations(tiny_run, tmp_path):
    """`experiments.<name>.approximation.dtype` (quick scale: float32 for Bergamin et al.'s CNN, as
    their torch code ran) reaches that experiment's approximation jobs and no other experiment's."""
    before = planned_outputs(run_snakemake("-n", "--configfile", "config/tiny.yaml", cwd=tiny_run).stdout)
    overrides = tmp_path / "float32.yaml"
    overrides.write_text("experiments: {bergamin_mnist: {approximation: {dtype: float32}}}\n")
    result = run_snakemake("-n", "--configfile", "config/tiny.yaml", str(overrides), cwd=tiny_run)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    added = planned_outputs(result.stdout) - before
    approximations = {p.rstrip(",") for p in added if p.startswith("results/approximation/") and p.endswith(".npz")}
    mnist = TINY_CONFIG["experiments"]["bergamin_mnist"]
    expected = declared_count(mnist) * len(mnist["methods"]) * TINY_CONFIG["approximation"]["repetitions"]
    assert len(approximations) == expected, sorted(approximations)
    assert all(p.split("/")[2].endswith("-cnn") for p in approximations), sorted(approximations)
    assert "'dtype': 'float32'" in result.stdout


def test_tiny_run_bnn_classifier_outputs(tiny_run):
    """Hartmann et al. (2026), App. D (Figs. 8-9) at tiny scale: every optimum fits the banana
    subset, its Fisher spectrum drops before d = 37, every WG solve is counted, and the
    predictive variances are finite and positive, WG's larger off the data than on it."""
    for name in ("figures/bnn_classifier_variance.pdf", "figures/bnn_classifier_fisher_spectra.pdf",
                 "tables/bnn_classifier_optima.csv", "tables/bnn_classifier_variance.tex",
                 "results/summary/bnn_classifier.csv"):
        assert (tiny_run / name).stat().st_size > 0, name
    runs = wide(load_tidy(tiny_run / "results/summary/bnn_classifier.csv")).set_index(["anchor", "method"])
    maps = runs.xs("map", level="method")
    assert list(maps.index) == ["optimum0", "optimum1"]
    assert (maps["training_accuracy"] > 0.8).all() and (maps["converged"] == 1).all()
    assert ((maps["fisher_drop_index"] >= 1) & (maps["fisher_drop_index"] < 37)).all()
    la, wg = runs.xs("ela", level="method"), runs.xs("wg", level="method")
    assert (wg["n_samples"] == 6).all() and (la["n_failed"] == 0).all()
    assert (wg["n_failed"] <= wg["n_samples"]).all()
    for frame in (la, wg):
        for column in ("variance_on_data", "variance_off_data"):
            assert (np.isfinite(frame[column]) & (frame[column] > 0)).all(), column
    assert (wg["off_on_ratio"] > 1).all()
    assert "(b)" in (tiny_run / "tables/bnn_classifier_variance.tex").read_text()
    data = np.load(tiny_run / "data/prepared/bnn_classifier/banana.npz")
    assert data["X"].shape == (200, 2) and data["indices"].shape == (200,)
    record = load_json(tiny_run / "results/bnn_classifier/optimum1/wg.json")
    assert record["n_samples"] == 6 and "result_codes" in record and record["provenance"]


def test_tiny_run_bergamin_classifiers(tiny_run):
    """Bergamin et al. (2023), Sec. 5.2 at tiny scale: every classifier posterior of the config has its
    trained network (both prior settings from one training), every method's predictive metrics are
    tidy rows with the failures counted, the anchor is the trained weights (not polished), the
    tables carry the paper's values beneath ours, and the confidence maps and the report exist."""
    experiments = {e: o for e, o in TINY_CONFIG["experiments"].items() if "classification" in o}
    assert set(experiments) == {"bergamin_banana", "bergamin_pinwheel", "bergamin_uci", "bergamin_mnist"}
    for name in ("tables/bergamin2023_table1.csv", "tables/bergamin2023_table4.tex", "tables/bergamin2023_table2.md",
                 "figures/confidence_bergamin_banana_banana.pdf", "figures/confidence_bergamin_pinwheel_pinwheel.pdf",
                 "reports/bergamin2023_reproduction.md", "data/prepared/image_test/kmnist.npz"):
        assert (tiny_run / name).stat().st_size > 0, name
    for experiment, options in experiments.items():
        # pinwheel has a figure and no table, so no summary: its prediction records are the same rows
        summary = tiny_run / f"results/summary/{experiment}.csv"
        records = sorted(tiny_run.glob(f"results/classification/*-{options['models'][0]}/*/*/seed*.json"))
        runs = wide(load_tidy(summary) if summary.exists() else tidy_frame([(load_json(r), experiment) for r in records]))
        assert set(runs["method"]) == set(options["methods"]), experiment
        assert runs["posterior"].nunique() == len(options["datasets"]) * len(options["priors"]) * len(options["seeds"])
        assert ((runs["accuracy"] >= 0) & (runs["accuracy"] <= 100)).all() and (runs["brier"] <= 1).all()
        assert (runs["n_failed"] <= runs["n_samples"]).all() and np.isfinite(runs["nll"]).all()
    banana = wide(load_tidy(tiny_run / "results/summary/bergamin_banana.csv")).set_index(["posterior", "method"])
    # one training serves both priors: the MAP rows agree, the prior precisions differ
    fixed, optimised = "banana_fixed_seed0-softmax16x16", "banana_optimised_seed0-softmax16x16"
    assert banana.loc[(fixed, "map"), "accuracy"] == banana.loc[(optimised, "map"), "accuracy"]
    record = load_json(tiny_run / "results/network/banana_seed0-softmax16x16.json")
    decay = experiments["bergamin_banana"]["training"]["softmax16x16"]["weight_decay"]
    assert record["prior_precision"]["fixed"] == 2 * decay != record["prior_precision"]["optimised"]
    anchor = np.load(tiny_run / f"results/map/{fixed}/euclidean.npz")["position"]
    np.testing.assert_array_equal(anchor, np.load(tiny_run / f"results/network/{fixed}.npz")["theta_trained"])
    table = pd.read_csv(tiny_run / "tables/bergamin2023_table1.csv").set_index(["method", "prior", "metric"])
    assert table.loc[("rla_b", "optimised", "nll"), "paper_mean"] == 0.287
    mnist = wide(load_tidy(tiny_run / "results/summary/bergamin_mnist.csv"))
    assert (mnist[[c for c in mnist.columns if c.startswith("auroc_")]].stack().between(0, 1)).all()
    assert "auroc_kmnist" in mnist.columns and "auroc_emnist" not in mnist.columns  # EMNIST is not in the mirror
    report = (tiny_run / "reports/bergamin2023_reproduction.md").read_text()
    assert "Bergamin" in report and "bergamin2023_table1" in report
    # every riem-LA run reports the drift of its solves' conserved speed; vanilla LA solves no ODE
    geodesic = banana.reset_index()
    riemannian = geodesic["method"].str.contains("rla_b")
    assert (geodesic.loc[riemannian, "max_speed_drift"] >= 0).all()
    assert geodesic.loc[~riemannian, "max_speed_drift"].isna().all()
    drift = pd.read_csv(tiny_run / "tables/bergamin2023_geodesic_accuracy.csv")
    assert set(drift["metric"]) == {"max_speed_drift"} and (drift.loc[drift["n_runs"] > 0, "mean"] >= 0).all()


def test_tiny_run_bnn_hartmann_map_robustness(tiny_run):
    """Hartmann et al. (2026), App. D, Figs. 6-7 at tiny scale: the optima are distinct runs with
    their convergence recorded, and the pairwise W2 table has LA and WG with finite values and
    every failed sample counted."""
    for name in ("figures/bnn_hartmann_maps.pdf", "figures/bnn_hartmann_map_w2.pdf", "tables/bnn_hartmann_map_w2.csv",
                 "tables/bnn_hartmann_map_optima.csv", "results/map_robustness/drop23-mlp2x10var/optima.json",
                 "results/summary/bnn_hartmann_maps.csv"):
        assert (tiny_run / name).stat().st_size > 0, name
    config = yaml.safe_load((tiny_run / "config" / "tiny.yaml").read_text())["bnn_hartmann_maps"]
    runs = wide(load_tidy(tiny_run / "results/summary/bnn_hartmann_maps.csv")).set_index("method")
    optima = runs.loc[["map"]]
    assert len(optima) == config["optima"] and np.isfinite(optima["log_posterior"]).all()
    assert (optima["nearest_param_distance"] > 1.0).all()  # different starts end at different points
    record = load_json(tiny_run / "results/map/drop23-mlp2x10var/optimum1.json")
    assert record["anchor"] == "optimum1" and "converged" in record and len(record["start"]) == 142
    table = runs.drop(index="map")
    assert sorted(table.index) == ["ela", "wg"]
    pairs = config["optima"] * (config["optima"] - 1) // 2
    for method in ("ela", "wg"):
        row = table.loc[method]
        robustness = load_json(tiny_run / f"results/map_robustness/drop23-mlp2x10var/{method}.json")
        assert robustness["optima"] == config["optima"] and robustness["samples_per_optimum"] == config["samples"]
        assert row["optima_used"] == config["optima"] and row["failed_optima"] == 0 and row["pairs"] == pairs
        failed = [int(v) for v in str(robustness["failed_per_optimum"]).split(";")]
        assert len(failed) == config["optima"] and sum(failed) == row["n_failed"] < row["n_samples"]
        for column in ("w2_mean_over_x", "w2_variance_over_x", "w2_mean_on_data", "w2_mean_off_data"):
            assert np.isfinite(row[column]) and row[column] >= 0, (method, column)
    assert table.loc["ela", "n_failed"] == 0  # exact Gaussian draws never fail


def test_tiny_run_bnn_scalability_outputs(tiny_run):
    """Yu et al. (2024) Fig. 15 at tiny scale: every cell of the grid has RLA-B and RLA-F with
    positive finite seconds per sample one at a time and batched, mean ODE steps and counted
    failures; the Fisher geodesics take fewer steps than the Monge ones; the marginal likelihood
    set the noise of the standardised data below 1."""
    config = yaml.safe_load((tiny_run / "config" / "tiny.yaml").read_text())["experiments"]["bnn_scalability"]
    for name in ("tables/yu2024_fig15.csv", "tables/yu2024_fig15.tex", "figures/bnn_scalability.pdf",
                 "results/summary/bnn_scalability.csv"):
        assert (tiny_run / name).stat().st_size > 0, name
    summary = load_tidy(tiny_run / "results/summary/bnn_scalability.csv")
    runs = wide(summary)
    parts = runs["posterior"].str.extract(r"h(?P<width>\d+)_n(?P<size>\d+)-scalability").astype(int)
    runs = runs.join(parts)
    cells = {(w, n) for w in config["widths"] for n in config["sizes"]}
    for method in ("rla_b", "rla_f"):
        rows = runs[runs["method"] == method]
        assert set(zip(rows["width"], rows["size"])) == cells, method
        assert len(rows) == len(cells) * config["repetitions"], method
    for column in ("seconds_per_sample", "batched_seconds_per_sample", "mean_steps_sequential", "mean_steps_batched"):
        assert np.isfinite(runs[column]).all() and (runs[column] > 0).all(), column
    timing = config["timing"]
    assert (runs["n_samples"] == timing["sequential_samples"] + timing["batched_samples"]).all()
    assert ((runs["failed_sequential"] >= 0) & (runs["n_failed"] >= runs["failed_sequential"])).all()
    steps = runs.groupby(["width", "size", "method"])["mean_steps_batched"].mean()
    for width, size in cells:
        assert steps[(width, size, "rla_f")] < steps[(width, size, "rla_b")]
    table = pd.read_csv(tiny_run / "tables/yu2024_fig15.csv")
    assert (table.loc[table["method"] != "rla_b/rla_f", "n_runs"] == config["repetitions"]).all()
    width, size = config["widths"][0], config["sizes"][0]
    network = load_json(tiny_run / f"results/bnn_scalability/network/h{width}_n{size}_rep0.json")
    assert network["parameters"] == width**2 + 4 * width + 1
    assert 0 < network["marginal_likelihood"]["noise_std"] < 1
    record = load_json(tiny_run / f"results/bnn_scalability/timing/h{width}_n{size}_rep0/rla_f.json")
    assert record["threads"] == TINY_CONFIG["timing_threads"] and record["device"] == "cpu"
    assert record["provenance"]["packages"]["jax"]
    assert record["config"]["approximation"]["precision"] == "fisher"
    assert "RLA-F" in (tiny_run / "tables/yu2024_fig15.tex").read_text()


# ---- Rerun one stage after an edit; a killed run resumes (README "Rerun one stage after an edit") ----

TINY_CONFIG = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
# Stages upstream of the approximations: editing a method's module must never rerun them.
# (map_robustness is not one: it compares the approximations at the App. D optima, downstream of them)
UPSTREAM_RULES = re.compile(r"download|prepare_\w+|train_\w+|map|\w+_map|map_optima|reference|exact_reference"
                            r"|predict_network_reference")


def tiny_methods() -> list[str]:
    """Method modules the tiny config runs (every experiment's `methods`, plus RLA with the
    empirical Fisher on the logistic regressions of Table 6)."""
    experiments = TINY_CONFIG["experiments"]
    methods = {m for options in experiments.values() for m in options.get("methods", [])}
    if experiments["logreg"]["empirical_fisher_datasets"]:
        methods.add("rla_ef")
    return sorted(m for m in methods if (REPO / "src/geobayes/methods" / f"{m}.py").is_file())


class DryRun(NamedTuple):
    """The jobs that ``snakemake -n`` plans, keyed by output file."""

    plan: dict[str, str]  # output -> rule
    reason: dict[str, str]  # output -> the job's `reason:` line


def dry_run(cwd: Path, *args: str, configfile: str = "config/tiny.yaml") -> DryRun:
    """Every job that ``snakemake -n`` of the tiny config plans, with its reason."""
    result = run_snakemake("-n", "--configfile", configfile, *args, cwd=cwd)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    plan, reason = {}, {}
    for rule, body in re.findall(r"^(?:local)?rule (\w+):\n((?:[ \t]+.*\n?)*)", result.stdout, re.M):
        outputs = re.search(r"^\s+output: (.*)$", body, re.M)
        why = re.search(r"^\s+reason: (.*)$", body, re.M)
        for path in outputs.group(1).split(", ") if outputs else []:
            plan[path], reason[path] = rule, why.group(1) if why else ""
    return DryRun(plan, reason)


def dry_run_plan(cwd: Path, *args: str, configfile: str = "config/tiny.yaml") -> dict[str, str]:
    """Output file -> rule of every job that ``snakemake -n`` of the tiny config plans."""
    return dry_run(cwd, *args, configfile=configfile).plan


#: A job's reason when its parameters changed; only_old / only_new are the reprs that differ.
PARAMS_CHANGED = re.compile(r"Params have changed since last execution: Union of exclusive params before and now "
                            r"across all output: before: (?P<old>.*?) now: (?P<new>.*?) ?(?:;|$)")
#: The `code` parameter of every rule: a 16-hex-digit digest of its library closure (``code_digest``).
CODE_DIGEST = re.compile(r"'[0-9a-f]{16}'")


def code_changed(run: DryRun) -> set[str]:
    """Outputs planned because their job's library code changed: the reason names a changed
    parameter, and every parameter that changed is a code digest (nothing else was edited)."""
    changed = set()
    for path, reason in run.reason.items():
        match = PARAMS_CHANGED.search(reason)
        if match:
            for side in ("old", "new"):
                assert all(CODE_DIGEST.fullmatch(p) for p in match.group(side).split(",")), (path, reason)
            changed.add(path)
    return changed


def edited(module: Path, cwd: Path, *args: str) -> DryRun:
    """The tiny config's dry run with a blank line appended to ``module``; the text and the
    mtime are restored afterwards, so the edit leaves nothing for later tests."""
    text, stat = module.read_text(), module.stat()
    try:
        module.write_text(text + "\n")
        return dry_run(cwd, *args)
    finally:
        module.write_text(text)
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))


class Dag(NamedTuple):
    """The tiny DAG as ``snakemake --detailed-summary`` lists it, keyed by output file."""

    rule: dict[str, str]  # output -> rule
    inputs: dict[str, frozenset[str]]  # output -> input files (other outputs, raw data)
    job: dict[str, tuple]  # output -> its job (rule, log, inputs): a job's outputs share it


def detailed_summary(cwd: Path) -> Dag:
    """The DAG of the tiny config in ``cwd``; asserts that every output is up to date."""
    result = run_snakemake("--detailed-summary", "--configfile", "config/tiny.yaml", cwd=cwd)
    assert result.returncode == 0, result.stderr[-3000:]
    rows = list(csv.DictReader(StringIO(result.stdout[result.stdout.index("output_file\t"):]), delimiter="\t"))
    stale = [row["output_file"] for row in rows if row["plan"] != "no update"]
    assert not stale, stale
    return Dag({row["output_file"]: row["rule"] for row in rows},
               {row["output_file"]: frozenset(row["input-file(s)"].split(",")) for row in rows},
               {row["output_file"]: (row["rule"], row["log-file(s)"], row["input-file(s)"]) for row in rows})


def downstream(inputs: dict[str, frozenset[str]], changed: set[str]) -> set[str]:
    """Outputs whose job reads a changed file or another such output, transitively."""
    affected, frontier = set(), set(changed)
    while frontier:
        frontier = {out for out, read in inputs.items() if out not in affected and read & frontier}
        affected |= frontier
    return affected


def upstream(inputs: dict[str, frozenset[str]], wanted: set[str]) -> set[str]:
    """The wanted outputs and every output they need, transitively."""
    needed, frontier = set(), set(wanted)
    while frontier:
        needed |= frontier
        frontier = {f for out in frontier for f in inputs[out] if f in inputs} - needed
    return needed


def runtime_imports(*modules: str) -> set[str]:
    """geobayes modules that ``modules`` use at run time: modules and the defining modules of
    functions and classes bound in their namespaces, transitively. Independent of the static
    import walk (``library_closure``) that the DAG uses, so a dependency it misses shows."""
    import importlib
    import types

    seen, stack = set(), list(modules)
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for value in vars(importlib.import_module(name)).values():
            owner = value.__name__ if isinstance(value, types.ModuleType) else getattr(value, "__module__", None)
            if isinstance(owner, str) and owner.startswith("geobayes.") and owner not in seen:
                stack.append(owner)
    return seen


#: Rules with one job per method whose library closure holds the method's module itself.
DIRECT_METHOD_RULES = ("approximate", "approximate_optimum", "predict_network", "predict_optimum", "time_sampling",
                       "bnn_classifier_approximate", "time_bnn_scalability", "predict_classifier")


def approximation_method(path: str) -> str:
    """Method of results/approximation/<posterior>/<anchor>/<method>/seed<k>/samples.*."""
    return path.split("/")[4]


@pytest.fixture(scope="module")
def settled_run(tiny_run, tmp_path_factory):
    """A copy of the tiny run (mtimes kept) with every output up to date (``--touch`` undoes
    the edits other tests leave behind), and its DAG."""
    work = tmp_path_factory.mktemp("settled") / "repo"
    shutil.copytree(tiny_run, work, symlinks=True)
    touched = run_snakemake("--touch", "--cores", "1", "--configfile", "config/tiny.yaml", cwd=work)
    assert touched.returncode == 0, touched.stderr[-3000:]
    return work, detailed_summary(work)


@pytest.mark.parametrize("method", tiny_methods())
def test_editing_a_method_reruns_exactly_its_jobs_and_what_is_downstream(settled_run, method):
    """Editing methods/<method>.py plans exactly the jobs whose code digest (``params: code``,
    over the library files the rule imports) it changes, and everything downstream of them, as
    the DAG's inputs say; no data, MAP or reference job; every approximation, prediction and
    timing of a method that imports the module at run time is planned, and the approximations
    rerun are exactly those methods'. The edit is undone (text and mtime) afterwards."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    module = work / "src/geobayes/methods" / f"{method}.py"
    run = edited(module, work)
    plan, direct = run.plan, code_changed(run)
    expected = direct | downstream(inputs, direct)
    assert direct and set(plan) == expected, (sorted(set(plan) - expected), sorted(expected - set(plan)))
    assert not {r for r in plan.values() if UPSTREAM_RULES.fullmatch(r)}, sorted(set(plan.values()))
    rerun = {approximation_method(p) for p, r in plan.items() if r == "approximate"}
    dag_methods = {approximation_method(p) for p, r in rules.items() if r == "approximate"}
    importing = {m for m in dag_methods
                 if f"geobayes.methods.{method}" in runtime_imports(f"geobayes.methods.{m}", "geobayes.pipeline.posteriors")}
    assert method in rerun and rerun == importing, (rerun, importing)
    # Independent of the digests: a job named after an importing method (its path has a part
    # <method> or <method>.<ext>) reads that method's module itself, so it reruns. (Snakemake
    # compares parameters only of jobs whose inputs are unchanged, so a job downstream of a
    # rerun approximation gives that as its reason.)
    named = {p for p, r in rules.items() if r in DIRECT_METHOD_RULES
             and {Path(part).stem for part in p.split("/")} & importing}
    assert named <= set(plan), sorted(named - set(plan))
    assert set(plan.values()) <= set(rules.values())
    jobs = Counter(job[0] for job in {dag.job[p] for p in plan})
    print(f"edit {method}.py -> {dict(sorted(jobs.items()))}; approximations of {sorted(rerun)}")


def test_editing_a_shared_module_reruns_all_its_users(settled_run):
    """Editing pipeline/posteriors.py (every posterior is built through it) reruns every MAP,
    reference, approximation and timing job and what is downstream, no download or data
    preparation; the MAPs and exact references rerun because their own code changed. A mere
    ``touch`` of the module (mtime only, same bytes) plans nothing."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    module = work / "src/geobayes/pipeline/posteriors.py"
    run = edited(module, work)
    direct = code_changed(run)
    users = {p for p, r in rules.items() if r in ("map", "reference", "exact_reference", "approximate", "time_sampling")}
    assert users and users <= set(run.plan), sorted(users - set(run.plan))
    assert {p for p in users if rules[p] in ("map", "exact_reference")} <= direct  # they read no other output
    assert set(run.plan) == direct | downstream(inputs, direct)
    assert not {r for r in run.plan.values() if r == "download" or r.startswith("prepare_")}
    stat = module.stat()
    try:
        os.utime(module)  # now: newer than every output
        assert dry_run_plan(work) == {}
    finally:
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def rule_scripts(work: Path) -> dict[str, str]:
    """Rule name -> the workflow/scripts file it runs, read from the rule files."""
    scripts = {}
    for path in (work / "workflow" / "rules").glob("*.smk"):
        for match in re.finditer(r'^rule (\w+):\n(?:(?!^rule ).*\n)*?\s+script:\s*\n\s+"\.\./scripts/([\w.]+)"',
                                 path.read_text(), re.M):
            scripts[match.group(1)] = match.group(2)
    return scripts


def script_imports(script: Path) -> set[str]:
    """geobayes modules a workflow script imports at its top level."""
    import ast

    names = set()
    for node in ast.walk(ast.parse(script.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("geobayes"):
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names if a.name.startswith("geobayes")}
    return names


@pytest.mark.parametrize("module", ["random", "data.prepared"])
def test_editing_a_module_reruns_every_job_whose_script_uses_it(settled_run, module):
    """Every scripted rule's code digest covers what its script imports (``script_code``): editing
    a module (the keys, the prepared-data loader) plans every job whose script uses it at run time
    (the test's own import walk, ``runtime_imports``), and only jobs whose digest changed and what is
    downstream. Before, rules listed their modules by hand and missed these: the data preparations and
    the networks' training kept their outputs when the keys they were drawn with changed."""
    work, dag = settled_run
    scripts = rule_scripts(work)
    assert {"approximate", "map", "prepare_bnn_classifier", "train_network", "time_wg"} <= set(scripts)
    users = {rule for rule, script in scripts.items()
             if f"geobayes.{module}" in runtime_imports(*script_imports(work / "workflow" / "scripts" / script))}
    run = edited(work / "src" / "geobayes" / f"{module.replace('.', '/')}.py", work)
    direct = code_changed(run)
    expected = {p for p, r in dag.rule.items() if r in users}
    assert expected and expected <= set(run.plan), sorted(expected - set(run.plan))
    assert set(run.plan) == direct | downstream(dag.inputs, direct)


def test_forcerun_approximate_reruns_every_approximation_and_downstream(settled_run):
    """README: ``--forcerun approximate`` replans every approximation and what reads them;
    with ``--until approximate`` only the approximations."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    approximations = {p for p, r in rules.items() if r == "approximate"}
    plan = dry_run_plan(work, "--forcerun", "approximate")
    assert set(plan) == approximations | downstream(inputs, approximations)
    assert not {r for r in plan.values() if UPSTREAM_RULES.fullmatch(r)}
    only = dry_run_plan(work, "--forcerun", "approximate", "--until", "approximate")
    assert set(only) == approximations


def test_method_samples_reruns_only_the_named_method(settled_run, tmp_path):
    """``approximation.method_samples`` of one experiment (how the quick config gives RLA-BLog a
    few samples on the networks) changes the parameters of that method's approximations on that
    experiment's posteriors alone: the dry run plans exactly them and what is downstream; adding a
    method plans no data, training, MAP or NUTS job (their parameters leave the method list out)."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    extra = tmp_path / "method_samples.yaml"
    extra.write_text(yaml.safe_dump({"experiments": {"bnn_yu": {"approximation": {"method_samples": {"rla_f": 7}}}}}))
    plan = dry_run_plan(work, str(extra))  # a second --configfile, merged over tiny.yaml
    approximations = {p for p, r in rules.items() if r == "approximate" and approximation_method(p) == "rla_f"
                      and p.split("/")[2].endswith("-mlp1x10")}
    assert approximations and {p for p, r in plan.items() if r == "approximate"} == approximations
    assert set(plan) <= approximations | downstream(inputs, approximations)
    assert not {r for r in plan.values() if UPSTREAM_RULES.fullmatch(r)}
    # Adding a method to the experiment plans its new jobs and the reports, nothing upstream either.
    methods = TINY_CONFIG["experiments"]["bnn_yu"]["methods"]
    extra.write_text(yaml.safe_dump({"experiments": {"bnn_yu": {"methods": [*methods, "rla_b"]}}}))
    added = dry_run_plan(work, str(extra))
    assert {approximation_method(p) for p, r in added.items() if r == "approximate"} == {"rla_b"}
    assert not {r for r in added.values() if UPSTREAM_RULES.fullmatch(r)}, sorted(set(added.values()))


def test_bnn_classifier_wg_settings_rerun_its_approximations_not_its_data_or_optima(settled_run, tmp_path):
    """The App. D classifier's WG solver settings (``bnn_classifier.wrapped_gaussian``) reach its WG
    approximation jobs and what is downstream of them; LA's jobs, the banana subset and the optima
    (whose parameters leave those keys out) are not planned again."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    extra = tmp_path / "classifier_wg.yaml"
    extra.write_text(yaml.safe_dump({"bnn_classifier": {"wrapped_gaussian": {"max_steps": 9999}}}))
    plan = dry_run_plan(work, str(extra))  # a second --configfile, merged over tiny.yaml
    # WG's jobs only: LA's parameters leave WG's keys out (bnn_classifier_approximation_options)
    approximations = {p for p, r in rules.items() if r == "bnn_classifier_approximate" and Path(p).stem == "wg"}
    assert approximations and {p for p, r in plan.items() if r == "bnn_classifier_approximate"} == approximations
    assert set(plan) <= approximations | downstream(inputs, approximations)
    assert not {r for r in plan.values() if r in ("prepare_bnn_classifier", "bnn_classifier_map")}


def test_posterior_method_samples_reruns_only_that_posterior_and_method(settled_run, tmp_path):
    """``approximation.posterior_method_samples`` (how the quick config gives the fixed-prior MNIST
    CNN's riem-LA one sample) changes the parameters of one method's approximation on one posterior:
    the dry run plans that job and what is downstream of it, no other approximation and nothing upstream."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    posterior = f"{TINY_CONFIG['experiments']['bnn_yu']['splits'][0]}-mlp1x10"  # one of the two Snelson splits
    extra = tmp_path / "posterior_method_samples.yaml"
    extra.write_text(yaml.safe_dump({"experiments": {"bnn_yu": {"approximation": {
        "posterior_method_samples": {posterior: {"rla_f": 7}}}}}}))
    plan = dry_run_plan(work, str(extra))  # a second --configfile, merged over tiny.yaml
    approximations = {p for p, r in rules.items() if r == "approximate" and approximation_method(p) == "rla_f"
                      and p.split("/")[2] == posterior}
    assert approximations and {p for p, r in plan.items() if r == "approximate"} == approximations
    assert set(plan) <= approximations | downstream(inputs, approximations)
    assert not {r for r in plan.values() if UPSTREAM_RULES.fullmatch(r)}


def test_adding_a_data_set_plans_its_own_jobs_and_no_other_posteriors(settled_run, tmp_path):
    """A value added to a list that the posterior declaration enumerates (``{datasets}``: a logistic
    regression data set, a UCI classification set) plans the new posteriors' jobs and the summaries,
    tables and reports that gather them; no data, training, MAP, NUTS, approximation or prediction job
    of a posterior that was there before (their parameters leave the enumerated lists out:
    ``enumerating_keys``)."""
    work, dag = settled_run
    old_posteriors = {p.split("/")[2] for p, r in dag.rule.items() if r in ("map", "approximate")}
    extra = tmp_path / "more_data_sets.yaml"
    extra.write_text(yaml.safe_dump({"experiments": {
        "logreg": {"datasets": [*TINY_CONFIG["experiments"]["logreg"]["datasets"], "pima"]},
        "bergamin_uci": {"datasets": [*TINY_CONFIG["experiments"]["bergamin_uci"]["datasets"], "glass"]}}}))
    plan = dry_run_plan(work, str(extra))  # a second --configfile, merged over tiny.yaml
    new = {"pima_standardised-logreg", "glass_optimised_seed0-softmax50"}
    per_posterior = {p for p, r in plan.items()
                     if r in ("map", "approximate", "reference", "time_sampling", "evaluate", "predict_classifier")}
    touched = {p.split("/")[2] for p in per_posterior}  # results/<kind>/<posterior>/...
    assert new <= touched and touched <= new, sorted(touched)
    assert {"ripley_standardised-logreg", "ionosphere_optimised_seed0-softmax50"} <= old_posteriors
    trained = {p for p, r in plan.items() if r == "train_classifier"}
    assert trained and all("/glass_" in p for p in trained), sorted(trained)
    upstream_of_old = {p for p, r in plan.items() if UPSTREAM_RULES.fullmatch(r) and ("ripley" in p or "ionosphere" in p)}
    assert not upstream_of_old, sorted(upstream_of_old)


def test_float32_is_a_config_switch_of_the_approximations_alone(settled_run, tiny_run, tmp_path):
    """``approximation.dtype: float32`` (geobayes.floating_point) changes the parameters of the
    approximations and the timings alone: the dry run plans them and what is downstream, no data,
    MAP, NUTS or figure-data job. One of them run for real draws float32 samples and records the
    precision in its sidecar."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    extra = tmp_path / "float32.yaml"
    extra.write_text(yaml.safe_dump({"approximation": {"dtype": "float32"}}))
    plan = dry_run_plan(work, str(extra))  # a second --configfile, merged over tiny.yaml
    approximations = {p for p, r in rules.items() if r in ("approximate", "approximate_optimum")}
    timings = {p for p, r in rules.items() if r in ("time_sampling", "time_bnn_scalability", "time_wg")}
    switched = approximations | timings
    assert approximations and timings and switched <= set(plan) <= switched | downstream(inputs, switched)
    assert not {r for r in plan.values() if UPSTREAM_RULES.fullmatch(r)}, sorted(set(plan.values()))
    # figure data are computed in float64 whatever the switch (figure_method_settings)
    assert not {"banana_figure_data", "contour_grids"} & set(plan.values())

    copy = tmp_path / "repo"
    shutil.copytree(tiny_run, copy, symlinks=True, ignore=shutil.ignore_patterns(".jax_cache"))
    target = "results/approximation/ripley_standardised-logreg/euclidean/rla_f/seed0/samples"
    run = run_snakemake(f"{target}.npz", "--cores", "1", "--configfile", "config/tiny.yaml", str(extra), cwd=copy)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    with np.load(copy / f"{target}.npz") as single, np.load(tiny_run / f"{target}.npz") as double:
        assert single["theta"].dtype == np.float32 and double["theta"].dtype == np.float64
        assert single["successful"].all() and single["theta"].shape == double["theta"].shape
    record = load_json(copy / f"{target}.json")
    assert record["config"]["approximation"]["dtype"] == "float32" and record["n_failed"] == 0


def test_fast_compile_reruns_exactly_the_listed_experiments_stages(settled_run, tmp_path):
    """Listing one more experiment in `fast_compile` (geobayes.pipeline.compile_effort) changes the
    parameters of its posteriors' MAP, reference and approximation jobs alone: the dry run plans them and
    what is downstream, no other experiment's jobs, no data and no timing job of their own."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    extra = tmp_path / "fast.yaml"
    extra.write_text(yaml.safe_dump({"fast_compile": {"experiments": [*TINY_CONFIG["fast_compile"]["experiments"],
                                                                       "logreg"]}}))
    plan = dry_run_plan(work, str(extra))

    def model(path):  # results/<stage>/<posterior>/...: the posterior's model
        return path.split("/")[2].split("-")[-1] if path.count("/") >= 3 else None

    logreg = {path for path, rule in rules.items()
              if rule in ("map", "reference", "approximate") and model(path) == "logreg"}
    assert logreg and logreg <= set(plan) <= logreg | downstream(inputs, logreg)
    assert not {path for path in plan if model(path) in ("gaussian", "bernreg", "poisgp")}


#: The rules that time samplers; config `timing_threads` sets their cores.
TIMING_RULES = ("time_sampling", "time_wg", "time_bnn_scalability")


def test_timing_jobs_hold_the_configured_cores(settled_run):
    """``timing_threads`` is the cores of every timing job: 2 (the papers' protocol, alone on a
    2-core machine) or 1 (beside other jobs, tiny and quick scale); every other job keeps one."""
    work, dag = settled_run
    targets = sorted(min(p for p, r in dag.rule.items() if r == rule) for rule in TIMING_RULES)
    neighbour = min(p for p, r in dag.rule.items() if r == "approximate")
    for threads in (2, 1):
        result = run_snakemake("-n", "--cores", "2", "--configfile", "config/tiny.yaml",
                               "--config", f"timing_threads={threads}",
                               "--forcerun", *targets, neighbour, "--", *targets, neighbour, cwd=work)
        assert result.returncode == 0, result.stderr[-3000:]
        held = {rule: int(match.group(1)) if (match := re.search(r"^\s+threads: (\d+)$", body, re.M)) else 1
                for rule, body in re.findall(r"^(?:local)?rule (\w+):\n((?:[ \t]+.*\n?)*)", result.stdout, re.M)}
        assert held == {**dict.fromkeys(TIMING_RULES, threads), "approximate": 1}, (threads, held)


def test_until_map_plans_only_the_map_stage_and_what_it_needs(settled_run, tmp_path):
    """README: ``--until map`` in an empty directory plans the MAPs and their data, nothing
    downstream."""
    work, dag = settled_run
    rules, inputs = dag.rule, dag.inputs
    maps = {p for p, r in rules.items() if r == "map"}
    plan = dry_run_plan(tmp_path, "-s", str(work / "Snakefile"), "--until", "map",
                        configfile=str(work / "config" / "tiny.yaml"))
    assert maps and {dag.job[p] for p in plan} == {dag.job[p] for p in upstream(inputs, maps)}
    assert {"map", "download"} <= set(plan.values()) <= set(rules.values()) - {"approximate", "evaluate", "reference"}


KILL_TARGET = "tables/yu2024_table2.tex"  # Table 2 at tiny scale: 4 methods, their evaluations, the table
#: The run killed and resumed: the tiny run less the logistic regression's approximations and
#: everything on their way to KILL_TARGET (a missing file is remade only where a target needs it).
KILL_REMOVED = ("results/approximation/ripley_standardised-logreg", "results/evaluation/ripley_standardised-logreg",
                "results/summary/logreg.csv", KILL_TARGET)


def warm_directory_of(pid: int) -> Path | None:
    """The socket directory of the warm process that the Snakemake process ``pid`` started (its
    command line: ``python -m geobayes.pipeline.warm_start SOCKET PID``), or None while it has none."""
    module = b"geobayes.pipeline.warm_start"
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            args = cmdline.read_bytes().split(b"\0")
        except OSError:  # the process ended meanwhile
            continue
        if module in args and args[-2:] == [str(pid).encode(), b""]:
            return Path(args[args.index(module) + 1].decode()).parent
    return None


def incomplete_outputs(work: Path) -> set[str]:
    """Outputs Snakemake has flagged incomplete (``.snakemake/incomplete/<base64 of the path>``)."""
    root = work / ".snakemake" / "incomplete"
    names = ("".join(p.relative_to(root).parts) for p in root.rglob("*") if p.is_file()) if root.is_dir() else ()
    return {base64.urlsafe_b64decode(name).decode() for name in names}


def assert_every_result_file_reads_whole(work: Path) -> list[str]:
    """Every file the run wrote loads completely (npz/npy arrays, JSON, CSV; LaTeX non-empty);
    returns the hidden temporaries of killed writers (the only other files allowed)."""
    leftovers = []
    cache = work / "results" / ".jax_cache"  # JAX's compilation cache: its own entries, not results
    # data/raw holds the downloads, whose checksums are verified wherever they are read
    for path in sorted(p for part in ("data/prepared", "results", "tables") for p in (work / part).rglob("*")
                       if p.is_file() and cache not in p.parents):
        if re.fullmatch(r"\..+\.[a-z0-9_]{8}\.tmp", path.name):
            leftovers.append(str(path.relative_to(work)))
        elif path.suffix == ".npz":
            with np.load(path, allow_pickle=False) as archive:
                [archive[name] for name in archive.files]
        elif path.suffix == ".npy":
            np.load(path, allow_pickle=False)
        elif path.suffix == ".json":
            load_json(path)
        elif path.suffix == ".csv":
            pd.read_csv(path)
        else:
            assert path.suffix in (".tex", ".md") and path.read_text().endswith("\n"), path
    return leftovers


def test_run_killed_mid_job_resumes_to_the_same_tables(tiny_run, tmp_path):
    """SIGKILL to the whole Snakemake process group while an approximation runs: every file left
    reads whole (atomic writes), the jobs that were running are flagged incomplete; after
    ``--unlock`` the same command with ``--rerun-incomplete`` completes, clears the flags, the
    stale temporaries and the killed warm process's socket directory, and gives the same arrays and tables as the uninterrupted tiny run.

    The run starts from a copy of the tiny run (mtimes and Snakemake's records kept) without the
    logistic regression's approximations: the data, MAP and NUTS jobs are done, so it spends its
    time in the approximations it is killed in, their evaluations and the table."""
    import contextlib
    import signal
    import time

    work = tmp_path / "repo"
    shutil.copytree(tiny_run, work, symlinks=True)
    for removed in KILL_REMOVED:
        shutil.rmtree(work / removed) if (work / removed).is_dir() else (work / removed).unlink()
    command = [SNAKEMAKE, KILL_TARGET, "--cores", "2", "--configfile", "config/tiny.yaml"]
    env = local_environment()
    approximations = work / "results/approximation/ripley_standardised-logreg/euclidean"
    start = time.monotonic()
    log = tmp_path / "killed_run.log"
    with open(log, "w") as handle:
        run = subprocess.Popen(command, cwd=work, env=env, stdout=handle, stderr=subprocess.STDOUT,
                               start_new_session=True)
    try:
        # Kill once one approximation has finished and another is running.
        warm_directory = None
        while not (any(approximations.glob("*/seed0/samples.npz"))
                   and any("/approximation/" in p for p in incomplete_outputs(work))):
            warm_directory = warm_directory or warm_directory_of(run.pid)
            assert run.poll() is None, "ended before it could be killed:\n" + log.read_text()[-3000:]
            assert time.monotonic() - start < 900, "no approximation ran within 15 minutes"
            time.sleep(0.5)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)  # Snakemake and every job it started
        run.wait()
    killed_at = time.monotonic() - start
    # The killed run's warm process went with it and left its socket directory behind. SIGKILL is
    # delivered asynchronously: on a loaded machine the process may hold its socket a moment after
    # Snakemake is reaped, so wait for that (another worker's run may sweep the directory meanwhile).
    assert warm_directory is not None, "the killed run started no warm process"
    assert warm_directory.name.startswith(DIRECTORY_PREFIX), warm_directory
    deadline = time.monotonic() + 60
    while not (abandoned(str(warm_directory)) or not warm_directory.exists()):
        assert time.monotonic() < deadline, f"the killed run's warm process still answers: {warm_directory}"
        time.sleep(0.2)
    running = incomplete_outputs(work)
    assert running, "nothing was running when the run was killed"
    assert_every_result_file_reads_whole(work)
    assert not (work / KILL_TARGET).exists()

    unlock = run_snakemake("--unlock", "--configfile", "config/tiny.yaml", cwd=work)
    assert unlock.returncode == 0, unlock.stderr[-3000:]
    rerun = run_snakemake(*command[1:], "--rerun-incomplete", cwd=work)
    assert rerun.returncode == 0, rerun.stdout[-3000:] + rerun.stderr[-3000:]
    executed = set(re.findall(r"^\s+output: (.*)$", rerun.stdout + rerun.stderr, re.M))
    assert running <= {p for line in executed for p in line.split(", ")}
    assert incomplete_outputs(work) == set()
    assert assert_every_result_file_reads_whole(work) == []
    assert not warm_directory.exists(), "the rerun did not remove the killed run's warm directory"

    # the logistic regressions' tidy rows, less the wall-clock ones (Table 4, each run's cost)
    summaries = [load_tidy(path / "results/summary/logreg.csv") for path in (work, tiny_run)]
    timed = WALL_CLOCK_METRICS
    pd.testing.assert_frame_equal(*(f[~f["metric"].isin(timed)].reset_index(drop=True) for f in summaries),
                                  check_exact=True)
    assert not summaries[0][~summaries[0]["metric"].isin(timed)].empty
    pd.testing.assert_frame_equal(pd.read_csv(work / "tables/yu2024_table2.csv"),
                                  pd.read_csv(tiny_run / "tables/yu2024_table2.csv"), check_exact=True)
    assert (work / KILL_TARGET).read_text() == (tiny_run / KILL_TARGET).read_text()
    arrays = sorted(p.relative_to(work) for p in (work / "results").rglob("*.npz")
                    if "ripley_standardised-logreg" in p.parts)
    assert len(arrays) >= 6  # map, reference, four approximations
    for path in arrays:
        with np.load(work / path) as ours, np.load(tiny_run / path) as uninterrupted:
            assert ours.files == uninterrupted.files, path
            for name in ours.files:
                np.testing.assert_array_equal(ours[name], uninterrupted[name], err_msg=f"{path}:{name}")
    print(f"killed after {killed_at:.0f} s with {sorted(running)} running; total {time.monotonic() - start:.0f} s")


def test_tiny_run_yu2023_sgmcmc(tiny_run):
    """Yu et al. (2023) at tiny scale: every funnel sampler's chains have a finite W1 per marginal above the
    i.i.d. floor and their figures exist; every MNIST sampler of the grid has a selected point with its
    per-seed test metrics, the learning rate it ran at, an equal-time row, Fig. 3 and the report."""
    experiments = TINY_CONFIG["experiments"]
    for name in ("tables/yu2023_funnel.csv", "figures/yu2023_funnel_geodesics.pdf", "figures/yu2023_funnel_samples.pdf",
                 "tables/yu2023_table1.csv", "tables/yu2023_table2.tex", "tables/yu2023_table4.md",
                 "tables/yu2023_table6.csv", "tables/yu2023_table8.csv", "reports/yu2023_reproduction.md",
                 "figures/yu2023_convergence_n20_horseshoe-mlp.pdf", "figures/yu2023_alpha_sweep_n20_horseshoe-mlp.pdf"):
        assert (tiny_run / name).stat().st_size > 0, name
    funnel = wide(load_tidy(tiny_run / "results/summary/yu2023_funnel.csv"))
    assert set(funnel["method"]) == set(experiments["yu2023_funnel"]["samplers"])
    assert (funnel["n_failed"] == 0).all() and (funnel["n_samples"] == experiments["yu2023_funnel"]["steps"]).all()
    for k in (1, 2):
        assert (np.isfinite(funnel[f"w1_theta{k}"]) & (funnel[f"w1_theta{k}"] > funnel[f"floor_w1_theta{k}"])).all()
    mnist = load_tidy(tiny_run / "results/summary/yu2023_mnist.csv")
    selected = wide(mnist[mnist["anchor"] == "selected"])
    grid = {entry["sampler"]: entry for entry in experiments["yu2023_mnist"]["grid"]}
    assert set(selected["method"]) == set(grid)
    scores = selected.dropna(subset=["lp"])
    assert ((scores["lp"] < 0) & (scores["accuracy"] > 0.5) & (scores["ece"] >= 0)).all()
    assert (scores["curvature"] > 0).all() and (scores["seconds_per_epoch"] > 0).all()
    chains = sorted((tiny_run / "results/yu2023_mnist/chain").rglob("seed*.json"))
    assert chains and {load_json(p)["dtype"] for p in chains} == {experiments["yu2023_mnist"]["dtype"]} == {"float64"}
    table = pd.read_csv(tiny_run / "tables/yu2023_table4.csv").set_index(["method", "metric"])
    for sampler, entry in grid.items():
        assert table.loc[(sampler, "learning_rate"), "mean"] == entry["learning_rate"][0]
    record = load_json(tiny_run / "results/yu2023_mnist/equal_time/n20_horseshoe-mlp.json")
    assert {part["method"] for part in record["per_method"]} == set(grid)
    fastest = next(part for part in record["per_method"] if part["method"] == record["fastest"])
    assert fastest["epochs_in_budget"] == pytest.approx(experiments["yu2023_mnist"]["schedule"]["epochs"])
    assert "Yu et al. (2023)" in (tiny_run / "reports/yu2023_reproduction.md").read_text()


def test_tiny_run_liu2018_rsvgd(tiny_run):
    """Liu & Zhu (2018) at tiny scale: Fig. 1's panels ran their offline stand-ins (German, Australian; Splice and
    Covertype are pinned but not mirrored) with every method, Fig. 2's SAM runs every method with a finite
    log-perplexity, and the report checks the paper's claims; SVGD and RSVGD stand in the leaderboard."""
    experiments = TINY_CONFIG["experiments"]
    for name in ("figures/liu2018_fig1.pdf", "figures/liu2018_fig2.pdf", "tables/liu2018_blr.csv",
                 "tables/liu2018_sam.tex", "reports/liu2018_reproduction.md"):
        assert (tiny_run / name).stat().st_size > 0, name
    blr = wide(load_tidy(tiny_run / "results/summary/liu2018_blr.csv"))
    panels = experiments["liu2018_blr"]["panels"]
    for panel, options in panels.items():
        runs = blr[blr["posterior"] == panel]
        assert set(runs["anchor"]) == {options["stand_in"]}  # the data set actually run, named
        assert set(runs["method"]) == set(options["methods"]) and (runs["n_failed"] == 0).all()
        assert ((runs["accuracy_final"] > 0.5) & (runs["accuracy_final"] <= 1)).all()
    sam = wide(load_tidy(tiny_run / "results/summary/liu2018_sam.csv"))
    assert set(sam["method"]) == set(experiments["liu2018_sam"]["run"])
    assert np.isfinite(sam["log_perplexity_final"]).all() and (sam["n_failed"] == 0).all()
    report = (tiny_run / "reports/liu2018_reproduction.md").read_text()
    assert "## The paper's claims, checked" in report and "RSVGD makes more effective updates" in report
    leaderboard = pd.read_csv(tiny_run / "tables/leaderboard.csv", keep_default_na=False)
    assert {"svgd", "rsvgd"} <= set(leaderboard["method"])
