"""Workflow tests that need no run: lint, the paper-scale plan, config errors, and the DAG's
declarations checked against the library's registries (dry runs and file reads only)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import yaml

from snakemake_runs import (MIRROR, PLACEHOLDER, REPO, SNAKEMAKE, declared_count, job_counts, local_environment,
                             run_snakemake)

pytestmark = pytest.mark.workflow


def test_lint_is_clean():
    result = run_snakemake("--lint")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Congratulations" in result.stdout + result.stderr


#: A rule block of workflow/rules/*.smk, up to the next rule, comment block or function.
RULE_BLOCK = re.compile(r"^rule (\w+):\n(.*?)(?=^rule |^# |^def |\Z)", re.M | re.S)


def test_every_job_is_timed_beside_its_log():
    """Every rule that runs code writes a Snakemake benchmark (wall, CPU, peak memory) at its log's
    path under logs/benchmarks/: the per-rule costs of benchmarks/bench_quick_dag.py and the
    paper-scale projection read them, and a rule without one would be missing from both."""
    untimed, misplaced = [], []
    for path in sorted((REPO / "workflow/rules").glob("*.smk")):
        for match in RULE_BLOCK.finditer(path.read_text()):
            rule, body = match.groups()
            if "script:" not in body and "shell:" not in body:
                continue  # a target rule (all): nothing runs
            log = re.search(r'log:\n\s+"logs/(.+?)\.log"', body)
            bench = re.search(r'benchmark:\n\s+"logs/benchmarks/(.+?)\.tsv"', body)
            if bench is None:
                untimed.append(rule)
            elif log is None or log.group(1) != bench.group(1):
                misplaced.append(rule)
    assert not untimed and not misplaced, f"no benchmark: {untimed}; benchmark not at the log's path: {misplaced}"


HARTMANN_EXPERIMENTS = ("glm", "synthetic", "usps", "growth", "rosenbrock", "lingauss")


def hartmann_posteriors(experiments: dict) -> dict[str, int]:
    """Posteriors per experiment of Hartmann et al. (2026), counted from the config."""
    return {e: declared_count(experiments[e]) for e in HARTMANN_EXPERIMENTS}


def bnn_experiments(experiments: dict) -> tuple[str, ...]:
    """Network regressions: experiments whose declared posteriors are networks (a `networks` block)
    and not classifiers (a `classification` block)."""
    return tuple(e for e, options in experiments.items()
                 if "posteriors" in options and options.get("networks") and "classification" not in options)


def classifier_experiments(experiments: dict) -> tuple[str, ...]:
    """Bergamin et al.'s (2023) classifier experiments (a `classification` block)."""
    return tuple(e for e, options in experiments.items() if "classification" in options)


def classifier_runs(config: dict) -> int:
    """Approximation runs on the classifier posteriors."""
    experiments, reps = config["experiments"], config["approximation"]["repetitions"]
    return reps * sum(declared_count(experiments[e]) * len(experiments[e]["methods"])
                      for e in classifier_experiments(experiments))


def bnn_posteriors(experiments: dict) -> dict[str, int]:
    """Network posteriors (networks x Snelson splits) per network experiment."""
    return {e: declared_count(experiments[e]) for e in bnn_experiments(experiments)}


def bnn_runs(config: dict) -> int:
    """Approximation runs on the network posteriors."""
    experiments, reps = config["experiments"], config["approximation"]["repetitions"]
    return reps * sum(count * len(experiments[e]["methods"]) * len(experiments[e]["anchors"])
                      for e, count in bnn_posteriors(experiments).items())


def expected_runs(config: dict) -> int:
    """Approximation runs of a config: posterior x anchor x method x repetition, every experiment."""
    experiments, reps = config["experiments"], config["approximation"]["repetitions"]
    logreg = experiments["logreg"]
    n_logreg = declared_count(logreg)
    n_empirical_fisher = len(logreg["empirical_fisher_datasets"]) * len(logreg["inputs"])
    posteriors = {e: declared_count(options) for e, options in experiments.items()
                  if "posteriors" in options and e != "logreg"}
    runs = (n_logreg * len(logreg["methods"]) + n_empirical_fisher) * len(logreg["anchors"])
    for name, count in posteriors.items():
        runs += count * len(experiments[name]["anchors"]) * len(experiments[name]["methods"])
    return runs * reps


def test_paper_scale_dag_has_every_job():
    """Dry-run of config/config.yaml: every experiment of Yu et al. (2024) and Hartmann et al.
    (2026) at paper scale."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    logreg = config["experiments"]["logreg"]
    n_logreg = len(logreg["datasets"]) * len(logreg["inputs"])
    result = run_snakemake("-n", "--directory", str(REPO / ".snakemake-dryrun"), "-s", str(REPO / "Snakefile"))
    shutil.rmtree(REPO / ".snakemake-dryrun", ignore_errors=True)
    assert result.returncode == 0, result.stderr
    counts = job_counts(result.stdout)
    hartmann = hartmann_posteriors(config["experiments"])
    with_data = hartmann["glm"] + hartmann["synthetic"] + 3  # + usps, growth, lingauss
    # logreg files, the USPS training split and the growth data
    bnn = bnn_posteriors(config["experiments"])
    n_bnn = sum(bnn.values())
    # + the Snelson files: 4 RLAF splits, 2 text files, snelson.npz; + banana.csv (App. D classifier and
    # Bergamin's banana); + Bergamin's 15 UCI files, MNIST and FashionMNIST (4 each), KMNIST's test set
    # (2; EMNIST is pinned but not in the mirror the test plans with); 20News-different's train and test files
    assert counts["download"] == len(logreg["datasets"]) + 2 + 7 + 1 + 15 + 8 + 2 + 2
    assert counts["prepare_logreg"] == n_logreg
    assert counts["prepare_glm"] == 2 * len(config["experiments"]["glm"]["datasets"])
    assert counts["prepare_synthetic"] == hartmann["synthetic"]
    for rule in ("prepare_usps", "prepare_growth", "prepare_lingauss"):
        assert counts[rule] == 1, rule
    # NUTS for the posteriors with data; exact draws for the closed-form targets
    # (10 Gaussians, 3 squiggles, the funnel and the Rosenbrock).
    # ... each computed twice: by the configured backend (NumPyro) and, for the cross-check
    # (reference.crosscheck.posteriors: all), by Stan, and the two compared once per posterior
    n_nuts = n_logreg + 1 + with_data + n_bnn
    assert counts["reference"] == 2 * n_nuts
    assert counts["reference_crosscheck"] == n_nuts
    assert counts["exact_reference"] == 10 + 3 + 1 + 1
    # Euclidean MAPs everywhere except squiggle and funnel (Hausdorff); the banana gets both.
    classifiers = {e: declared_count(config["experiments"][e]) for e in classifier_experiments(config["experiments"])}
    n_classifiers = sum(classifiers.values())  # classifiers have no NUTS reference
    assert counts["map"] == n_logreg + 10 + 3 + 1 + 2 + with_data + 1 + n_bnn + n_classifiers
    # Network posteriors are evaluated by their predictive (MSE, NLL, push-forward W2), not W1.
    # One approximation (evaluation) job per posterior x anchor x method writes every repetition.
    reps = config["approximation"]["repetitions"]
    # 955 + SVGD and RSVGD on the 2-D targets (3 squiggles, the funnel, the banana at both anchors) x 5 repetitions
    assert counts["approximate"] * reps == expected_runs(config) == 1015 + bnn_runs(config) + classifier_runs(config)
    assert counts["evaluate"] * reps == 1015
    # ... and so does the prediction of the network posteriors
    assert counts["predict_network"] * reps == bnn_runs(config) == 5 * (4 * 4 + 4 * 6 + 2)
    assert counts["predict_network_reference"] == n_bnn == 9
    # Snelson splits (Yu 4, Bergamin 2, Hartmann 1); trained networks: Yu's and Bergamin's.
    assert counts["prepare_snelson"] == 7
    assert counts["train_network"] == bnn["bnn_yu"] + bnn["bnn_bergamin"] == 8
    # Table 4 timings, plus Table 3/5's seconds per sample (RLA-B, RLA-BLog, RLA-F on 4 posteriors)
    assert counts["time_sampling"] == 5 * 2 * 3 + 4 * 3
    # Tables 3 and 5 are entries yu2024_table3/5 of tables.yaml (rule table) over results/summary/bnn_yu.csv
    assert counts["evaluate_pushforward"] == 5 * 2  # Fig. 5's push-forward W2: bnn_hartmann's LA and WG runs
    for rule, n in (("figure_bnn_yu", 2), ("figure_bnn_bergamin", 2), ("figure_bnn_hartmann", 1)):
        assert counts[rule] == n, rule
    assert counts["time_wg"] == with_data + 1  # every Hartmann posterior with data + Rosenbrock
    # Hartmann et al. (2026), App. D classifier: one data subset, 5 optima x (MAP, LA, WG), one report
    optima = config["bnn_classifier"]["optima"]
    assert (counts["prepare_bnn_classifier"], counts["report_bnn_classifier"]) == (1, 1)
    assert counts["bnn_classifier_map"] == optima == 5 and counts["bnn_classifier_approximate"] == 2 * optima
    # Hartmann et al. (2026), App. D regression (Figs. 6-7): 5 optima in one MAP job, LA and WG
    # and their predictions at each, one figure job
    maps = config["bnn_hartmann_maps"]["optima"]
    assert (counts["map_optima"], counts["map_robustness"], counts["figure_bnn_hartmann_maps"]) == (1, 1, 1)
    assert counts["approximate_optimum"] == counts["predict_optimum"] == 2 * maps == 10
    # Yu et al. (2024) Fig. 15: sine data per N x repetition, a network per width x N x repetition,
    # RLA-B and RLA-F timed on each, one table and one figure
    scalability = config["experiments"]["bnn_scalability"]
    cells = len(scalability["widths"]) * len(scalability["sizes"]) * scalability["repetitions"]
    assert counts["prepare_sine"] == len(scalability["sizes"]) * scalability["repetitions"] == 30
    assert counts["train_scalability_network"] == cells == 120
    assert counts["time_bnn_scalability"] == len(scalability["methods"]) * cells == 240
    assert counts["figure_bnn_scalability"] == 1  # its table: entry yu2024_fig15 of tables.yaml (rule table)
    # one tidy summary per experiment that a table of workflow/resources/tables.yaml reads
    tables = yaml.safe_load((REPO / "workflow/resources/tables.yaml").read_text())["tables"]
    assert counts["summarise"] == len({e for table in tables.values() for e in table["experiments"]})
    assert counts["figure_target_samples"] == 5  # squiggle easy, difficult, hartmann; funnel; banana
    # their contours are computed upstream, one grid per target (banana's also serves its Fig. 5),
    # and the banana's Fig. 1 arrays (metric, Exp maps) by a rule of their own: figures only draw
    assert counts["target_density_grid"] == 5 and counts["banana_figure_data"] == 1
    assert counts["contour_grids"] == counts["figure_wg_contours"] == counts["figure_wg_scatter"] == 2
    # every table of workflow/resources/tables.yaml is a paper-scale target, rendered by the one rule, but Yu et
    # al.'s (2023) CIFAR-10 Tables 3, 5, 7, 9: planned with the offline mirror, which lacks the pinned archive
    cifar = ["yu2023_table3", "yu2023_table5", "yu2023_table7", "yu2023_table9"]
    tables = yaml.safe_load((REPO / "workflow/resources/tables.yaml").read_text())["tables"]
    assert set(cifar) <= set(tables) and counts["table"] == len(tables) - len(cifar)
    for rule in ("figure_logreg", "figure_leaderboard", "summarise_all", "figure_gaussian", "figure_banana", "all"):
        assert counts[rule] == 1, rule
    # Yu et al. (2024), Hartmann et al. (2026), Bergamin et al. (2023), Yu et al. (2023), Liu & Zhu (2018)
    assert counts["reproduction_report"] == 5
    # Bergamin et al. (2023), classification: a split per data set (x seed where it draws one), a
    # training per data set x seed x network (both prior settings), a prediction per approximation
    assert classifiers == {"bergamin_banana": 10, "bergamin_pinwheel": 2, "bergamin_uci": 60, "bergamin_mnist": 12}
    assert counts["prepare_classification"] == 1 + 1 + 6 * 5 + 2 * 3
    assert counts["train_classifier"] == n_classifiers // 2 == 42
    assert counts["predict_classifier"] * reps == classifier_runs(config) == 5 * (10 * 7 + 2 * 5 + 60 * 5 + 12 * 7)
    assert counts["prepare_image_test_set"] == 3 and counts["figure_confidence_maps"] == 2
    # Yu et al. (2023): a funnel chain per sampler x repetition; an MNIST chain per (width, prior) x sampler x
    # grid point x seed (the paper's grid: Monge's points are learning rates x alpha^2), a selection per
    # (width, prior) x sampler, a Fig. 3 per (width, prior)
    funnel, mnist = config["experiments"]["yu2023_funnel"], config["experiments"]["yu2023_mnist"]
    assert counts["yu2023_funnel_chain"] == len(funnel["samplers"]) * funnel["repetitions"] == 12
    points = sum(len(g["learning_rate"]) * len(g["alpha2"] or [None]) for g in mnist["grid"])
    # (rules yu2023_chain/select over both studies: CIFAR-10's archive is not in the mirror, so MNIST's only)
    assert counts["yu2023_chain"] == points * mnist["seeds"] == 3160
    assert counts["yu2023_select"] == len(mnist["grid"]) == 30
    assert counts["yu2023_equal_time"] == len(mnist["widths"]) * len(mnist["priors"]) == 6
    assert "prepare_cifar10_yu2023" not in counts
    assert counts["figure_yu2023_mnist_convergence"] == len(mnist["widths"]) * len(mnist["priors"]) == 6
    assert counts["figure_yu2023_alpha_sweep"] == 6  # Fig. 4 per (width, prior): Monge runs on every one
    assert counts["prepare_mnist_yu2023"] == counts["yu2023_funnel_geodesics"] == 1
    # Liu & Zhu (2018) Fig. 1: a run per panel x method x run; planned with a mirror that lacks Splice and
    # Covertype, so the stand-ins run, each on a split of its own per run (German 20, Australian 10)
    panels = config["experiments"]["liu2018_blr"]["panels"]
    assert counts["liu2018_blr_run"] == sum(p["runs"] * len(p["methods"]) for p in panels.values()) == 20 * 4 + 10 * 2
    assert counts["prepare_liu2018_blr"] == 20 + 10 and counts["figure_liu2018_fig1"] == 1
    # Fig. 2: a SAM run per method x particle count x seed (Fig. 2a's count is one of Fig. 2b's)
    sam = config["experiments"]["liu2018_sam"]
    assert counts["liu2018_sam_run"] == len(sam["run"]) * len(sam["particles"]) * sam["seeds"] == 7 * 5
    assert counts["prepare_liu2018_sam"] == counts["figure_liu2018_fig2"] == 1


def test_bad_config_value_is_an_error_naming_the_key(tmp_path):
    result = run_snakemake("-n", "--directory", str(tmp_path), "-s", str(REPO / "Snakefile"),
                           "--config", "device=tpu")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "device" in output and "tpu" in output


def test_a_config_typo_is_one_line_naming_the_key_not_a_schema_dump(tmp_path):
    result = run_snakemake("-n", "--directory", str(tmp_path), "-s", str(REPO / "Snakefile"), "--config", "devic=cpu")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "unknown key 'devic' (did you mean 'device'?)" in output
    assert len(output.splitlines()) < 20, output[-3000:]  # was thousands of lines (schema + config)


def refused_overrides(tmp_path, overrides: str) -> str:
    """The output of a paper-scale dry run with ``overrides`` (YAML) merged over config.yaml, which must
    stop before any job in a few lines (one naming the problem), not a dump."""
    path = tmp_path / "overrides.yaml"
    path.write_text(overrides + "\n")
    result = run_snakemake("-n", "--directory", str(tmp_path), "-s", str(REPO / "Snakefile"), "--configfile", str(path))
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert len(output.splitlines()) < 20, output[-3000:]
    return output


def test_a_sampler_run_but_not_defined_is_one_line_naming_it(tmp_path):
    # experiments.liu2018_sam.run selects entries of the samplers map (a list replaces, a map merges)
    output = refused_overrides(tmp_path, "experiments: {liu2018_sam: {run: [rsvgd, gmc_sequential]}}")
    assert "experiments.liu2018_sam.run names 'gmc_sequential', which experiments.liu2018_sam.samplers does not" in output


def test_a_posterior_method_samples_name_that_is_no_posterior_is_one_line_naming_it(tmp_path):
    # A misspelt posterior would otherwise change no job's sample count, silently.
    output = refused_overrides(tmp_path, "experiments: {bergamin_mnist: {approximation: "
                                         "{posterior_method_samples: {mnist_fixd_seed0-cnn: {rla_b_batched: 1}}}}}")
    assert ("experiments.bergamin_mnist.approximation.posterior_method_samples: 'mnist_fixd_seed0-cnn' is not a "
            "posterior of the experiment (its posteriors: ") in output and "mnist_fixed_seed0-cnn" in output


def test_crosscheck_exclude_leaves_posteriors_out_and_a_misspelt_one_is_one_line(tmp_path):
    # reference.crosscheck.exclude (quick scale: `evaluated` but the raw-input logistic regressions)
    overrides = tmp_path / "overrides.yaml"
    overrides.write_text("reference: {crosscheck: {exclude: [ripley-poisgp]}}\n")
    result = run_snakemake("-n", "--forceall", "--configfile", "config/tiny.yaml", str(overrides))
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    counts = job_counts(result.stdout + result.stderr)
    assert counts["reference_crosscheck"] == 2  # tiny: ripley_standardised-logreg, ripley-poisgp, yu2024-banana

    overrides.write_text("reference: {crosscheck: {exclude: [ripley-poisgpp]}}\n")
    result = run_snakemake("-n", "--configfile", "config/tiny.yaml", str(overrides))
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "reference.crosscheck.exclude: ripley-poisgpp have no NUTS reference in this configuration" in output
    assert len(output.splitlines()) < 20, output[-3000:]


def test_evaluations_per_step_that_are_not_the_solvers_are_one_line_naming_both_keys(tmp_path):
    # The cost T counts evaluations: Bosh3 makes 3 a step, so leaving the shared 6 would misreport it.
    output = refused_overrides(tmp_path, "experiments: {funnel: {approximation: {ode: {solver: bosh3}}}}")
    assert ("experiments.funnel.approximation: evaluations_per_step is 6, but ode.solver bosh3 evaluates the "
            "vector field 3 times a step; set it to 3") in output


def test_dag_and_library_agree_on_the_solvers_evaluations():
    """approximation_common.smk lists each solver's evaluations a step without importing JAX."""
    from geobayes.geometry.exponential_map import OdeSolver

    text = (REPO / "workflow" / "rules" / "approximation_common.smk").read_text()
    block = text.split("SOLVER_EVALUATIONS = {", 1)[1].split("}", 1)[0]
    listed = {m.group(1): int(m.group(2)) for m in re.finditer(r'"(\w+)": (\d+)', block)}
    assert listed == {str(solver): solver.evaluations_per_step for solver in OdeSolver}


def test_dag_and_library_agree_on_the_snelson_split_files():
    """common.smk lists each split's registered files without importing the library."""
    from geobayes.data.snelson import SPLIT_FILES

    text = (REPO / "workflow" / "rules" / "common.smk").read_text()
    block = text.split("SNELSON_SPLIT_FILES = {", 1)[1].split("}", 1)[0]
    listed = {m.group(1): re.findall(r'"([^"]+)"', m.group(2))
              for m in re.finditer(r'"(\w+)": \[([^\]]*)\]', block)}
    assert listed == {split: list(files) for split, files in SPLIT_FILES.items()}


def test_every_yu2023_classifier_study_has_its_stages_in_the_tidy_layer():
    """The rules' study table (YU2023_STUDIES) and the tidy layer's per-study stages
    (report/tidy.py STAGE_METRICS) name the same studies: a study added to one only would plan
    chains whose records the summary then refuses as an unknown stage."""
    from geobayes.report.tidy import STAGE_METRICS

    text = (REPO / "workflow" / "rules" / "yu2023_classifiers_common.smk").read_text()
    block = text.split("YU2023_STUDIES = {", 1)[1].split("\n}", 1)[0]
    studies = set(re.findall(r'^    "(\w+)": \{', block, re.M))
    assert studies == {"yu2023_mnist", "yu2023_cifar"}, studies
    staged = {stage.rsplit("_", 1)[0] for stage in STAGE_METRICS if stage.endswith("_chain")} - {"yu2023_funnel"}
    assert staged == studies
    for study in studies:
        assert {f"{study}_chain", f"{study}_selected", f"{study}_equal_time"} <= STAGE_METRICS.keys(), study


@pytest.mark.parametrize("config_file", ["config.yaml", "quick.yaml", "tiny.yaml"])
def test_dag_and_library_agree_on_the_closed_form_targets(config_file):
    """common.smk decides exact vs NUTS references from the config's declarations (data: null)
    without importing the library; every declared model must be in the library's registry, and
    declared without data exactly when the registry builds it as a closed-form target
    (otherwise a target would get the wrong reference, or no builder)."""
    from geobayes.registry import lookup

    experiments = yaml.safe_load((REPO / "config" / config_file).read_text())["experiments"]
    checked = 0
    for experiment, options in experiments.items():
        if "posteriors" not in options:
            continue
        declaration = options["posteriors"]
        model_part = declaration["name"].split("-", 1)[1]
        match = PLACEHOLDER.fullmatch(model_part)
        models = [str(m) for m in options[match.group(1)]] if match else [model_part]
        for model in models:
            entry = lookup(model, options)
            data = declaration["data"].get(model) if isinstance(declaration["data"], dict) else declaration["data"]
            assert entry.closed_form == (data is None), f"{experiment}: model {model!r}, data {data!r}"
            checked += 1
    # every experiment but the studies with rules of their own (bnn_scalability, yu2023_funnel, yu2023_mnist,
    # yu2023_cifar, liu2018_blr, liu2018_sam)
    assert checked >= len(experiments) - 6


def test_the_cifar10_study_is_planned_where_its_archive_is_found(tmp_path):
    """Yu et al.'s (2023) CIFAR-10 study (config experiments.yu2023_cifar): offline without the pinned archive it plans
    nothing but its (empty) summary, and the report lists Tables 3, 5, 7 and 9 as not run; with the archive in the
    mirror (here an empty stand-in file: a dry run reads no data), the tiny config plans its preparation, a chain per
    prior x grid point x seed, a selection per sampler, the equal-time record and the four tables."""
    from geobayes.data.cifar10_yu2023 import CIFAR10_FILE

    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for entry in MIRROR.iterdir():
        (mirror / entry.name).symlink_to(entry)
    (mirror / CIFAR10_FILE).parent.mkdir()
    (mirror / CIFAR10_FILE).touch()
    work = tmp_path / "run"
    planned = {}
    for name, env in (("offline", local_environment()), ("archive", local_environment(GEOBAYES_DATA_MIRROR=str(mirror)))):
        result = subprocess.run([SNAKEMAKE, "-n", "--directory", str(work), "-s", str(REPO / "Snakefile"),
                                 "--configfile", str(REPO / "config/tiny.yaml")],
                                cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stderr[-3000:]
        planned[name] = (job_counts(result.stdout), result.stdout)
    cifar = yaml.safe_load((REPO / "config/tiny.yaml").read_text())["experiments"]["yu2023_cifar"]
    offline, archive = planned["offline"][0], planned["archive"][0]
    assert "prepare_cifar10_yu2023" not in offline and "yu2023_table3" not in planned["offline"][1]
    assert archive["prepare_cifar10_yu2023"] == 1
    assert archive["yu2023_chain"] - offline["yu2023_chain"] == len(cifar["grid"]) * cifar["seeds"] == 2
    assert archive["yu2023_select"] - offline["yu2023_select"] == len(cifar["grid"])
    assert archive["yu2023_equal_time"] - offline["yu2023_equal_time"] == len(cifar["priors"])
    assert archive["table"] - offline["table"] == 4
    for posterior in (f"{prior}-resnet20" for prior in cifar["priors"]):
        assert f"results/yu2023_cifar/chain/{posterior}/shampoo/lr0.01/seed0.json" in planned["archive"][1]
