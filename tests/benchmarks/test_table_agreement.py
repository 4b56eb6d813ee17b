"""benchmarks/table_agreement.py: every report table of some experiments from two finished runs' trees."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tidy_summaries import bergamin_uci_summary as summary

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "table_agreement.py"
VEHICLE = {"map": 0.60, "ela": 0.58, "rla_b": 0.40, "lin_ela": 0.50, "lin_rla_b": 0.45}


def run(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *arguments], capture_output=True, text=True, cwd=REPO)


def test_a_run_whose_best_method_moves_is_named_with_every_table_over_the_experiment(tmp_path):
    baseline, candidate, output = tmp_path / "full", tmp_path / "smaller", tmp_path / "record.json"
    summary(baseline, {("vehicle", 0): VEHICLE})
    summary(candidate, {("vehicle", 0): {**VEHICLE, "lin_rla_b": 0.39}})  # the smaller run: lin-riem-LA best
    out = run("--baseline", str(baseline), "--candidate", str(candidate), "--experiments", "bergamin_uci",
              "--output", str(output))
    assert out.returncode == 0, out.stderr
    record = json.loads(output.read_text())
    table2 = record["tables"]["bergamin2023_table2"]
    assert table2["same_best_as_baseline"] == 0 and table2["groups"] == 1
    assert table2["differing_best"] == {"vehicle nll": {"baseline": ["rla_b"], "candidate": ["lin_rla_b"]}}
    # the paper has riem-LA best on vehicle: the candidate loses that agreement
    assert (table2["baseline"]["winners_agree"], table2["candidate"]["winners_agree"]) == (1, 0)
    # Tables 5 and 6 are built too (same NLL-free metrics: one tie group each), and nothing of other experiments
    assert {"bergamin2023_table5", "bergamin2023_table6"} <= set(record["tables"])
    assert not any(name.startswith("yu2024") for name in record["tables"])


def test_a_missing_summary_is_named_in_one_line_and_nothing_is_written(tmp_path):
    summary(tmp_path / "full", {("vehicle", 0): VEHICLE})
    out = run("--baseline", str(tmp_path / "full"), "--candidate", str(tmp_path / "none"),
              "--experiments", "bergamin_uci", "--output", str(tmp_path / "r.json"))
    assert out.returncode != 0
    assert out.stderr.strip().splitlines() == [
        f"table_agreement: no summary {tmp_path}/none/results/summary/bergamin_uci.csv (run the experiments first)"]
    assert not (tmp_path / "r.json").exists()
