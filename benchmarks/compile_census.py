"""Census of the XLA compilations of a finished DAG run: how many, how long, and how many repeated.

Run the DAG with JAX's compile log on, then point this script at the run's directory::

    JAX_LOG_COMPILES=1 snakemake --cores 2 --configfile config/tiny.yaml      # in a copy
    .venv/bin/python benchmarks/compile_census.py --run /tmp/tiny --output benchmarks/results/compile_census_tiny.json

Every job's log then holds JAX's lines for each program it needed: ``Finished XLA compilation of
<program> in <s> sec`` for every executable, preceded by ``Persistent compilation cache hit for
<program>`` when the executable came from the run's shared cache (config ``compilation_cache``)
instead of the compiler. The census counts both, sums the seconds per program name, and counts
the distinct cache entries the run left, so that a program compiled by two jobs (a miss where
another job already compiled the same computation, e.g. two concurrent jobs) shows as more
compilations than entries.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from geobayes.io import provenance, save_json  # noqa: E402

HIT = "Persistent compilation cache hit"
FINISHED = re.compile(r"Finished XLA compilation of (\S+) in ([0-9.]+) sec")
#: Programs compiled in less than this many seconds count as "small" (mostly op-by-op eager ops).
SMALL_S = 0.3


def census(run: Path) -> dict:
    """Compilations and cache loads recorded in the job logs under ``run/logs``."""
    logs = sorted(run.glob("logs/**/*.log"))
    if not logs:
        raise SystemExit(f"compile_census: no job logs under {run / 'logs'}")
    by_program = collections.defaultdict(lambda: {"compiled": 0, "compile_s": 0.0, "loaded": 0, "load_s": 0.0})
    jobs_with_lines = 0
    for log in logs:
        hit, seen = False, False
        for line in log.read_text(errors="replace").splitlines():
            if HIT in line:
                hit = True
                continue
            found = FINISHED.search(line)
            if found:
                seen = True
                entry = by_program[found.group(1)]
                kind = "loaded" if hit else "compiled"
                entry[kind] += 1
                entry["load_s" if hit else "compile_s"] += float(found.group(2))
                hit = False
        jobs_with_lines += seen
    if not jobs_with_lines:
        raise SystemExit(f"compile_census: no 'Finished XLA compilation' lines in {len(logs)} logs under {run}: "
                         "was the run made with JAX_LOG_COMPILES=1?")
    compiled = sum(e["compiled"] for e in by_program.values())
    cache = run / "results" / ".jax_cache"
    entries = sum(1 for p in cache.iterdir() if p.name.endswith("-cache")) if cache.is_dir() else None
    small = [(n, e) for n, e in by_program.items() if e["compiled"] and e["compile_s"] / e["compiled"] < SMALL_S]
    return {
        "run": str(run), "logs": len(logs), "jobs_with_compile_lines": jobs_with_lines,
        "compiled": compiled, "compile_s": sum(e["compile_s"] for e in by_program.values()),
        "loaded_from_cache": sum(e["loaded"] for e in by_program.values()),
        "load_s": sum(e["load_s"] for e in by_program.values()),
        "cache_entries": entries,
        "compiled_beyond_cache_entries": None if entries is None else compiled - entries,
        "small_programs": {"threshold_s": SMALL_S, "names": len(small),
                           "compiled": sum(e["compiled"] for _, e in small),
                           "compile_s": sum(e["compile_s"] for _, e in small)},
        "by_program": dict(sorted(by_program.items(), key=lambda item: -item[1]["compile_s"])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, required=True, help="directory of a finished run made with JAX_LOG_COMPILES=1")
    parser.add_argument("--output", type=Path, default=Path("benchmarks/results/compile_census.json"))
    parser.add_argument("--top", type=int, default=12, help="programs to print")
    args = parser.parse_args()
    record = census(args.run)
    record["provenance"] = provenance()
    save_json(args.output, record)
    print(f"{record['compiled']} compilations ({record['compile_s']:.0f} s), {record['loaded_from_cache']} loads "
          f"from the cache ({record['load_s']:.0f} s), {record['cache_entries']} cache entries")
    small = record["small_programs"]
    print(f"programs under {small['threshold_s']} s: {small['compiled']} compilations, {small['compile_s']:.0f} s")
    print(f"{'program':40s} {'compiled':>8s} {'s':>8s} {'loaded':>8s}")
    for name, entry in list(record["by_program"].items())[:args.top]:
        print(f"{name[:40]:40s} {entry['compiled']:8d} {entry['compile_s']:8.1f} {entry['loaded']:8d}")


if __name__ == "__main__":
    main()
