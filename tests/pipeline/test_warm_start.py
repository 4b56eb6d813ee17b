"""Warm job processes (geobayes.pipeline.warm_start): a script handed over to the warm process runs
in a fork with the caller's arguments, directory, environment and streams, gives the same numbers
as a fresh interpreter and the same exit status, stops when its caller is stopped or killed, and a
script that finds no warm process runs where it is.

One real warm process (``python -m geobayes.pipeline.warm_start``) serves the module's tests; its
parent is this test process.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from geobayes.pipeline.warm_start import IN_WARM_PROCESS_VARIABLE, SOCKET_VARIABLE, recorded_usage

pytestmark = pytest.mark.slow

#: A job script as Snakemake runs one: its ``snakemake`` object (here with a log) defined first.
SCRIPT = """
import sys
class Job:
    log = [sys.argv[1]]
snakemake = Job()
from geobayes.pipeline.warm_start import hand_over
hand_over(snakemake)
import os
if sys.argv[3] == "0":  # a geodesic solve: the numbers of a warm and a cold run compared
    import jax
    import numpy as np
    jax.config.update("jax_enable_x64", True)
    from geobayes.methods import get_method, method_config
    from geobayes.targets.squiggle import Squiggle
    target = Squiggle(name="easy-squiggle", a=1.5, variances=(5.0, 0.05))
    fitted = get_method("rla_f").fit(target, method_config("rla_f", {"precision": "fisher"}), jax.random.PRNGKey(3),
                                     mode=jax.numpy.zeros(2))
    np.save(sys.argv[2], np.asarray(fitted.approximation.sample(jax.random.PRNGKey(4), 8).theta))
print("ran", "warm" if os.environ.get("IN_WARM") else "cold", os.getcwd(), sys.argv[3], os.environ["JOB_MARK"])
print("to stderr", file=sys.stderr)
if sys.argv[3] == "raise":
    raise ValueError("the job's own error")
sys.exit(int(sys.argv[3]) if sys.argv[3].isdigit() else 0)
""".replace("IN_WARM", IN_WARM_PROCESS_VARIABLE)

#: A job that waits, after writing the id of the process it runs in.
WAITING = """
import sys
snakemake = None
from geobayes.pipeline.warm_start import hand_over
hand_over(snakemake)
import os, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(120)
"""


@pytest.fixture(scope="module")
def warm(tmp_path_factory):
    """The socket path of a running warm process (stopped after the module's tests)."""
    directory = tmp_path_factory.mktemp("warm")
    path = directory / "socket"
    server = subprocess.Popen([sys.executable, "-m", "geobayes.pipeline.warm_start", str(path), str(os.getpid())])
    deadline = time.monotonic() + 300
    while not path.exists():
        assert server.poll() is None, "the warm process exited while preloading"
        assert time.monotonic() < deadline, "the warm process never opened its socket"
        time.sleep(0.2)
    yield path
    server.terminate()
    assert server.wait(timeout=30) == 0
    assert not path.exists(), "the warm process left its socket behind"


def run(script: Path, args: list[str], socket: Path | None, cwd: Path, mark: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != SOCKET_VARIABLE}
    env["JOB_MARK"] = mark
    if socket is not None:
        env[SOCKET_VARIABLE] = str(socket)
    return subprocess.run([sys.executable, str(script), *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.parametrize("outcome", ["0", "raise", "3"])
def test_a_handed_over_job_runs_in_a_fork_like_a_fresh_interpreter(warm, tmp_path, outcome):
    script = tmp_path / "job.py"
    script.write_text(SCRIPT)
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    log = tmp_path / "job.log"
    warm_run = run(script, [str(log), str(tmp_path / "warm.npy"), outcome], warm, workdir, "mark-1")
    cold_run = run(script, [str(tmp_path / "cold.log"), str(tmp_path / "cold.npy"), outcome], None, workdir, "mark-1")
    assert warm_run.stdout == cold_run.stdout.replace("ran cold", "ran warm")
    assert warm_run.stdout.split() == ["ran", "warm", str(workdir), outcome, "mark-1"]
    assert warm_run.returncode == cold_run.returncode == {"0": 0, "raise": 1, "3": 3}[outcome]
    assert "to stderr" in warm_run.stderr
    if outcome == "raise":  # the fork's traceback reaches the caller's stderr, ending in the error
        assert warm_run.stderr.strip().splitlines()[-1] == "ValueError: the job's own error"
    if outcome == "0":  # bit for bit the draws of a fresh interpreter: the fork starts from imports only
        np.testing.assert_array_equal(np.load(tmp_path / "warm.npy"), np.load(tmp_path / "cold.npy"))
    # The fork's CPU seconds go to the job's log (Snakemake's benchmark sees the waiting caller only).
    assert recorded_usage(log.read_text()) is not None


def test_without_a_warm_process_the_job_runs_where_it_is(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(SCRIPT)
    result = run(script, [str(tmp_path / "job.log"), str(tmp_path / "d.npy"), "5"], tmp_path / "no_such_socket",
                 tmp_path, "mark-2")
    assert result.returncode == 5, result.stderr[-2000:]
    assert result.stdout.split()[:2] == ["ran", "cold"]
    assert not (tmp_path / "job.log").exists()


def wait_for_fork(pid_file: Path, caller: subprocess.Popen) -> int:
    deadline = time.monotonic() + 120
    while not pid_file.exists() or not pid_file.read_text():
        assert caller.poll() is None and time.monotonic() < deadline, "the job never started"
        time.sleep(0.1)
    return int(pid_file.read_text())


def gone(pid: int, within_s: float = 10.0) -> bool:
    """Whether process ``pid`` ends within ``within_s`` (a zombie no one reaped yet has ended)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL])
def test_stopping_or_killing_the_caller_stops_its_fork(warm, tmp_path, stop):
    script, pid_file = tmp_path / "waiting.py", tmp_path / "fork.pid"
    script.write_text(WAITING)
    env = dict(os.environ, **{SOCKET_VARIABLE: str(warm)})
    caller = subprocess.Popen([sys.executable, str(script), str(pid_file)], env=env)
    fork = wait_for_fork(pid_file, caller)
    assert fork != caller.pid  # the job runs in the warm process's fork, not in its caller
    caller.send_signal(stop)
    # A stopped caller ends as the signal ends a process, after its fork did.
    assert caller.wait(timeout=30) == -stop
    assert gone(fork), f"the fork {fork} outlived its caller ({signal.Signals(stop).name})"


def test_the_warm_process_stops_when_the_process_that_started_it_dies(tmp_path):
    """A Snakemake process killed outright runs no hook: its warm process must notice and stop."""
    path = tmp_path / "socket"
    starter = ("import subprocess, sys, os, time\n"
               f"server = subprocess.Popen([sys.executable, '-m', 'geobayes.pipeline.warm_start', {str(path)!r}, str(os.getpid())])\n"
               "print(server.pid, flush=True)\n"
               "time.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, "-c", starter], stdout=subprocess.PIPE, text=True)
    server = int(parent.stdout.readline())
    deadline = time.monotonic() + 300
    while not path.exists():
        assert time.monotonic() < deadline, "the warm process never opened its socket"
        time.sleep(0.2)
    parent.kill()
    parent.wait()
    assert gone(server, within_s=120), "the warm process outlived the process that started it"  # after its preload
    assert not path.exists()


def test_a_fork_runs_blas_on_the_jobs_threads_as_a_fresh_interpreter_would(warm, tmp_path):
    """Snakemake gives a job its threads through OMP_NUM_THREADS & co., which OpenBLAS reads when
    NumPy loads: in the warm process that was before the job, so the fork applies them itself."""
    script = tmp_path / "threads.py"
    script.write_text("import sys\nsnakemake = None\nfrom geobayes.pipeline.warm_start import hand_over\n"
                      "hand_over(snakemake)\nimport numpy\nfrom threadpoolctl import threadpool_info\n"
                      "print(sorted({pool['num_threads'] for pool in threadpool_info() if pool['user_api'] == 'blas'}))\n")
    for threads in ("1", "2"):
        env = dict(os.environ, OMP_NUM_THREADS=threads, OPENBLAS_NUM_THREADS=threads)
        env.pop(SOCKET_VARIABLE, None)
        cold = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, check=True)
        warm_run = subprocess.run([sys.executable, str(script)], env=dict(env, **{SOCKET_VARIABLE: str(warm)}),
                                  capture_output=True, text=True, check=True)
        assert warm_run.stdout == cold.stdout == f"[{threads}]\n"


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to pin")
def test_a_job_runs_on_its_threads_cpus_in_a_fork_and_in_its_own_interpreter(warm, tmp_path):
    """Where the run asks for it (config pin_cpus), a one-thread job runs on one CPU either way, and
    two jobs at once on two different CPUs (geobayes.pipeline.cpu_slots)."""
    from geobayes.pipeline.cpu_slots import LOCK_DIRECTORY_VARIABLE, PIN_VARIABLE

    script = tmp_path / "cpus.py"
    script.write_text("import sys\nsnakemake = None\nfrom geobayes.pipeline.warm_start import hand_over\n"
                      "hand_over(snakemake)\nimport os\nprint(sorted(os.sched_getaffinity(0)), flush=True)\n"
                      "sys.stdin.read()\n")
    env = dict(os.environ, OMP_NUM_THREADS="1", **{PIN_VARIABLE: "1", LOCK_DIRECTORY_VARIABLE: str(tmp_path)})
    env.pop(SOCKET_VARIABLE, None)
    for socket_env in ({}, {SOCKET_VARIABLE: str(warm)}):
        jobs = [subprocess.Popen([sys.executable, str(script)], env=dict(env, **socket_env), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True) for _ in range(2)]
        cpus = [job.stdout.readline().strip() for job in jobs]
        for job in jobs:
            job.stdin.close()
            assert job.wait(timeout=60) == 0
        assert all(len(eval(c)) == 1 for c in cpus) and cpus[0] != cpus[1], (socket_env, cpus)  # noqa: S307


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to pin")
def test_a_fork_frees_its_cpu_before_its_client_returns(warm, tmp_path):
    """The next job may start the moment the client returns, so the fork frees its CPU before it
    reports. Here the job leaves a process it forked running for 5 s, which shares the fork's
    lock file: a lock freed only when every process holding it had ended was still held then."""
    import fcntl

    from geobayes.pipeline.cpu_slots import LOCK_DIRECTORY_VARIABLE, PIN_VARIABLE

    script = tmp_path / "lingers.py"
    script.write_text("snakemake = None\nfrom geobayes.pipeline.warm_start import hand_over\nhand_over(snakemake)\n"
                      "import os, time\nprint(sorted(os.sched_getaffinity(0)), flush=True)\n"
                      "if os.fork() == 0:\n"
                      "    null = os.open(os.devnull, os.O_WRONLY)\n    os.dup2(null, 1)\n    os.dup2(null, 2)\n"
                      "    time.sleep(5)\n    os._exit(0)\n")
    env = dict(os.environ, OMP_NUM_THREADS="1", **{PIN_VARIABLE: "1", LOCK_DIRECTORY_VARIABLE: str(tmp_path),
                                                   SOCKET_VARIABLE: str(warm)})
    job = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert job.returncode == 0, job.stderr
    (cpu,) = eval(job.stdout)  # noqa: S307
    with open(tmp_path / f"cpu{cpu}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # BlockingIOError while another process holds it


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="one CPU: nothing to pin")
def test_a_job_whose_cpus_cannot_be_claimed_fails_in_one_line_in_a_fork_and_in_its_own_interpreter(warm, tmp_path):
    from geobayes.pipeline.cpu_slots import LOCK_DIRECTORY_VARIABLE, PIN_VARIABLE

    script = tmp_path / "pinned.py"
    script.write_text("import sys\nsnakemake = None\nfrom geobayes.pipeline.warm_start import hand_over\n"
                      "hand_over(snakemake)\nprint('ran')\n")
    (tmp_path / "a_file").write_text("")
    locks = tmp_path / "a_file" / "locks"
    env = dict(os.environ, OMP_NUM_THREADS="1", **{PIN_VARIABLE: "1", LOCK_DIRECTORY_VARIABLE: str(locks)})
    env.pop(SOCKET_VARIABLE, None)
    for socket_env in ({}, {SOCKET_VARIABLE: str(warm)}):
        job = subprocess.run([sys.executable, str(script)], env=dict(env, **socket_env), capture_output=True, text=True)
        assert (job.returncode, job.stdout) == (1, ""), socket_env
        assert job.stderr.strip().splitlines() == [
            f"CPU lock directory {locks} ({LOCK_DIRECTORY_VARIABLE}): Not a directory; "
            "point it at a writable directory, or set pin_cpus: false"], socket_env


def test_a_fork_killed_outright_fails_its_job_with_one_line(warm, tmp_path):
    script, pid_file = tmp_path / "waiting.py", tmp_path / "fork.pid"
    script.write_text(WAITING)
    env = dict(os.environ, **{SOCKET_VARIABLE: str(warm)})
    caller = subprocess.Popen([sys.executable, str(script), str(pid_file)], env=env, stderr=subprocess.PIPE, text=True)
    fork = wait_for_fork(pid_file, caller)
    os.kill(fork, signal.SIGKILL)
    _, stderr = caller.communicate(timeout=30)
    assert caller.returncode == 1
    assert stderr.strip().splitlines()[-1] == (f"warm start: the job's fork {fork} ended without reporting a status "
                                               "(killed or crashed)")


def test_only_the_directories_of_killed_warm_processes_are_removed(tmp_path):
    """A socket that refuses connections (its process killed outright) goes with its directory; a
    live socket, a directory whose socket is not yet bound and other names stay."""
    import socket

    from geobayes.pipeline.warm_start import DIRECTORY_PREFIX, remove_abandoned_directories

    def bound(name: str, listening: bool) -> socket.socket:
        (tmp_path / name).mkdir()
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(str(tmp_path / name / "socket"))
        if listening:
            server.listen(1)
        return server

    killed = bound(f"{DIRECTORY_PREFIX}killed", listening=False)
    killed.close()  # the file stays, as after SIGKILL
    live = bound(f"{DIRECTORY_PREFIX}live", listening=True)
    (tmp_path / f"{DIRECTORY_PREFIX}starting").mkdir()
    bound("unrelated", listening=False).close()
    try:
        assert remove_abandoned_directories(str(tmp_path)) == [str(tmp_path / f"{DIRECTORY_PREFIX}killed")]
        assert sorted(p.name for p in tmp_path.iterdir()) == [f"{DIRECTORY_PREFIX}live", f"{DIRECTORY_PREFIX}starting",
                                                             "unrelated"]
    finally:
        live.close()


def test_another_runs_probe_of_a_live_socket_leaves_no_trace_in_its_output(tmp_path):
    """A run starting beside a live one probes its socket (``abandoned``: connect, close). The live
    warm process serves that connection in a fork which finds no job: it must end quietly, not
    print a traceback into the live run's output (seen with two quick runs on one machine)."""
    from geobayes.pipeline.warm_start import abandoned

    path = tmp_path / "socket"
    with open(tmp_path / "server.err", "w") as err:
        server = subprocess.Popen([sys.executable, "-m", "geobayes.pipeline.warm_start", str(path), str(os.getpid())],
                                  stderr=err)
        try:
            deadline = time.monotonic() + 300
            while not path.exists():
                assert server.poll() is None and time.monotonic() < deadline, "the warm process never opened its socket"
                time.sleep(0.2)
            assert not abandoned(str(tmp_path))  # live: it accepts the probe (queued until the preload ends)
            # A job handed over after the probe is served after it (the backlog is first in, first out).
            script = tmp_path / "job.py"
            script.write_text("import sys\nsnakemake = None\nfrom geobayes.pipeline.warm_start import hand_over\n"
                              "hand_over(snakemake)\nimport os\nprint(os.environ.get('IN_WARM'))\n"
                              .replace("IN_WARM", IN_WARM_PROCESS_VARIABLE))
            job = run(script, [], path, tmp_path, "mark")
            assert job.returncode == 0 and job.stdout.strip() == "1", job.stdout + job.stderr  # ran in a fork
            time.sleep(0.5)  # the probe's fork, older than the job's, has ended too
            assert server.poll() is None, "the probe stopped the warm process"
        finally:
            server.terminate()
            server.wait(timeout=30)
    assert "Traceback" not in (tmp_path / "server.err").read_text(), (tmp_path / "server.err").read_text()
