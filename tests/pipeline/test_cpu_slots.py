"""One CPU per job thread (geobayes.pipeline.cpu_slots): jobs take CPUs no other job holds, share
only when none is left, free them when they end however they end, and XLA's thread pool then has
the job's threads, not the machine's CPUs.

Each job is a real process (the lock is per process); the lock files live in the test's own
directory, apart from those of any run on the machine.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from geobayes.pipeline.cpu_slots import LOCK_DIRECTORY_VARIABLE, PIN_VARIABLE, claim_cpus, job_threads, pin_job

CPUS = sorted(os.sched_getaffinity(0))
needs_two_cpus = pytest.mark.skipif(len(CPUS) < 2, reason="one CPU: nothing to choose between")

#: A job that claims its CPUs, says which, and holds them until its standard input closes.
HOLDER = """
import sys
from geobayes.pipeline.cpu_slots import claim_cpus
cpus, exclusive = claim_cpus(int(sys.argv[1]))
import os
print(",".join(map(str, cpus)), int(exclusive), ",".join(map(str, sorted(os.sched_getaffinity(0)))), flush=True)
sys.stdin.read()
"""


def start_holder(locks, threads=1):
    """A holder process and the (CPUs, exclusive, affinity) it reported."""
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(threads)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, **{LOCK_DIRECTORY_VARIABLE: str(locks)}))
    cpus, exclusive, affinity = holder.stdout.readline().split()
    return holder, (tuple(map(int, cpus.split(","))), exclusive == "1", tuple(map(int, affinity.split(","))))


def stop(holders):
    for holder in holders:
        holder.stdin.close()
        holder.wait(timeout=30)


@needs_two_cpus
def test_jobs_take_cpus_no_other_job_holds_and_share_only_when_none_is_left(tmp_path):
    holders, claims = [], []
    try:
        for _ in CPUS:
            holder, claim = start_holder(tmp_path)
            holders.append(holder)
            claims.append(claim)
        assert all(exclusive for _, exclusive, _ in claims)
        assert all(len(cpus) == 1 and affinity == cpus for cpus, _, affinity in claims)
        assert sorted(cpus[0] for cpus, _, _ in claims) == CPUS
        holder, (cpus, exclusive, affinity) = start_holder(tmp_path)  # every CPU taken
        holders.append(holder)
        assert not exclusive
        assert len(cpus) == 1 and affinity == cpus  # still on one thread's CPU: XLA's pool as alone
    finally:
        stop(holders)


@needs_two_cpus
def test_a_job_killed_outright_frees_its_cpu(tmp_path):
    holders = []
    try:
        for _ in CPUS:
            holders.append(start_holder(tmp_path)[0])
        victim = holders.pop()
        victim.send_signal(signal.SIGKILL)
        victim.wait(timeout=30)
        holder, (_, exclusive, _) = start_holder(tmp_path)
        holders.append(holder)
        assert exclusive
    finally:
        stop(holders)


def test_a_job_with_as_many_threads_as_there_are_cpus_keeps_them_all(tmp_path):
    holder, (cpus, exclusive, affinity) = start_holder(tmp_path, threads=len(CPUS))
    stop([holder])
    assert cpus == affinity == tuple(CPUS) and not exclusive  # nothing to choose, nothing locked


@pytest.mark.skipif(len(CPUS) < 3, reason="fewer than 3 CPUs: a two-thread job takes them all")
def test_a_two_thread_job_holds_two_free_cpus(tmp_path):
    holders = []
    try:
        holder, (first, exclusive, affinity) = start_holder(tmp_path, threads=2)
        holders.append(holder)
        assert exclusive and len(first) == 2 and affinity == first
        holder, (second, _, _) = start_holder(tmp_path)
        holders.append(holder)
        assert not set(second) & set(first)
    finally:
        stop(holders)


@needs_two_cpus
def test_xla_starts_as_many_pool_threads_as_the_job_holds_cpus(tmp_path):
    """The point of it all: XLA sizes its intra-op pool from the process's CPUs."""
    script = ("import os, sys\nfrom geobayes.pipeline.cpu_slots import pin_job\npin_job()\n"
              "import jax\njax.numpy.ones(2).block_until_ready()\ntask = f'/proc/{os.getpid()}/task'\n"
              "names = [open(f'{task}/{t}/comm').read() for t in os.listdir(task)]\n"
              "print(sum(name.startswith('tf_XLAEigen') for name in names))\n")
    env = dict(os.environ, **{LOCK_DIRECTORY_VARIABLE: str(tmp_path), "OMP_NUM_THREADS": "1"})
    pools = {pin: subprocess.run([sys.executable, "-c", script], env=dict(env, **{PIN_VARIABLE: pin}),
                                 capture_output=True, text=True, check=True).stdout.split()[-1]
             for pin in ("1", "0")}
    assert pools == {"1": "1", "0": str(len(CPUS))}


def test_a_job_is_pinned_only_where_its_run_asks_and_snakemake_gave_threads(monkeypatch, tmp_path):
    monkeypatch.setenv(LOCK_DIRECTORY_VARIABLE, str(tmp_path))
    assert job_threads({"OMP_NUM_THREADS": "3"}) == 3
    assert job_threads({}) is None and job_threads({"OMP_NUM_THREADS": "0"}) is None
    assert pin_job({PIN_VARIABLE: "0", "OMP_NUM_THREADS": "1"}) is None
    assert pin_job({PIN_VARIABLE: "1"}) is None
    assert os.sched_getaffinity(0) == set(CPUS)  # neither touched this process


@needs_two_cpus
def test_a_lock_directory_that_cannot_be_made_is_named_in_one_line(monkeypatch, tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv(LOCK_DIRECTORY_VARIABLE, str(blocker / "locks"))
    with pytest.raises(OSError) as raised:
        claim_cpus(1)
    assert str(raised.value) == (f"CPU lock directory {blocker / 'locks'} ({LOCK_DIRECTORY_VARIABLE}): Not a directory; "
                                 "point it at a writable directory, or set pin_cpus: false")
    assert os.sched_getaffinity(0) == set(CPUS)


@pytest.mark.parametrize("threads", [0, -1, True, 1.0, "1"])
def test_a_thread_count_that_is_not_a_positive_integer_is_named(threads):
    with pytest.raises(ValueError, match=r"^claim_cpus: threads must be a positive integer, got "):
        claim_cpus(threads)
