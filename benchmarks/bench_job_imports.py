"""Fixed import cost of every pipeline job: the imports of each workflow script, in a fresh
interpreter as Snakemake starts it.

Each script's module-level ``import`` / ``from ... import`` statements (read with ``ast``; the
script body is not run) are timed in a fresh ``python -c``, ``--repeats`` times, interleaved with
two baselines in the same loop: an empty interpreter and ``import jax`` (which every geobayes
import pulls in). A second section times POT's import as ``geobayes.metrics.wasserstein`` does
it (array backends disabled, scikit-learn hidden) against a plain ``import ot`` with the same
backends disabled, the cost that every evaluation and floor job paid before. Medians; writes
``benchmarks/results/job_imports.json``.

Usage: ``.venv/bin/python benchmarks/bench_job_imports.py [--repeats 5]``
"""

from __future__ import annotations

import argparse
import ast
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


def seconds(code: str) -> float:
    """Wall time of ``python -c code`` in a fresh interpreter."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--output", default=str(REPO / "benchmarks" / "results" / "job_imports.json"))
    args = parser.parse_args()
    cases = {"<empty>": "pass", "<import jax>": "import jax",
             "<pot: import ot>": POT_PLAIN, "<pot: as geobayes imports it>": POT_AS_USED}
    cases.update({script.name: import_block(script) for script in sorted(SCRIPTS.glob("*.py"))})
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.repeats):  # interleaved, so load on the machine hits every case alike
        for name, code in cases.items():
            times[name].append(seconds(code))
    medians = {name: statistics.median(t) for name, t in times.items()}
    for name, median in medians.items():
        print(f"{name:32s} median {median:6.2f} s  (over import jax {median - medians['<import jax>']:+6.2f} s)")
    ratio = medians["<pot: import ot>"] / medians["<pot: as geobayes imports it>"]
    print(f"POT import: plain / as geobayes imports it = {ratio:.2f}")
    save_json(args.output, {"repeats": args.repeats, "median_s": medians, "samples_s": times,
                            "pot_plain_over_geobayes": ratio, "provenance": provenance()})


if __name__ == "__main__":
    main()
