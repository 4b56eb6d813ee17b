"""The SLURM profile (profiles/slurm) on a real single-node SLURM cluster.

tests/workflow/slurm/cluster.sh starts munged, slurmctld and slurmd on this machine (installing
the Debian packages when missing; recipe: /work/shared/notes/slurm-local-cluster.md). A small
part of the tiny DAG (data -> MAP -> NUTS reference -> RLA-B approximation -> W1 evaluation) is
run through `--profile profiles/slurm`; every job must have gone through sbatch (squeue and the
kept SLURM logs say so) and its outputs must equal those of a local run of the same target. A
job asking for a GPU on the GRES-less node must fail before submission with a message that
names the problem. The tests skip only where no cluster can be started (not root, no apt).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import numpy as np
import pytest

from data_mirror import missing
from snakemake_runs import MIRROR, REPO, SNAKEMAKE, copy_repository

from geobayes.pipeline.warm_start import recorded_usage

pytestmark = pytest.mark.workflow

CLUSTER = Path(__file__).resolve().with_name("slurm") / "cluster.sh"

POSTERIOR = "ripley_standardised-logreg"
TARGET = f"results/evaluation/{POSTERIOR}/euclidean/rla_b/seed0/metrics.json"
# Rules of TARGET that run as SLURM jobs (download is a local rule).
SLURM_RULES = {"prepare_logreg", "map", "reference", "approximate", "evaluate"}
# Options of a test cluster: no slurmdbd, so the plugin must poll with squeue (with its default,
# sacct, the run hangs forever); first poll after 1 s; keep the SLURM logs of successful jobs.
TEST_CLUSTER_OPTIONS = ("--slurm-status-command", "squeue", "--slurm-init-seconds-before-status-checks", "1",
                        "--slurm-keep-successful-logs", "--latency-wait", "5", "--jobs", "2")
# `timeout -k`: a hung run ignores SIGTERM, SIGKILL 10 s later ends it.
RUN_LIMIT_S = 900


def environment() -> dict[str, str]:
    env = dict(os.environ, GEOBAYES_DATA_MIRROR=str(MIRROR))
    env.pop("GEOBAYES_SLURM_GRES", None)
    return env


def snakemake_command(*args: str) -> list[str]:
    return ["timeout", "-k", "10", str(RUN_LIMIT_S), SNAKEMAKE, *args]


def squeue(*args: str) -> list[list[str]]:
    """Rows of `squeue --states=all --noheader --format=%i|%j|%k|%T` (job id, name, comment, state)."""
    out = subprocess.run(["squeue", "--states=all", "--noheader", "--format=%i|%j|%k|%T", *args],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return [line.split("|") for line in out.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def slurm_cluster():
    """A running single-node cluster; the daemons this fixture started are stopped by PID after."""
    if not MIRROR.is_dir():
        missing("the data mirror directory")  # a skip here, a failure under CI=true
    started = subprocess.run(["bash", str(CLUSTER), "start"], capture_output=True, text=True, timeout=900)
    if started.returncode == 77:
        pytest.skip(started.stderr.strip().splitlines()[-1])
    assert started.returncode == 0, f"{CLUSTER} start failed:\n{started.stdout}\n{started.stderr}"
    # Only the daemons this start started (none where a cluster was already running).
    daemons = re.search(r"^started:(.*)$", started.stdout, re.M).group(1).split()
    yield daemons
    if daemons:
        stopped = subprocess.run(["bash", str(CLUSTER), "stop", *daemons], capture_output=True, text=True, timeout=120)
        assert stopped.returncode == 0, stopped.stderr


def test_profile_runs_every_job_through_sbatch_and_matches_a_local_run(slurm_cluster, tmp_path):
    slurm_copy = copy_repository(tmp_path / "slurm")
    local_copy = copy_repository(tmp_path / "local")
    started = time.monotonic()
    # The local run (the reference for the numbers) goes on beside the SLURM run.
    local = subprocess.Popen(snakemake_command(TARGET, "--cores", "2", "--configfile", "config/tiny.yaml"),
                             cwd=local_copy, env=environment(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
    slurm = subprocess.run(snakemake_command(TARGET, "--profile", "profiles/slurm", "--configfile", "config/tiny.yaml",
                                             *TEST_CLUSTER_OPTIONS),
                           cwd=slurm_copy, env=environment(), capture_output=True, text=True, timeout=RUN_LIMIT_S + 60)
    slurm_s = time.monotonic() - started
    local_output, _ = local.communicate(timeout=RUN_LIMIT_S + 60)
    output = slurm.stdout + slurm.stderr
    print(f"SLURM run {slurm_s:.0f} s, both runs {time.monotonic() - started:.0f} s")
    assert slurm.returncode == 0, output[-6000:]
    assert local.returncode == 0, local_output[-6000:]

    # Every job went through sbatch: the ids the plugin reported are the jobs squeue knows under
    # this run's name, all COMPLETED, and their kept logs name every rule of the target.
    run_id = re.search(r"SLURM run ID: (\S+)", output).group(1)
    submitted = dict(re.findall(r"has been submitted with SLURM jobid (\d+) \(log: (.+?)\)\.\n", output))
    print("SLURM jobs:", {job: Path(log).parent.name for job, log in submitted.items()})
    # one SLURM job each: groups 'prepare' (prepare_logreg) and 'map', reference, approximate,
    # group 'evaluate'
    assert len(submitted) == 5, output[-6000:]
    rows = squeue(f"--name={run_id}")
    assert {row[0] for row in rows} == set(submitted), rows
    assert all(state == "COMPLETED" for _, _, _, state in rows), rows
    # sbatch --comment: rule_<rule>_wildcards_... for a rule, rule_<group>_<rules> for a group
    comments = " ".join(comment for _, _, comment, _ in rows)
    assert all(rule in comments for rule in SLURM_RULES), comments
    logged_rules = set()
    for job, log in submitted.items():
        text = Path(log).read_text()
        assert Path(log).name == f"{job}.log"
        logged_rules |= set(re.findall(r"^\s*rule (\w+):", text, re.M))
    assert logged_rules == SLURM_RULES
    assert "localrule download:" in output

    # Same config and seed: the same numbers from SLURM and from the local run.
    compared = 0
    for local_file in sorted(local_copy.glob("results/**/*.npz")) + sorted(local_copy.glob("data/prepared/**/*.npz")):
        slurm_file = slurm_copy / local_file.relative_to(local_copy)
        with np.load(local_file) as expected, np.load(slurm_file) as actual:
            assert expected.files == actual.files, slurm_file
            for key in expected.files:
                if expected[key].dtype.kind in "fc":
                    np.testing.assert_allclose(actual[key], expected[key], rtol=1e-12, atol=0,
                                               err_msg=f"{slurm_file.name}:{key}")
                else:
                    np.testing.assert_array_equal(actual[key], expected[key], err_msg=f"{slurm_file.name}:{key}")
                compared += 1
    assert compared >= 10  # prepared data, MAP, NUTS draws, RLA-B samples
    metrics = [json.loads((copy / TARGET).read_text()) for copy in (local_copy, slurm_copy)]
    assert metrics[1]["n_failed"] == metrics[0]["n_failed"] == 0
    for key in ("wasserstein1", "wasserstein1_first"):
        assert np.isfinite(metrics[0][key]) and metrics[1][key] == pytest.approx(metrics[0][key], rel=1e-12), key
    print(f"W1 local {metrics[0]['wasserstein1']!r} SLURM {metrics[1]['wasserstein1']!r}")
    # The local run's jobs ran in forks of its warm process, the cluster's jobs in their own
    # interpreters (job steps start none): the numbers above agree either way.
    local_logs, slurm_logs = ([p.read_text() for p in (copy / "logs").rglob("*.log")] for copy in (local_copy, slurm_copy))
    assert local_logs and all(recorded_usage(text) is not None for text in local_logs)
    assert slurm_logs and not any(recorded_usage(text) is not None for text in slurm_logs)


def test_gpu_job_on_a_node_without_gpus_fails_before_submission(slurm_cluster, tmp_path):
    gres = subprocess.run(["sinfo", "--noheader", "--format=%G"], capture_output=True, text=True, timeout=60).stdout
    if "gpu" in gres:
        pytest.skip(f"this cluster declares GPUs (sinfo GRES: {gres.strip()})")
    # The node really has no GPU: sbatch itself rejects the request.
    rejected = subprocess.run(["sbatch", "--gres=gpu:1", "--wrap", "true"], capture_output=True, text=True, timeout=60)
    assert rejected.returncode != 0 and "Invalid generic resource (gres) specification" in rejected.stderr

    work = copy_repository(tmp_path / "gpu")
    started = time.monotonic()
    result = subprocess.run(snakemake_command("results/map/d2-gaussian/euclidean.npz", "--profile", "profiles/slurm",
                                              "--configfile", "config/tiny.yaml", "--config", "device=gpu",
                                              *TEST_CLUSTER_OPTIONS),
                            cwd=work, env=environment(), capture_output=True, text=True, timeout=RUN_LIMIT_S + 60)
    elapsed = time.monotonic() - started
    output = result.stdout + result.stderr
    message = re.search(r"config device: gpu asks SLURM .*", output)
    print(f"failed after {elapsed:.0f} s: {message.group(0) if message else output[-3000:]}")
    assert result.returncode == 1, output[-4000:]
    assert message, output[-4000:]
    assert "gres='gpu:1'" in message.group(0) and "no node of this cluster declares a 'gpu' GRES" in message.group(0)
    assert "GEOBAYES_SLURM_GRES" in message.group(0) and "device: cpu" in message.group(0)
    # Nothing was submitted: failing at once is not waiting for a job that can never start.
    assert "has been submitted" not in output
    run_id = re.search(r"SLURM run ID: (\S+)", output).group(1)
    assert squeue(f"--name={run_id}") == []
    assert elapsed < 240  # a Snakemake start-up, far below the run limit; a hang would hit the limit


def test_device_gpu_requests_the_gres_of_every_jax_rule(tmp_path):
    """`device: gpu` adds gres (site spelling from $GEOBAYES_SLURM_GRES) to every rule that runs
    JAX on the device and to no other, and the profile's groups stay valid (all jobs of a group
    must ask for the same gres; no group may depend on itself): dry run of the whole tiny DAG
    through the profile (no cluster needed)."""
    device_rules = set()
    for rules_file in sorted((REPO / "workflow" / "rules").glob("*.smk")):
        for rule in re.split(r"^rule ", rules_file.read_text(), flags=re.M)[1:]:
            if 'device=config["device"]' in rule:
                name = rule.split(":")[0]
                assert "**gpu_resources()" in rule, (
                    f"{rules_file.name}: rule {name} runs JAX on config `device` but does not request a GPU "
                    "with device: gpu: add **gpu_resources() to its resources")
                device_rules.add(name)
    assert {"map", "reference", "approximate", "time_sampling", "time_wg", "train_network"} <= device_rules
    env = dict(environment(), GEOBAYES_SLURM_GRES="gpu:a100:2")
    result = subprocess.run([SNAKEMAKE, "-n", "--profile", "profiles/slurm", "--configfile", "config/tiny.yaml",
                             "--config", "device=gpu"],
                            cwd=copy_repository(tmp_path), env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    jobs = []
    for block in re.split(r"\n(?=\s*(?:local)?rule \w+:)", result.stdout):
        name = re.match(r"\s*(?:local)?rule (\w+):", block)
        resources = re.search(r"resources: (.*)", block)
        if name and resources:
            gres = re.search(r"gres=([^,\s]+)", resources.group(1))
            jobs.append((name.group(1), gres.group(1) if gres else None))
    rules_run = {rule for rule, _ in jobs}
    assert {"download", "prepare_logreg", "evaluate", "summarise"} | device_rules <= rules_run
    for rule, gres in jobs:
        assert gres == ("gpu:a100:2" if rule in device_rules else None), rule
    for group in ("prepare", "map", "evaluate", "report"):
        assert f"Group job {group}" in result.stdout, group
