"""The Monte Carlo floor in the DAG: `floor_files` plans one file per posterior x repetition, at the
experiment's sample count, written by one job per posterior covering the repetitions."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from snakemake_runs import SNAKEMAKE, local_environment

pytestmark = pytest.mark.workflow

REPO = Path(__file__).resolve().parents[2]

TINY_CONFIG = yaml.safe_load((REPO / "config" / "tiny.yaml").read_text())
EXPERIMENTS = ("gaussian", "squiggle", "logreg")


def expected_floor_files() -> set[str]:
    """Floor files of the tiny config's gaussian, squiggle and logreg posteriors, from the config:
    the experiment's sample count (a method's own `method_samples` count gets no floor of its own)."""
    experiments, approximation = TINY_CONFIG["experiments"], TINY_CONFIG["approximation"]
    posteriors = {"gaussian": [f"d{d}-gaussian" for d in experiments["gaussian"]["dims"]],
                  "squiggle": [f"{s}-squiggle" for s in experiments["squiggle"]["settings"]],
                  "logreg": [f"{d}_{i}-logreg" for d in experiments["logreg"]["datasets"]
                             for i in experiments["logreg"]["inputs"]]}
    files = set()
    for experiment in EXPERIMENTS:
        overrides = experiments[experiment].get("approximation", {})
        n = overrides.get("samples", approximation["samples"])
        files |= {f"results/floor/{p}/n{n}/seed{k}.json" for p in posteriors[experiment]
                  for k in range(approximation["repetitions"])}
    return files


def test_floor_files_plan_one_floor_per_posterior_and_repetition(tmp_path):
    work = tmp_path / "repo"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("workflow", "config", "src", "profiles"):
        shutil.copytree(REPO / part, work / part, ignore=ignore, symlinks=True)
    snakefile = (REPO / "Snakefile").read_text()
    experiments = ", ".join(repr(e) for e in EXPERIMENTS)
    collect = f"[f for e in ({experiments}) for f in floor_files(e)]"
    (work / "Snakefile").write_text(snakefile + f"\n\nrule floor_check:\n    input:\n        {collect},\n")
    result = subprocess.run([SNAKEMAKE, "-n", "--configfile", "config/tiny.yaml", "--", "floor_check"], cwd=work,
                            env=local_environment(), capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    jobs = [line.split(", ") for line in re.findall(r"output: (results/floor/.+)", result.stdout)]
    planned = {path.strip() for outputs in jobs for path in outputs}
    expected = expected_floor_files()
    # A method's own count (method_samples: the banana's RLA-BLog) gets no floor; the experiment's does.
    assert {Path(p).parent.name for p in expected if "-gaussian/" in p} == {f"n{TINY_CONFIG['approximation']['samples']}"}
    assert planned == expected
    assert len(jobs) == len(expected) // TINY_CONFIG["approximation"]["repetitions"]
