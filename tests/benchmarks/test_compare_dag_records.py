"""benchmarks/compare_dag_records.py: the before/after table of two DAG-run records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "compare_dag_records.py"


def record(rules: dict[str, tuple[int, float]], wall: float) -> dict:
    costs = {rule: {"jobs": jobs, "total_s": seconds, "cpu_s": seconds} for rule, (jobs, seconds) in rules.items()}
    total = sum(seconds for _, seconds in rules.values())
    return {"rules": costs, "papers": {"p": {"jobs": 1, "total_s": total, "cpu_s": total}},
            "wall_s": wall, "job_time_s": total, "cpu_s": total}


def run(tmp_path: Path, before: dict, after: dict | str) -> subprocess.CompletedProcess:
    (tmp_path / "before.json").write_text(json.dumps(before))
    (tmp_path / "after.json").write_text(after if isinstance(after, str) else json.dumps(after))
    return subprocess.run([sys.executable, str(SCRIPT), str(tmp_path / "before.json"), str(tmp_path / "after.json")],
                          capture_output=True, text=True)


def test_rules_are_listed_most_saved_first_with_their_ratio(tmp_path):
    before = record({"approximate": (10, 400.0), "evaluate": (5, 10.0), "gone": (1, 3.0)}, wall=300.0)
    after = record({"approximate": (10, 100.0), "evaluate": (5, 20.0), "new": (2, 4.0)}, wall=100.0)
    out = run(tmp_path, before, after)
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == ["approximate", "gone", "new", "evaluate"]
    assert rows[0].endswith("| 400 | 100 | 4.00x |") and rows[1].endswith("| 3 | 0 | - |")
    assert "| wall_s | 300 | 100 | 3.00x |" in out.stdout


def test_a_file_that_is_not_a_record_is_named_in_one_line(tmp_path):
    out = run(tmp_path, record({"a": (1, 1.0)}, 1.0), {"rules": {}})
    assert out.returncode != 0
    assert out.stderr.strip().count("\n") == 0
    assert "after.json: not a bench_quick_dag.py record (missing papers, wall_s, job_time_s, cpu_s)" in out.stderr
