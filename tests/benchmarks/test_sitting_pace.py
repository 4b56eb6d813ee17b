"""benchmarks/sitting_pace.py: this sitting's pace from the same jobs rerun with a recorded run's code."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from benchmark_scripts import load_benchmark
from data_mirror import MIRROR_ENV, mirror_file, mirror_root

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "sitting_pace.py"
NUTS = "logs/benchmarks/reference/heart_raw-logreg.nuts.tsv"
MAP = "logs/benchmarks/map/heart_raw-logreg/euclidean.tsv"
DOWNLOAD = "logs/benchmarks/download/logreg/heart.npy.tsv"


def record(seconds: dict[str, float], commit: str | None = "0123abc") -> dict:
    """A bench_quick_dag.py record holding these jobs' wall seconds."""
    return {"rules": {}, "papers": {}, "wall_s": 1.0, "job_time_s": 1.0, "cpu_s": 1.0,
            "provenance": {"git_commit": commit},
            "jobs": [{"path": path, "rule": path.split("/")[2], "wall_s": s} for path, s in seconds.items()]}


def now(seconds: dict[str, float]) -> dict[str, tuple[str, float]]:
    return {path: (path.split("/")[2], s) for path, s in seconds.items()}


def test_the_ratios_are_over_the_jobs_all_four_hold_downloads_apart():
    pace = load_benchmark("sitting_pace")
    baseline_now = now({NUTS: 12.0, MAP: 3.0, DOWNLOAD: 9.0, "logs/benchmarks/map/only_now.tsv": 5.0})
    current_now = now({NUTS: 10.0, MAP: 2.0, DOWNLOAD: 9.0})
    baseline_record = record({NUTS: 10.0, MAP: 2.0, DOWNLOAD: 0.5})
    current_record = record({NUTS: 9.0, MAP: 3.0, DOWNLOAD: 0.5})
    result = pace.compare(baseline_now, current_now, baseline_record, current_record)
    assert result["jobs"] == 2 and result["unmatched_jobs"] == 2  # the download and the job no record holds
    assert result["job_seconds"] == {"baseline_now": 15.0, "current_now": 12.0, "baseline_record": 12.0,
                                     "current_record": 12.0}
    assert result["ratios"] == pytest.approx({"baseline_now_over_record": 1.25, "current_now_over_record": 1.0,
                                              "current_over_baseline_now": 0.8})
    assert result["rules"]["reference"] == {"jobs": 1, "baseline_now": 12.0, "current_now": 10.0,
                                            "baseline_record": 10.0, "current_record": 9.0}


def test_each_job_counts_its_median_over_the_rounds():
    pace = load_benchmark("sitting_pace")
    rounds = [now({NUTS: 10.0, MAP: 1.0}), now({NUTS: 30.0, MAP: 2.0}), now({NUTS: 11.0})]
    assert pace.job_seconds(rounds) == {NUTS: ("reference", 11.0)}  # the MAP ran in two rounds only


def run(*arguments: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, cwd=REPO,
                          env=env)


@pytest.mark.workflow
@pytest.mark.slow
def test_both_codes_run_the_targets_from_empty_trees_and_are_compared_with_their_records(tmp_path):
    """The real thing on one prepare job: two clones (the baseline is HEAD here), Snakemake in each, the benchmark
    files read back and set against the records."""
    mirror_file("logreg/ripley.npy")
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    prepare = "logs/benchmarks/prepare/logreg/ripley_raw.tsv"
    baseline, current, output = tmp_path / "baseline.json", tmp_path / "current.json", tmp_path / "pace.json"
    baseline.write_text(json.dumps(record({prepare: 0.5}, head)))
    current.write_text(json.dumps(record({prepare: 0.25})))
    env = {**os.environ, MIRROR_ENV: str(mirror_root())}
    out = run("--baseline-record", str(baseline), "--current-record", str(current), "--targets",
              "data/prepared/logreg/ripley_raw.npz", "--set", "warm_start=False", "--rounds", "1", "--cores", "1",
              "--output", str(output), env=env)
    assert out.returncode == 0, out.stderr
    result = json.loads(output.read_text())
    assert (result["baseline"]["commit"], result["current"]["commit"]) == (head, head)
    assert result["set"] == ["warm_start=False"]
    assert result["jobs"] == 1 and result["unmatched_jobs"] == 1  # the download, left out by default
    seconds = result["job_seconds"]
    assert seconds["baseline_now"] > 0 and seconds["current_now"] > 0
    assert result["ratios"]["baseline_now_over_record"] == pytest.approx(seconds["baseline_now"] / 0.5)
    assert result["ratios"]["current_now_over_record"] == pytest.approx(seconds["current_now"] / 0.25)


@pytest.mark.parametrize("commit, expected", [
    (None, "names no commit (provenance.git_commit)"),
    ("f" * 40, f"commit {'f' * 40} is not in"),
])
def test_a_record_whose_code_cannot_be_rerun_is_named_in_one_line_and_nothing_is_written(tmp_path, commit, expected):
    baseline, current, output = tmp_path / "baseline.json", tmp_path / "current.json", tmp_path / "pace.json"
    baseline.write_text(json.dumps(record({NUTS: 1.0}, commit)))
    current.write_text(json.dumps(record({NUTS: 1.0})))
    out = run("--baseline-record", str(baseline), "--current-record", str(current), "--output", str(output))
    assert out.returncode != 0
    assert expected in out.stderr and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not output.exists()


@pytest.mark.workflow
def test_targets_that_fail_are_named_in_one_line_and_nothing_is_written(tmp_path):
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()
    baseline, current, output = tmp_path / "baseline.json", tmp_path / "current.json", tmp_path / "pace.json"
    baseline.write_text(json.dumps(record({NUTS: 1.0}, head)))
    current.write_text(json.dumps(record({NUTS: 1.0})))
    out = run("--baseline-record", str(baseline), "--current-record", str(current), "--targets", "results/no/such.json",
              "--set", "warm_start=False", "--rounds", "1", "--output", str(output))
    assert out.returncode != 0
    assert "the targets failed with the code of baseline: MissingRuleException: No rule to produce results/no/such.json" \
        in out.stderr, out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not output.exists()


def test_the_default_targets_are_the_configs_logistic_regressions():
    pace = load_benchmark("sitting_pace")
    config = {"seed": 3, "experiments": {"logreg": {"datasets": ["pima", "heart"], "inputs": ["raw"]}}}
    assert pace.default_targets(config) == [
        "results/map/pima_raw-logreg/euclidean.npz", "results/reference/pima_raw-logreg/nuts.json",
        "results/approximation/pima_raw-logreg/euclidean/ela/seed3/samples.json",
        "results/map/heart_raw-logreg/euclidean.npz", "results/reference/heart_raw-logreg/nuts.json",
        "results/approximation/heart_raw-logreg/euclidean/ela/seed3/samples.json"]
