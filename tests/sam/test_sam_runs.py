"""One run of Liu & Zhu's (2018) SAM experiment per kind of method (geobayes.pipeline.liu2018_sam_run), on the
synthetic corpus of conftest.py: the curve's shape, a finite log-perplexity, the -seq window, errors."""

from __future__ import annotations

import jax
import numpy as np
import pytest

from geobayes.pipeline.liu2018_sam_run import SamMethod, run_sam
from geobayes.sam import SamSettings

METHODS = {
    "rsvgd": SamMethod("rsvgd", None, 1e-4, "decay", "median", None, None, None, 3, 2),
    "gmc_seq": SamMethod("gmc", "seq", 1e-3, None, None, 1, None, None, 3, 2),
    "sggmcb_par": SamMethod("sggmc", "par", 1e-3, None, None, 2, 1e-2, 50, 3, 2),
}


@pytest.fixture(scope="module")
def corpus(synthetic_sam):
    docs = synthetic_sam["documents"]
    return {"train_documents": docs[:150], "test_documents": docs[150:]}


@pytest.mark.parametrize("name", sorted(METHODS))
def test_a_run_records_the_log_perplexity_after_every_epoch(name, corpus):
    model = SamSettings(n_topics=3, kappa1=3000.0, alpha=2.0, inner_leapfrog_steps=2)
    record, curves = run_sam(jax.random.PRNGKey(0), corpus, METHODS[name], model, particles=4, epochs=3,
                             perplexity_draws=10)
    assert list(curves["epochs"]) == [0, 1, 2, 3] and np.isfinite(curves["log_perplexity"]).all()
    assert record["n_failed"] == 0 and record["log_perplexity_final"] == curves["log_perplexity"][-1]
    # -seq: one chain, its last N states (3 moves + the start = 4 = N); -par and RSVGD: N particles
    assert record["n_samples"] == 4
    assert record["steps_per_epoch"] == (3 if name == "sggmcb_par" else 1)  # ceil(150 / 50) mini-batches
    if name == "gmc_seq":
        assert 0.0 <= record["acceptance_rate"] <= 1.0


@pytest.mark.parametrize("mapping, message", [
    ({"method": "gmc", "mode": None, "step_size": 1.0, "schedule": None, "bandwidth": None, "leapfrog_steps": 1,
      "friction": None, "batch_size": None, "inner": {"burn_in": 1, "kept": 1}},
     r"^m.gmc_x: method 'gmc' with mode None; expected rsvgd \(mode null\), gmc or sggmc \(mode seq or par\)$"),
    ({"method": "sggmc", "mode": "par", "step_size": 1.0, "schedule": None, "bandwidth": None, "leapfrog_steps": 1,
      "friction": None, "batch_size": None, "inner": {"burn_in": 1, "kept": 1}},
     r"^m.gmc_x: sggmc needs \['friction'\]$"),
    ({"method": "rsvgd", "mode": None, "step_size": 1.0, "schedule": "decaying", "bandwidth": "median",
      "leapfrog_steps": None, "friction": None, "batch_size": None, "inner": {"burn_in": 1, "kept": 1}},
     r"^m.gmc_x.schedule: expected one of \['fixed', 'decay'\], got 'decaying'$"),
])
def test_a_bad_method_entry_is_one_line_naming_it(mapping, message):
    with pytest.raises(ValueError, match=message):
        SamMethod.from_mapping(mapping, "m.gmc_x")
