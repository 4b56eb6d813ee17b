"""Running Snakemake from the workflow tests: the repository, the data mirror, the command, and
the posteriors a config declares."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from data_mirror import mirror_root

REPO = Path(__file__).resolve().parents[1]
MIRROR = mirror_root()  # as the pipeline finds it: $GEOBAYES_DATA_MIRROR, else ../shared/data
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
#: Holds an ``scontrol`` that fails at once. Snakemake loads every installed executor plugin at
#: start, and snakemake-executor-plugin-slurm then runs ``scontrol show config`` (for a help text).
#: Where slurm-client is installed but no controller answers (this machine kind once the cluster
#: test has stopped its daemons) that call waits ~9 s for its timeout, at every Snakemake start of
#: a test. Local runs use no SLURM, so they see this one; the cluster test uses the real one.
NO_SLURM_CONTROLLER = Path(__file__).resolve().with_name("no_slurm_controller")


def local_environment(**overrides: str) -> dict[str, str]:
    """The environment of a local (non-SLURM) Snakemake run: the data mirror set, no SLURM probe."""
    path = f"{NO_SLURM_CONTROLLER}{os.pathsep}{os.environ.get('PATH', '')}"
    return {**os.environ, "GEOBAYES_DATA_MIRROR": str(MIRROR), "PATH": path, **overrides}


def run_snakemake(*args: str, cwd: Path = REPO, timeout: float = 900) -> subprocess.CompletedProcess:
    """``snakemake *args`` in ``cwd`` with the data mirror set, output captured."""
    return subprocess.run(
        [SNAKEMAKE, *args], cwd=cwd, env=local_environment(), capture_output=True, text=True, timeout=timeout
    )


def copy_repository(work: Path) -> Path:
    """A copy of the workflow, configs, library and profiles (profiles/default: the workflow
    profile) in ``work``, in which a test runs the DAG without touching the repository."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for part in ("workflow", "config", "src", "profiles"):
        shutil.copytree(REPO / part, work / part, ignore=ignore, symlinks=True)
    for name in ("Snakefile", "environment.yml"):
        shutil.copy(REPO / name, work / name)
    return work


def job_counts(output: str) -> dict[str, int]:
    """Parse Snakemake's 'Job stats' table (``geobayes.pipeline.time_left.job_stats``); fail where
    the output has none."""
    from geobayes.pipeline.time_left import job_stats

    assert "Job stats:" in output, f"no 'Job stats' table in Snakemake's output:\n{output[-2000:]}"
    return job_stats(output)


#: Placeholders of a posterior declaration's name template (config key experiments.<e>.posteriors).
PLACEHOLDER = re.compile(r"\{(\w+)(:join)?\}")


def declared_count(options: dict) -> int:
    """Posteriors an experiment declares: the product of its name template's axes ({key} over a
    list counts its length; a scalar or {key:join} counts once), counted from the config."""
    count = 1
    for key, join in set(PLACEHOLDER.findall(options["posteriors"]["name"])):
        count *= len(options[key]) if isinstance(options[key], list) and not join else 1
    return count
