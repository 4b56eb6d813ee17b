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


def run_snakemake(*args: str, cwd: Path = REPO, timeout: float = 900) -> subprocess.CompletedProcess:
    """``snakemake *args`` in ``cwd`` with the data mirror set, output captured."""
    env = dict(os.environ, GEOBAYES_DATA_MIRROR=str(MIRROR))
    return subprocess.run(
        [SNAKEMAKE, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
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
    """Parse Snakemake's 'Job stats' table."""
    block = output.split("Job stats:")[1]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", block, re.M)}


#: Placeholders of a posterior declaration's name template (config key experiments.<e>.posteriors).
PLACEHOLDER = re.compile(r"\{(\w+)(:join)?\}")


def declared_count(options: dict) -> int:
    """Posteriors an experiment declares: the product of its name template's axes ({key} over a
    list counts its length; a scalar or {key:join} counts once), counted from the config."""
    count = 1
    for key, join in set(PLACEHOLDER.findall(options["posteriors"]["name"])):
        count *= len(options[key]) if isinstance(options[key], list) and not join else 1
    return count
