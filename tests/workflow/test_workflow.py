"""Workflow tests: lint, the paper-scale DAG, config errors, and a tiny real end-to-end run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from geobayes.io import load_json

pytestmark = pytest.mark.workflow

REPO = Path(__file__).resolve().parents[2]
MIRROR = (REPO / ".." / "shared" / "data").resolve()
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def run_snakemake(*args: str, cwd: Path = REPO, timeout: float = 900) -> subprocess.CompletedProcess:
    env = dict(os.environ, GEOBAYES_DATA_MIRROR=str(MIRROR))
    return subprocess.run(
        [SNAKEMAKE, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )


def job_counts(output: str) -> dict[str, int]:
    """Parse Snakemake's 'Job stats' table."""
    block = output.split("Job stats:")[1]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", block, re.M)}


def test_lint_is_clean():
    result = run_snakemake("--lint")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Congratulations" in result.stdout + result.stderr


def test_paper_scale_dag_has_every_job():
    """Dry-run of config/config.yaml: the whole Table 2 experiment at paper scale."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    logreg = config["experiments"]["logreg"]
    n_posteriors = len(logreg["datasets"]) * len(logreg["inputs"])
    n_runs = n_posteriors * len(logreg["methods"]) * config["approximation"]["repetitions"]
    result = run_snakemake("-n", "--directory", str(REPO / ".snakemake-dryrun"), "-s", str(REPO / "Snakefile"))
    shutil.rmtree(REPO / ".snakemake-dryrun", ignore_errors=True)
    assert result.returncode == 0, result.stderr
    counts = job_counts(result.stdout)
    assert counts["download"] == len(logreg["datasets"])
    assert counts["prepare_logreg"] == counts["map"] == counts["reference"] == n_posteriors
    assert counts["approximate"] == counts["evaluate"] == n_runs == 150
    for rule in ("summarise_logreg", "table_logreg", "figure_logreg", "all"):
        assert counts[rule] == 1


def test_bad_config_value_is_an_error_naming_the_key(tmp_path):
    result = run_snakemake("-n", "--directory", str(tmp_path), "-s", str(REPO / "Snakefile"),
                           "--config", "device=tpu")
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "device" in output and "tpu" in output


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """Copy of the repository's workflow and library in which config/tiny.yaml is run for real."""
    if not MIRROR.is_dir():
        pytest.skip(f"no data mirror at {MIRROR}")
    work = tmp_path_factory.mktemp("repo")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("workflow", "config", "src"):
        shutil.copytree(REPO / part, work / part, ignore=ignore, symlinks=True)
    shutil.copy(REPO / "Snakefile", work / "Snakefile")
    shutil.copy(REPO / "environment.yml", work / "environment.yml")
    result = run_snakemake("--cores", "2", "--configfile", "config/tiny.yaml", cwd=work)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return work


def test_tiny_run_produces_tables_and_figure(tiny_run):
    for name in ("tables/logreg.tex", "tables/logreg.csv", "tables/logreg_vs_paper.tex",
                 "tables/logreg_vs_paper.csv", "figures/logreg.pdf", "figures/logreg.png"):
        assert (tiny_run / name).stat().st_size > 0, name
    summary = pd.read_csv(tiny_run / "results/summary/logreg.csv")
    assert sorted(summary["method"]) == ["ela", "rla_b", "rla_f"]
    assert np.isfinite(summary["wasserstein1"]).all() and (summary["wasserstein1"] > 0).all()
    assert (summary["n_failed"] == 0).all()
    assert "Ripl" in (tiny_run / "tables/logreg.tex").read_text()


def test_tiny_run_records_sidecars_and_checks(tiny_run):
    reference = load_json(tiny_run / "results/reference/ripley_standardised-logreg/nuts.json")
    assert all(reference["checks"].values())
    sidecar = load_json(tiny_run / "results/approximation/ripley_standardised-logreg/rla_f/seed0/samples.json")
    assert sidecar["device"] == "cpu"
    assert sidecar["provenance"]["packages"]["jax"]
    assert sidecar["result_codes"] == {"0": sidecar["n_samples"]}
    assert sidecar["config"]["approximation"]["ode"]["max_steps"] == 4096


def test_rerun_after_editing_one_method_touches_only_its_jobs(tiny_run):
    nothing = run_snakemake("-n", "--configfile", "config/tiny.yaml", cwd=tiny_run)
    assert "Nothing to be done" in nothing.stdout + nothing.stderr
    module = tiny_run / "src/geobayes/methods/rla_b.py"
    module.write_text(module.read_text() + "\n")
    result = run_snakemake("-n", "--configfile", "config/tiny.yaml", cwd=tiny_run)
    counts = job_counts(result.stdout)
    assert counts == {"approximate": 1, "evaluate": 1, "summarise_logreg": 1, "table_logreg": 1,
                      "figure_logreg": 1, "all": 1, "total": 6}
    assert "output: results/approximation/ripley_standardised-logreg/rla_b/seed0/samples.npz" in result.stdout
    assert "output: results/approximation/ripley_standardised-logreg/rla_f" not in result.stdout
