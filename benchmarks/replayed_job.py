"""An approximation job of a finished pipeline run, as a benchmark replays it in a fresh interpreter.

Shared by ``bench_compile_effort.py`` and ``bench_ode_solver.py``: a job ``posterior/anchor/method``
of a results tree is its first repetition's sidecar (the recorded ``approximation`` and ``model``
config, the seed), its MAP and its data file as Snakemake's metadata in the tree recorded the job's
inputs. Reading them needs no JAX, so a child process can set JAX up first (e.g. its compile effort).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path


def missing_job(tree: Path, jobs: list[str]) -> str | None:
    """The first of ``jobs`` whose first repetition has no sidecar under ``tree``, else None."""
    return next((job for job in jobs
                 if not (Path(tree) / "results/approximation" / job / "seed0/samples.json").is_file()), None)


def load_job(tree: str, job: str) -> tuple[dict, dict, str | None]:
    """The job's sidecar, its approximation config (the tangent precision still to add) and data file.

    Returns
    -------
    side : dict
        The first repetition's sidecar (``config``, ``seed``, ``n_samples``, ...).
    approximation : dict
        ``side["config"]["approximation"]``.
    data : str or None
        The data file the job read (its input other than the MAP), None for posteriors without one.
    """
    side = json.loads((Path(tree) / f"results/approximation/{job}/seed0/samples.json").read_text())
    output = f"results/approximation/{job}/seed0/samples.npz"
    metadata = Path(tree) / ".snakemake/metadata" / base64.urlsafe_b64encode(output.encode()).decode()
    recorded = json.loads(metadata.read_text())
    data = next((f"{tree}/{path}" for path in recorded["input"] if not path.startswith("results/map/")), None)
    return side, side["config"]["approximation"], data


def save_record(args, benchmark: str, description: str, rows: list[dict], start: float) -> None:
    """Write the JSON record of a replay benchmark (``args``: its ``output``, ``tree``, ``repeats``, ``cpu``)."""
    import time

    from geobayes.io import provenance, save_json

    save_json(args.output, {"benchmark": benchmark, "description": description, "provenance": provenance(),
                            "tree": str(args.tree), "repeats": args.repeats, "cpu": args.cpu, "jobs": rows,
                            "total_wall_s": time.perf_counter() - start})
    print(f"wrote {args.output}")


def replay_arguments(parser, default_jobs, default_output: Path) -> None:
    """The options every replay benchmark takes: ``--tree``, ``--jobs``, ``--cpu``, ``--output``."""
    parser.add_argument("--tree", type=Path, required=True, help="a pipeline run's directory (results/, data/)")
    parser.add_argument("--jobs", nargs="+", default=list(default_jobs), help="posterior/anchor/method")
    parser.add_argument("--cpu", type=int, default=0, help="the CPU every child runs on")
    parser.add_argument("--output", type=Path, default=default_output)


def run_child(code: str, arguments: list[str], cpu: int, what: str, *, drop_env: tuple[str, ...]) -> dict:
    """Run ``code`` (``python -c``) from the repository root on CPU ``cpu`` without the ``drop_env``
    variables; its last line of output, JSON, is the result. A failed child stops the benchmark in one
    line naming ``what``."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(drop_env)}
    command = ["taskset", "-c", str(cpu), sys.executable, "-c", code, *arguments]
    result = subprocess.run(command, env=env, capture_output=True, text=True, cwd=Path(__file__).resolve().parents[1])
    if result.returncode != 0:
        raise SystemExit(f"error: {what}: {result.stderr.strip().splitlines()[-1]}")
    return json.loads(result.stdout.strip().splitlines()[-1])
