"""benchmarks/project_paper_scale.py: Yu et al. (2023)'s chains projected from their own epochs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import load_benchmark

from geobayes.io import save_json, save_npz

JobCost = load_benchmark("job_costs").JobCost
CHAIN = "yu2023_mnist/chain/n400_horseshoe-mlp/{sampler}/lr0.25/seed0"


@pytest.fixture(scope="module")
def script():
    return load_benchmark("project_paper_scale")


def quick_chain(run: Path, sampler: str, cpu_s: float, per_epoch: float):
    """A finished quick chain: its record under results/ and its cost row (benchmark path under logs/)."""
    save_json(run / "results" / f"{CHAIN.format(sampler=sampler)}.json", {"seconds_per_epoch": per_epoch})
    # four epochs, the first compiling (the record's seconds_per_epoch is the median of the others)
    save_npz(run / "results" / f"{CHAIN.format(sampler=sampler)}.npz",
             epoch_seconds=np.array([2.0 * per_epoch, per_epoch, per_epoch, per_epoch]))
    return JobCost("yu2023_chain", "yu2023", f"logs/benchmarks/{CHAIN.format(sampler=sampler)}.tsv", cpu_s, cpu_s, 900.0)


def test_a_chain_costs_its_epochs_at_paper_length_plus_the_rest_of_its_job(tmp_path, script):
    costs = [quick_chain(tmp_path, "identity", 45.0, 7.0), quick_chain(tmp_path, "shampoo", 125.0, 22.0),
             quick_chain(tmp_path, "monge", 60.0, 9.0)]
    chains = script.chain_epoch_costs(tmp_path, costs)
    # 45 s of job, 4 epochs of 7 s: 17 s outside the training epochs
    assert chains[costs[0].path] == (17.0, 7.0)
    # the quick chain itself at 400 epochs on a network 2.67 times larger
    assert script.chain_cost(costs[0].path, {"sampler": "identity"}, chains, 400, 2.67) == pytest.approx(
        17.0 + 400 * 7.0 * 2.67)
    # a grid point the quick run lacks takes its sampler's quick chain, not the median of all samplers
    other = "logs/benchmarks/yu2023_mnist/chain/n800_gaussian-mlp/shampoo/lr0.01/seed3.tsv"
    assert script.chain_cost(other, {"sampler": "shampoo"}, chains, 400, 1.0) == 37.0 + 400 * 22.0
    # the rule's generic model (cheapest job + the rest x 100) would have left identity's chain at 45 s
    assert script.chain_cost(costs[0].path, {"sampler": "identity"}, chains, 400, 1.0) > 60 * 45.0


def test_a_chain_that_diverged_counts_only_the_epochs_it_ran(tmp_path, script):
    cost = quick_chain(tmp_path, "wenzel", 30.0, 7.0)
    save_npz(tmp_path / "results" / f"{CHAIN.format(sampler='wenzel')}.npz", epoch_seconds=np.array([14.0, 7.0]))
    assert script.chain_epoch_costs(tmp_path, [cost])[cost.path] == (16.0, 7.0)


def test_a_chain_without_its_record_is_named(tmp_path, script):
    cost = JobCost("yu2023_chain", "yu2023", f"logs/benchmarks/{CHAIN.format(sampler='wenzel')}.tsv", 40.0, 40.0, 1.0)
    with pytest.raises(SystemExit, match="no chain record .*wenzel/lr0.25/seed0.json"):
        script.chain_epoch_costs(tmp_path, [cost])
