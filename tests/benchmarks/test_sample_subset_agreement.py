"""benchmarks/sample_subset_agreement.py: a run's draws cut to the first k per repetition, recounted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from benchmark_scripts import load_benchmark

from geobayes.io import save_json, save_npz
from geobayes.methods.base import ApproximateDraws, summarise_draws

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "benchmarks" / "sample_subset_agreement.py"


@pytest.fixture(scope="module")
def script():
    return load_benchmark("sample_subset_agreement")


def repetition(directory: Path, draws: ApproximateDraws) -> Path:
    """One stored repetition as the approximate rule writes it: samples.npz and its record (Dopri5: T = 6 x steps)."""
    npz = directory / "samples.npz"
    arrays = {name: value for name, value in draws._asdict().items() if value is not None}
    save_npz(npz, mode=np.zeros(3), **arrays)
    save_json(npz.with_suffix(".json"), {"method": "rla_b", "seconds_per_sample": 0.5, **summarise_draws(draws, 6)})
    return npz


def test_cut_keeps_the_first_draws_and_recounts_failures_steps_and_t(tmp_path, script):
    n = 10
    successful = np.array([True, False, True, True, True, True, False, False, True, True])
    draws = ApproximateDraws(theta=np.arange(3.0 * n).reshape(n, 3), successful=successful,
                             result_code=np.where(successful, 0, 7).astype(np.int32),
                             num_steps=np.arange(1, n + 1) * 10, residual=None, fallback=None,
                             speed_drift=np.linspace(0.0, 0.9, n))
    npz = repetition(tmp_path, draws)
    assert script.cut_draws(npz, 4) == n
    with np.load(npz) as cut:
        np.testing.assert_array_equal(cut["theta"], draws.theta[:4])
        np.testing.assert_array_equal(cut["mode"], np.zeros(3))  # not a per-draw array
        assert cut["successful"].tolist() == [True, False, True, True]
    record = json.loads(npz.with_suffix(".json").read_text())
    assert (record["n_samples"], record["n_failed"], record["cut_from"]) == (4, 1, n)
    assert record["mean_steps"] == 25.0 and record["T"] == 150.0 and record["max_steps_taken"] == 40
    assert record["result_codes"] == {"0": 3, "7": 1}
    assert record["max_speed_drift"] == pytest.approx(0.3)  # over the successful first four
    assert record["seconds_per_sample"] == 0.5  # what the full run measured is kept
    # a repetition that already has k draws or fewer is left alone
    assert script.cut_draws(npz, 4) is None and script.cut_draws(npz, 9) is None


def test_particle_methods_are_never_cut(tmp_path, script):
    for method in ("rla_b", "svgd"):
        directory = tmp_path / "results/approximation/p-gaussian/euclidean" / method / "seed0"
        directory.mkdir(parents=True)
        repetition(directory, ApproximateDraws(theta=np.zeros((6, 3)), successful=np.ones(6, bool),
                                               result_code=np.zeros(6, np.int32), num_steps=np.ones(6),
                                               residual=None, fallback=None, speed_drift=None))
    rows = script.cut_tree(tmp_path, {"gaussian": 2}, {"gaussian": ["p-gaussian"]})
    assert [row["method"] for row in rows] == ["rla_b"]
    assert np.load(tmp_path / "results/approximation/p-gaussian/euclidean/svgd/seed0/samples.npz")["theta"].shape[0] == 6


@pytest.mark.parametrize("arguments, message", [
    (["--samples", "bnn_yu"], "--samples 'bnn_yu': expected EXPERIMENT=K with K >= 1"),
    (["--samples", "bnn_yu=0"], "expected EXPERIMENT=K with K >= 1"),
    (["--samples", "bnn_yu=100"], "no summary"),
])
def test_bad_arguments_are_named_in_one_line_and_nothing_is_written(tmp_path, arguments, message):
    into, output = tmp_path / "into", tmp_path / "record.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--tree", str(tmp_path / "run"), "--into", str(into),
                           "--output", str(output), *arguments], capture_output=True, text=True, cwd=REPO)
    assert done.returncode != 0
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not into.exists() and not output.exists()
