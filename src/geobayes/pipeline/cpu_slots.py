"""A job's CPUs: a local job runs on as many CPUs as its rule's threads, one job per CPU.

Snakemake gives a job ``threads`` and starts as many jobs as ``--cores`` allows, but XLA's CPU
runtime sizes its thread pool from the CPUs the process may run on (its affinity), not from the
job's threads: on a 2-core machine every one-thread job ran XLA on two pool threads beside its
main thread, and two such jobs side by side kept about five busy threads on two cores. Measured
on RLA-B's refilled Exp maps on raw Heart (500 draws, ``approximation.schedule`` of the quick
config; ``benchmarks/bench_cpu_slots.py``): 10.8 s alone, 14.0 s each with two jobs side by side,
10.5 s each with the two jobs pinned to a CPU of their own, the same work in 1.33 times less time.

:func:`claim_cpus` pins the calling process, before any JAX backend exists, to ``threads`` CPUs
that no other job holds: one lock file per CPU in a directory shared by every job of the machine
(``flock``, held until the process ends, so a killed job frees its CPUs with it, or until it calls
:func:`release_cpus`, as a warm fork does before it reports its status). XLA then starts
a pool of that many threads. Where fewer CPUs are free than the job's threads (jobs of another
run, or ``--cores`` above the machine's CPUs) the process still runs on ``threads`` CPUs, shared:
XLA's pool size, and with it the arithmetic of a threaded kernel, follows the job's threads
alone, so the numbers of a job do not depend on which or how many other jobs ran beside it.
A process already confined to ``threads`` CPUs or fewer (a SLURM job step with CPU binding) is
left as it is.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile

__all__ = ["LOCK_DIRECTORY_VARIABLE", "PIN_VARIABLE", "claim_cpus", "job_threads", "pin_job", "release_cpus"]

#: Environment variable naming the directory of the per-CPU lock files (default: a directory per
#: user in the system's temporary directory, shared by every run of that user on the machine).
LOCK_DIRECTORY_VARIABLE = "GEOBAYES_CPU_LOCKS"
#: Environment variable the run sets for its jobs: ``1`` pins each job (config ``pin_cpus``), ``0`` or unset does not.
PIN_VARIABLE = "GEOBAYES_PIN_CPUS"

#: The lock files this process holds (kept open until it exits; closing one frees its CPU).
_HELD: list = []


def job_threads(environ=os.environ) -> int | None:
    """The threads Snakemake gave this job (its ``OMP_NUM_THREADS``), or None where it set none."""
    value = environ.get("OMP_NUM_THREADS", "")
    return int(value) if value.isdigit() and int(value) > 0 else None


def _lock_directory() -> str:
    """The lock files' directory, created if missing; one line naming it where it cannot be."""
    directory = os.environ.get(LOCK_DIRECTORY_VARIABLE) or os.path.join(
        tempfile.gettempdir(), f"geobayes-cpus-{os.getuid()}")
    try:
        os.makedirs(directory, exist_ok=True)
        if not os.access(directory, os.W_OK):
            raise PermissionError(13, "not writable")
    except OSError as error:
        raise OSError(f"CPU lock directory {directory} ({LOCK_DIRECTORY_VARIABLE}): {error.strerror or error}; "
                      "point it at a writable directory, or set pin_cpus: false") from None
    return directory


def _try_lock(path: str):
    """The open lock file at ``path`` if this process got its exclusive lock, else None."""
    handle = open(path, "a")  # noqa: SIM115  (held open: the lock lives as long as the file)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def claim_cpus(threads: int) -> tuple[tuple[int, ...], bool]:
    """Run this process on ``threads`` CPUs, free ones where there are: call before JAX starts.

    Parameters
    ----------
    threads
        The job's threads (a positive integer).

    Returns
    -------
    cpus : tuple of int
        The CPUs the process may now run on.
    exclusive : bool
        Whether no other job holds them (False: every allowed CPU was taken, and the process
        shares ``threads`` of them, which ones depending on its process id; also False where
        nothing was pinned).

    Raises
    ------
    ValueError
        If ``threads`` is not a positive integer.
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"claim_cpus: threads must be a positive integer, got {threads!r}")
    allowed = sorted(os.sched_getaffinity(0))
    if threads >= len(allowed):
        return tuple(allowed), False
    directory = _lock_directory()
    held = []
    # Start at a CPU that depends on the process, so that jobs starting together try different ones first
    # and jobs that find none free spread over the CPUs they share.
    start = os.getpid() % len(allowed)
    rotated = allowed[start:] + allowed[:start]
    for cpu in rotated:
        handle = _try_lock(os.path.join(directory, f"cpu{cpu}.lock"))
        if handle is not None:
            held.append((cpu, handle))
        if len(held) == threads:
            break
    if len(held) < threads:
        for _, handle in held:
            with contextlib.suppress(OSError):
                handle.close()
        cpus, exclusive = tuple(sorted(rotated[:threads])), False
    else:
        _HELD.extend(handle for _, handle in held)
        cpus, exclusive = tuple(sorted(cpu for cpu, _ in held)), True
    os.sched_setaffinity(0, cpus)
    return cpus, exclusive


def release_cpus() -> None:
    """Free the CPUs this process holds (its affinity stays): call when its work is done but it
    has yet to end, e.g. a warm fork about to report its status.

    A lock held until the process ends is freed only after the kernel has torn down its memory:
    a warm fork that reported its status first was still holding its CPU when the next job
    started (the client, which Snakemake waits for, had already exited), and that job, finding
    every CPU held, shared one with a running job for its whole life. Four jobs of the fourteenth
    quick run did (two 60-s NUTS references on one CPU, the other idle).
    """
    while _HELD:
        handle = _HELD.pop()
        with contextlib.suppress(OSError):
            fcntl.flock(handle, fcntl.LOCK_UN)  # not only close: a process the job forked shares the lock
        with contextlib.suppress(OSError):
            handle.close()


def pin_job(environ=os.environ) -> tuple[tuple[int, ...], bool] | None:
    """:func:`claim_cpus` for a pipeline job whose run asks for it (``GEOBAYES_PIN_CPUS=1``, config
    ``pin_cpus``), on its Snakemake threads; None where the run does not ask or gave no threads."""
    threads = job_threads(environ)
    if environ.get(PIN_VARIABLE) != "1" or threads is None:
        return None
    return claim_cpus(threads)
