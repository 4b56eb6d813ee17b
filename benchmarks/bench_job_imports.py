"""Fixed import cost of every pipeline job: the imports of each workflow script, in a fresh
interpreter as Snakemake starts it.

Each script's module-level ``import`` / ``from ... import`` statements (read with ``ast``; the
script body is not run) are timed in a fresh ``python -c``, ``--repeats`` times, interleaved with
two baselines in the same loop: an empty interpreter and ``import jax`` (which every geobayes
import pulls in). A second section times POT's import as ``geobayes.metrics.wasserstein`` does
it (array backends disabled, scikit-learn hidden) against a plain ``import ot`` with the same
backends disabled, the cost that every evaluation and floor job paid before. With
``--baseline SRC`` (the ``src/`` of an older checkout, e.g. a ``git worktree``) every script's
imports are also timed against that library in the same loop, and the ratio baseline / now is
reported per script. Medians; writes ``benchmarks/results/job_imports.json``.

Usage: ``.venv/bin/python benchmarks/bench_job_imports.py [--repeats 5] [--baseline ../old/src]``
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from geobayes.io import provenance, save_json

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "workflow" / "scripts"
POT_PLAIN = ("import os\nfor v in ('PYTORCH', 'TENSORFLOW', 'CUPY'):\n"
             "    os.environ.setdefault('POT_BACKEND_DISABLE_' + v, '1')\nimport ot")
POT_AS_USED = "from geobayes.metrics.wasserstein import _import_pot\n_import_pot()"


def import_block(script: Path) -> str:
    """The module-level import statements of one script, as source."""
    tree = ast.parse(script.read_text())
    return "\n".join(ast.unparse(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)))


def seconds(code: str, src: Path) -> float:
    """Wall time of ``python -c code`` in a fresh interpreter importing geobayes from ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True)
    # NaN where the imports fail, e.g. a script importing a name the baseline library lacks.
    return time.perf_counter() - start if result.returncode == 0 else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--baseline", type=Path, default=None, help="src/ of the checkout to compare with")
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "job_imports.json"))
    args = parser.parse_args()
    sources = {"now": REPO / "src"}
    if args.baseline is not None:
        sources["baseline"] = args.baseline.resolve()
    cases = {"<empty>": "pass", "<import jax>": "import jax",
             "<pot: import ot>": POT_PLAIN, "<pot: as geobayes imports it>": POT_AS_USED}
    cases.update({script.name: import_block(script) for script in sorted(SCRIPTS.glob("*.py"))})
    times: dict[str, dict[str, list[float]]] = {label: {name: [] for name in cases} for label in sources}
    for _ in range(args.repeats):  # interleaved, so load on the machine hits every case alike
        for name, code in cases.items():
            for label, src in sources.items():
                times[label][name].append(seconds(code, src))
    medians = {label: {name: statistics.median(t) for name, t in by_case.items()} for label, by_case in times.items()}
    # (a NaN sample makes the median NaN: that script could not import there)
    now = medians["now"]
    for name, median in now.items():
        line = f"{name:32s} median {median:6.2f} s  (over import jax {median - now['<import jax>']:+6.2f} s)"
        if "baseline" in medians:
            line += f"  baseline {medians['baseline'][name]:6.2f} s  ratio {medians['baseline'][name] / median:5.2f}"
        print(line)
    ratio = now["<pot: import ot>"] / now["<pot: as geobayes imports it>"]
    print(f"POT import: plain / as geobayes imports it = {ratio:.2f}")
    save_json(args.output, {"repeats": args.repeats, "median_s": medians, "samples_s": times,
                            "baseline": None if args.baseline is None else str(args.baseline),
                            "pot_plain_over_geobayes": ratio, "provenance": provenance()})


if __name__ == "__main__":
    main()
