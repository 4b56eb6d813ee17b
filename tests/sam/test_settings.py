"""SamSettings: the code's defaults and one-line validation errors."""

import dataclasses

import pytest

from geobayes.sam import SamSettings


def test_defaults_are_the_codes_settings():
    s = SamSettings()
    assert (s.n_topics, s.sigma, s.kappa0, s.kappa1, s.alpha) == (20, 1e4, 1e4, 3e4, 10.0)
    assert (s.inner_leapfrog_steps, s.inner_step_size, s.inner_burn_in, s.inner_kept) == (10, 1e-6, 15, 10)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.sigma = 1.0
    hash(s)  # usable as a static jit argument


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("sigma", -1.0, "SamSettings.sigma: must be > 0"),
        ("kappa1", float("nan"), "SamSettings.kappa1: expected a finite number"),
        ("n_topics", 2.5, "SamSettings.n_topics: expected an integer"),
        ("n_topics", 1, "SamSettings.n_topics: need at least 2 topics"),
        ("inner_kept", 0, "SamSettings.inner_kept: must be >= 1"),
        ("inner_burn_in", -1, "SamSettings.inner_burn_in: must be >= 0"),
        ("inner_leapfrog_steps", True, "SamSettings.inner_leapfrog_steps: expected an integer"),
        ("alpha", 0.5, "SamSettings.alpha: the simplex sampler needs alpha >= 1"),
    ],
)
def test_bad_values_name_the_field(field, value, message):
    with pytest.raises(ValueError, match=message):
        SamSettings(**{field: value})
