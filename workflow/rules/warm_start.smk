# Warm job processes (config `warm_start`; src/geobayes/pipeline/warm_start.py): a local run starts one
# process that imports the library once, and every job's script hands its work to a fork of it
# instead of importing JAX and the library again (about 2.8 CPU seconds a job). Cluster runs (the
# SLURM executor, its job steps) and dry runs start none; a script that finds none runs as before.

import atexit
import shutil
import subprocess
import sys
import tempfile

_WARM_PROCESS = {}


def _start_warm_process():
    """Start the run's warm process and point every job at its socket (the jobs inherit this
    process's environment)."""
    if not config["warm_start"] or not workflow.local_exec or workflow.remote_exec:
        return
    from geobayes.pipeline.warm_start import DIRECTORY_PREFIX, SOCKET_VARIABLE, remove_abandoned_directories

    remove_abandoned_directories()  # those of earlier runs killed outright
    directory = tempfile.mkdtemp(prefix=DIRECTORY_PREFIX)
    socket_path = os.path.join(directory, "socket")
    command = [sys.executable, "-m", "geobayes.pipeline.warm_start", socket_path, str(os.getpid())]
    _WARM_PROCESS.update(process=subprocess.Popen(command, stdin=subprocess.DEVNULL), directory=directory)
    os.environ[SOCKET_VARIABLE] = socket_path
    atexit.register(_stop_warm_process)


def _stop_warm_process():
    """Stop the warm process (jobs started later run in their own interpreters)."""
    process = _WARM_PROCESS.pop("process", None)
    if process is None:
        return
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    shutil.rmtree(_WARM_PROCESS.pop("directory"), ignore_errors=True)


onstart:
    _start_warm_process()


onsuccess:
    _stop_warm_process()


onerror:
    _stop_warm_process()
