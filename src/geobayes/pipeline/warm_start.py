"""Warm job processes: each local job's script runs in a fork of one process that has already
imported the library, instead of in a fresh interpreter that imports it again.

Most jobs of the DAG do seconds of work and pay a fixed price first: importing JAX, Equinox,
Diffrax, NumPyro, POT, pandas and the library costs about 2.8 CPU seconds a job on this machine
kind (benchmarks/bench_job_imports.py), a third of a typical approximation job at tiny scale. A run
with ``warm_start: true`` (config key) starts one *warm process* (:func:`serve`) before its first
job: it imports every module of the library and the heavy packages once, without initialising
any JAX backend, and listens on a Unix socket. A job's script calls :func:`hand_over` first
thing: if a warm process answers, the script's interpreter hands it the job (its script file,
arguments, working directory, environment and standard streams) and waits; the warm process
forks, the fork runs the script from the top with everything already imported (its own call of
:func:`hand_over` returns at once there) and reports the exit status, which the waiting
interpreter exits with. Where no warm process answers (a cluster job, a run with
``warm_start: false``, a script run by hand), :func:`hand_over` returns and the script runs where
it is, as before. Either way the job computes the same numbers: the fork starts from a process
that has imported modules and nothing else (no JAX backend, no random state, no configuration),
sets the job's environment before any JAX backend exists, and runs the same file.

A signal sent to the waiting interpreter (Snakemake stopping a job) is passed on to the fork, and
a fork whose waiting interpreter disappears (killed outright) stops itself. The warm process
stops with the run, or by itself when the Snakemake process that started it is gone.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import os
import pkgutil
import re
import resource
import runpy
import signal
import socket
import sys
import threading
import traceback

from geobayes.pipeline.cpu_slots import pin_job, release_cpus

#: Environment variable holding the warm process's socket path (set for the jobs of a run).
SOCKET_VARIABLE = "GEOBAYES_WARM_SOCKET"
#: Set inside a fork of the warm process: the script's own :func:`hand_over` returns at once.
IN_WARM_PROCESS_VARIABLE = "GEOBAYES_IN_WARM_PROCESS"
#: Packages the jobs import besides the library (every module of ``geobayes`` is imported too).
PRELOADED_PACKAGES = ("jax", "jax.numpy", "numpy", "scipy", "pandas", "yaml", "ot", "matplotlib",
                      "equinox", "diffrax", "optimistix", "optax", "numpyro", "snakemake.script")
#: The line :func:`hand_over` appends to a job's log: the CPU seconds and peak resident memory (the
#: warm process's pages it shares included, as a fresh interpreter's imports would be) of the fork.
CPU_LINE = "warm start: the job's fork used {cpu_s:.3f} CPU seconds and {max_rss_mb:.1f} MB at most"
_USAGE = re.compile("^" + re.escape(CPU_LINE).replace(r"\{cpu_s:\.3f\}", "([0-9.]+)")
                    .replace(r"\{max_rss_mb:\.1f\}", "([0-9.]+)") + "$", re.M)


def recorded_usage(log_text: str) -> tuple[float, float] | None:
    """The fork's (CPU seconds, peak MB) that :func:`hand_over` appended to a job's log
    (:data:`CPU_LINE`), or None for a job that ran in its own interpreter."""
    found = _USAGE.findall(log_text)
    return (float(found[-1][0]), float(found[-1][1])) if found else None


#: Prefix of the temporary directory that holds a run's socket (workflow/rules/warm_start.smk).
DIRECTORY_PREFIX = "geobayes-warm-"


def abandoned(directory: str) -> bool:
    """Whether ``directory`` holds the socket of a warm process that was killed outright.

    A run stopped by SIGKILL to its whole process group (``kill -9``, a scheduler's hard limit)
    takes its warm process with it before either can remove the directory, which then stays with
    a dead socket. Only a socket file that exists and refuses a connection counts: a live run's
    socket accepts one, and a directory whose socket is not yet bound (a run starting beside this
    one) is not abandoned.
    """
    path = os.path.join(directory, "socket")
    if not os.path.exists(path):
        return False
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
    except ConnectionRefusedError:
        return True
    except OSError:
        return False  # someone else's, or a state this check does not know: leave it
    finally:
        probe.close()
    return False


def remove_abandoned_directories(root: str | None = None) -> list[str]:
    """Remove the socket directories of warm processes killed outright (:func:`abandoned`) from
    ``root`` (the system's temporary directory by default); return them."""
    import shutil
    import tempfile

    root = root or tempfile.gettempdir()
    found = [os.path.join(root, name) for name in sorted(os.listdir(root)) if name.startswith(DIRECTORY_PREFIX)]
    removed = [directory for directory in found if abandoned(directory)]
    for directory in removed:
        shutil.rmtree(directory, ignore_errors=True)
    return removed


#: Seconds between the warm process's checks that the Snakemake process that started it lives.
PARENT_CHECK_S = 1.0
_MESSAGE_LIMIT = 1 << 20
_STREAMS = (0, 1, 2)
_FORWARDED_SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def preload() -> list[str]:
    """Import :data:`PRELOADED_PACKAGES` and every module of ``geobayes``; return those that failed.

    Raises
    ------
    RuntimeError
        If an import initialised a JAX backend: a fork of a process with a live XLA client
        (its thread pools) could deadlock, so the warm process must not start.
    """
    import geobayes

    failed = []
    names = [*PRELOADED_PACKAGES, *(m.name for m in pkgutil.walk_packages(geobayes.__path__, "geobayes."))]
    for name in names:
        try:
            importlib.import_module(name)
        except Exception:  # a module a job would fail to import fails there too, with its own error
            failed.append(name)
    from jax._src import xla_bridge

    if xla_bridge.backends_are_initialized():
        raise RuntimeError("warm start: importing the library initialised a JAX backend; forks would be unsafe")
    return failed


def serve(socket_path: str, parent_pid: int) -> None:
    """Preload the library, then run each job a client hands over in a fork, until the process
    ``parent_pid`` is gone or a SIGTERM/SIGINT arrives. The socket opens before the preload, so a
    job that starts meanwhile waits for it (a few seconds) instead of importing everything itself.
    """
    stopping = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stopping.set())
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    listener.settimeout(PARENT_CHECK_S)
    try:
        preload()
        while not stopping.is_set() and os.getppid() == parent_pid:
            _reap_forks()
            try:
                connection, _ = listener.accept()
            except (TimeoutError, InterruptedError):
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            if os.fork() == 0:
                listener.close()
                _run_job(connection)  # never returns
            connection.close()
    finally:
        listener.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(socket_path)


def hand_over(job=None) -> None:
    """Run this job's script in the run's warm process, if one answers, and exit with its status.

    Call it first thing in a pipeline script, before its imports. Returns (and the script goes on
    here) where no warm process answers or this already is a fork of one. Wherever the script
    runs, it runs on its job's threads' CPUs where the run asks for it
    (:func:`geobayes.pipeline.cpu_slots.pin_job`, config ``pin_cpus``).

    Parameters
    ----------
    job : snakemake.script.Snakemake, optional
        The script's ``snakemake`` object. Where it has a log, the fork's CPU seconds and peak
        memory are appended to it as one line (:data:`CPU_LINE`): Snakemake's benchmark of the job
        measures this waiting interpreter only (``benchmarks/job_costs.py`` reads the line).
    """
    if os.environ.get(IN_WARM_PROCESS_VARIABLE):
        return  # the fork takes its CPUs in _run_pinned
    path = os.environ.get(SOCKET_VARIABLE)
    if not path:
        _pin_or_exit()
        return
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(path)
        request = {"argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ)}
        socket.send_fds(client, [json.dumps(request).encode() + b"\n"], list(_STREAMS))
        reader = client.makefile("rb")
        started = reader.readline()
    except OSError:
        started = b""
    if not started:  # nothing ran there: run the job here
        client.close()
        _pin_or_exit()
        return
    fork, received = json.loads(started)["pid"], []
    for number in _FORWARDED_SIGNALS:
        signal.signal(number, lambda number, _frame: (received.append(number), _signal_fork(fork, number)))
    finished = reader.readline()
    if not finished and received:  # stopped by a signal: end as that signal would have ended us
        signal.signal(received[0], signal.SIG_DFL)
        os.kill(os.getpid(), received[0])
    if not finished:
        print(f"warm start: the job's fork {fork} ended without reporting a status (killed or crashed)",
              file=sys.stderr)
    result = json.loads(finished) if finished else {"status": 1}
    status = result["status"]
    if job is not None and job.log and "cpu_s" in result:
        with contextlib.suppress(OSError), open(job.log[0], "a") as log:
            print(CPU_LINE.format(cpu_s=result["cpu_s"], max_rss_mb=result["max_rss_mb"]), file=log)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _signal_fork(pid: int, number: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, number)


def _reap_forks() -> None:
    """Collect finished forks (their status went to their clients), so none stays a zombie."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _run_job(connection: socket.socket) -> None:
    """In a fresh fork: take over the client's job, run its script, report the status, exit."""
    status = 1
    try:
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        message, streams, _, _ = socket.recv_fds(connection, _MESSAGE_LIMIT, len(_STREAMS))
        if not message and not streams:
            # A connection closed without a job: another run's `abandoned` probe of this live
            # socket. Nothing to run and nothing to report (without this check the fork printed a JSON
            # traceback into the live run's output).
            status = 0
            return
        job = json.loads(message)
        for target, received in zip(_STREAMS, streams, strict=True):
            os.dup2(received, target)
            os.close(received)
        os.chdir(job["cwd"])
        os.environ.clear()
        os.environ.update(job["env"], **{IN_WARM_PROCESS_VARIABLE: "1"})
        _limit_library_threads(os.environ.get("OMP_NUM_THREADS"))
        sys.argv = job["argv"]
        sys.path[0] = os.path.dirname(os.path.abspath(job["argv"][0]))  # as `python script.py` sets it
        connection.sendall(json.dumps({"pid": os.getpid()}).encode() + b"\n")
        threading.Thread(target=_exit_when_client_gone, args=(connection,), daemon=True).start()
        status = _run_pinned(job["argv"][0])
        release_cpus()  # before the status: the next job may start the moment the client returns
        connection.sendall(json.dumps({"status": status, **_usage()}).encode() + b"\n")
    except BaseException:  # noqa: BLE001  (a fork must never return into the server's loop)
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            logging.shutdown()
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(status)


def _limit_library_threads(threads: str | None) -> None:
    """Apply the job's thread count to the libraries the warm process loaded before the job existed.

    Snakemake sets ``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS`` and the like to a job's threads,
    but OpenBLAS (NumPy, SciPy) and torch read them when they load, which in a fork was before: left
    alone, a one-thread job would run BLAS on every core, its idle threads spinning (measured: a
    SAM run's CPU seconds doubled). XLA reads nothing of the kind; it starts in the fork.
    """
    if not threads or not threads.isdigit():
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(int(threads))
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(int(threads))


def _pin_or_exit() -> None:
    """:func:`~geobayes.pipeline.cpu_slots.pin_job`, a problem with it ending the job in one line."""
    try:
        pin_job()
    except OSError as error:
        raise SystemExit(str(error)) from None


def _run_pinned(path: str) -> int:
    """In a fork: take the job's CPUs before the script starts XLA, whose pool follows them, then
    run the script; a problem with the CPUs ends the job in one line, as in its own interpreter."""
    try:
        pin_job()
    except OSError as error:
        print(error, file=sys.stderr)
        return 1
    return _run_script(path)


def _run_script(path: str) -> int:
    """Run the script file as ``__main__``; its exit status as a fresh interpreter would give it."""
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as stop:
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0
        print(stop.code, file=sys.stderr)
        return 1
    except BaseException:  # noqa: BLE001  (printed as the interpreter would, then status 1)
        traceback.print_exc()
        return 1
    return 0


def _exit_when_client_gone(connection: socket.socket) -> None:
    """The client sends nothing more; end of stream means it was killed: stop this job too."""
    with contextlib.suppress(OSError):
        connection.recv(1)
    os._exit(1)


def _usage() -> dict[str, float]:
    """CPU seconds (all threads, and any processes the job started) and peak resident MB of this fork."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"cpu_s": own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime,
            "max_rss_mb": max(own.ru_maxrss, children.ru_maxrss) / 1024}


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit("usage: python -m geobayes.pipeline.warm_start SOCKET_PATH PARENT_PID")
    serve(sys.argv[1], int(sys.argv[2]))
