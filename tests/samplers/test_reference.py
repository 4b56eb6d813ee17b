"""Reference records: checks, save/load round trip, refusal of failing references."""

import subprocess
import sys

import numpy as np
import pytest

from geobayes import io, samplers
from geobayes.samplers import (
    Reference,
    ReferenceCheckError,
    ReferenceChecks,
    evaluate_checks,
    load_reference,
    require_passing,
    save_reference,
)
from geobayes.samplers import diagnostics as diag


def _reference(shift=0.0, divergences=0):
    rng = np.random.default_rng(0)
    grouped = rng.normal(size=(4, 500, 2))
    grouped[-1] += shift
    d = {**diag.summarize(grouped), "divergences": divergences, "n_draws": 2000}
    checks = ReferenceChecks()
    return Reference(
        draws=grouped.reshape(-1, 2),
        chain_index=np.repeat(np.arange(4), 500),
        diagnostics=d,
        checks=evaluate_checks(d, checks),
        thresholds=checks.to_dict(),
        method="iid",
        method_args={"chains": 4},
        seed=3,
        key_data=[0, 3],
    )


def test_round_trip(tmp_path):
    ref = _reference()
    assert ref.passed
    npz, js = tmp_path / "ref" / "draws.npz", tmp_path / "ref" / "draws.json"
    save_reference(npz, js, ref, extra={"posterior": "gauss-2d"})
    back = load_reference(npz, js)
    np.testing.assert_array_equal(back.draws, ref.draws)
    np.testing.assert_array_equal(back.chain_index, ref.chain_index)
    assert back.diagnostics == ref.diagnostics
    assert back.checks == ref.checks and back.thresholds == ref.thresholds
    assert (back.method, back.method_args, back.seed, back.key_data) == ("iid", {"chains": 4}, 3, [0, 3])
    record = io.load_json(js)
    assert record["posterior"] == "gauss-2d" and record["passed"] is True
    require_passing(record, js)  # passes silently
    # no temp files left behind
    assert sorted(p.name for p in (tmp_path / "ref").iterdir()) == ["draws.json", "draws.npz"]


def test_extra_may_not_overwrite_fields(tmp_path):
    with pytest.raises(ValueError, match="clash"):
        save_reference(tmp_path / "a.npz", tmp_path / "a.json", _reference(), extra={"checks": {}})
    assert not list(tmp_path.iterdir())


def test_require_passing_names_file_and_every_failing_check(tmp_path):
    ref = _reference(shift=1.0, divergences=3)
    assert not ref.passed
    js = tmp_path / "bad.json"
    save_reference(tmp_path / "bad.npz", js, ref)
    with pytest.raises(ReferenceCheckError) as info:
        require_passing(io.load_json(js), js)
    msg = str(info.value)
    assert str(js) in msg
    r_hat = max(ref.diagnostics["r_hat"])
    assert f"r_hat_below_1.01 failed: max R-hat {r_hat:.4g} > 1.01" in msg
    assert "ess_bulk_above_400 failed: min bulk ESS" in msg
    assert "divergences_at_most_0 failed: 3 divergent transitions > 0" in msg
    assert "ess_tail_above_400" not in msg or "ess_tail_above_400 failed" in msg


def test_require_passing_rechecks_diagnostics_and_records():
    record = _reference().to_json()
    # diagnostics edited to fail while the recorded boolean still says True
    record["diagnostics"] = {**record["diagnostics"], "ess_tail": [10.0, 5000.0]}
    with pytest.raises(ReferenceCheckError, match="ess_tail_above_400 failed: min tail ESS 10 < 400"):
        require_passing(record, "ref.json")
    record = _reference().to_json()
    record["checks"]["divergences_at_most_0"] = False
    with pytest.raises(ReferenceCheckError, match="divergences_at_most_0 failed"):
        require_passing(record, "ref.json")
    with pytest.raises(ReferenceCheckError, match="lacks"):
        require_passing({"diagnostics": {}}, "ref.json")


def test_custom_thresholds_name_the_checks():
    checks = ReferenceChecks(max_r_hat=1.05, min_ess_bulk=100, min_ess_tail=50, max_divergences=2)
    d = {"r_hat": [1.02], "ess_bulk": [150.0], "ess_tail": [40.0], "divergences": 2}
    assert evaluate_checks(d, checks) == {
        "r_hat_below_1.05": True,
        "ess_bulk_above_100": True,
        "ess_tail_above_50": False,
        "divergences_at_most_2": True,
    }
    with pytest.raises(ValueError, match="ReferenceChecks.max_divergences"):
        ReferenceChecks(max_divergences=-1)
    with pytest.raises(ValueError, match="ReferenceChecks.max_r_hat"):
        ReferenceChecks(max_r_hat=0.9)


def test_reference_records_load_without_the_sampler():
    # Evaluation jobs only read references: importing them must not import NumPyro (seconds per job).
    probe = ("import sys\nfrom geobayes.samplers.reference import require_passing\n"
             "from geobayes.samplers import load_reference\nprint('numpyro' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def test_package_names_resolve_lazily_and_unknown_names_fail():
    assert samplers.run_nuts.__module__ == "geobayes.samplers.nuts"
    assert sorted(samplers.__all__) == sorted(name for name in dir(samplers) if name in samplers.__all__)
    with pytest.raises(AttributeError, match="no attribute 'run_nut'"):
        samplers.run_nut
