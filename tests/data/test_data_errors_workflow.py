"""What a user sees when data are missing or wrong: one real Snakemake run in a copy of the
repository, offline with a broken mirror. Each failing job prints one line saying what was
tried and how to fix it, and no Python traceback."""

from __future__ import annotations

import subprocess

import pytest

from data_mirror import mirror_file
from snakemake_runs import SNAKEMAKE, copy_repository, local_environment

from geobayes.data import get_file
from geobayes.pipeline.warm_start import recorded_usage

pytestmark = [pytest.mark.workflow, pytest.mark.slow]



def test_missing_tampered_and_unavailable_data_each_end_in_one_line(tmp_path):
    work = copy_repository(tmp_path / "repo")
    # A wrong copy of a real file placed by hand in data/raw (one byte flipped).
    tampered = work / "data" / "raw" / "logreg" / "pima.npy"
    tampered.parent.mkdir(parents=True)
    data = bytearray(mirror_file("logreg/pima.npy").read_bytes())
    data[len(data) // 2] ^= 0x01
    tampered.write_bytes(bytes(data))
    targets = ["data/raw/logreg/ripley.npy",  # not in data/raw: mirror broken, URL unreachable here
               "data/prepared/logreg/pima_standardised.npz",  # reads the tampered file
               "data/raw/splice/benchmarks.mat",  # pinned by its git blob id only, not in the mirror
               "data/raw/logreg/microarray.npy"]  # where the GLM experiment would look for Microarray
    env = local_environment(GEOBAYES_DATA_MIRROR="/nonexistent", PYTHONPATH=str(work / "src"))
    result = subprocess.run([SNAKEMAKE, *targets, "--cores", "1", "--keep-going", "--configfile", "config/tiny.yaml"],
                            cwd=work, env=env, capture_output=True, text=True, timeout=300)
    console = result.stdout + result.stderr
    assert result.returncode != 0, console[-3000:]
    assert "Traceback" not in console, console[-5000:]
    errors = [line for line in console.splitlines() if line.startswith("error: ")]
    assert len(errors) == 4, console[-5000:]
    ripley, pima = get_file("logreg/ripley.npy"), get_file("logreg/pima.npy")
    missing = next(line for line in errors if "logreg/ripley.npy" in line)
    assert "GEOBAYES_DATA_MIRROR is not a directory: '/nonexistent'" in missing and f"URL {ripley.url}: " in missing
    by_hand = f"place the file at data/raw/logreg/ripley.npy yourself ({ripley.bytes} bytes, sha256 {ripley.sha256})"
    assert by_hand in missing
    wrong = next(line for line in errors if "logreg/pima.npy" in line)
    assert f"expected sha256 {pima.sha256}" in wrong and "delete data/raw/logreg/pima.npy and rerun" in wrong
    splice = next(line for line in errors if "splice/benchmarks.mat" in line)
    assert splice.startswith("error: cannot obtain data file splice/benchmarks.mat")
    assert splice.endswith(f"yourself (git blob {get_file('splice/benchmarks.mat').git_blob})")
    assert any(line.startswith("error: logreg/microarray.npy: not available: the 90-row Microarray") for line in errors)
    # The rule logs hold the same line, no traceback (then, from a warm fork, its CPU line); nothing
    # half-written is left.
    logs = [work / "logs/download/logreg/ripley.npy.log", work / "logs/prepare/logreg/pima_standardised.log"]
    for log in logs:
        text = log.read_text()
        lines = [line for line in text.strip().splitlines() if recorded_usage(line) is None]
        assert "Traceback" not in text and lines[-1].startswith("error: "), text
    assert sorted(p.name for p in (work / "data" / "raw").rglob("*") if p.is_file()) == ["pima.npy"]
    assert not (work / "data" / "prepared").exists() or not any((work / "data" / "prepared").rglob("*.npz"))
